#!/usr/bin/env bash
# Sets permbb up (scripts/setup.sh) and runs the whole test suite with ctest: every unit and
# integration test, then the multi-threaded tests again under ThreadSanitizer (label
# `threads`, separate build in build-tsan), then the decoders' fuzz targets for a bounded time
# each (label `fuzz`, clang build in build-fuzz). Every test has its own timeout, so a hang
# fails.
set -euo pipefail
if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  echo "Usage: scripts/run-tests.sh   (installs, builds, runs every test, then the threaded ones under TSan, then the fuzz targets)"
  exit 0
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
ctest --test-dir "$root/build" -j "$(nproc)" --output-on-failure --timeout 900

echo "== ThreadSanitizer: tests labelled 'threads' =="
"$root/scripts/setup.sh" --build-dir build-tsan --tsan
# A data race fails the test (exit status 66) instead of only printing a report.
TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
  ctest --test-dir "$root/build-tsan" -L threads -j "$(nproc)" --output-on-failure --timeout 900

echo "== Fuzzing: the decoders' fuzz targets (label 'fuzz'), about 20 s each =="
"$root/scripts/setup.sh" --build-dir build-fuzz --fuzz
ctest --test-dir "$root/build-fuzz" -L fuzz -j "$(nproc)" --output-on-failure --timeout 900
