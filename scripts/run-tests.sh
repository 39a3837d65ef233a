#!/usr/bin/env bash
# Sets permbb up (scripts/setup.sh) and runs the whole test suite with ctest: every unit and
# integration test, then the multi-threaded tests again under ThreadSanitizer (label
# `threads`, separate build in build-tsan), then the decoders' fuzz targets for a bounded time
# each (label `fuzz`, clang build in build-fuzz), then the unit and CLI/MPI integration tests
# under AddressSanitizer and UndefinedBehaviorSanitizer (build-asan). Every test has its own
# timeout, so a hang fails.
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

echo "== AddressSanitizer + UndefinedBehaviorSanitizer: unit and CLI/MPI integration tests =="
"$root/scripts/setup.sh" --build-dir build-asan --asan
# Every report fails its test: each sanitizer aborts the process (SIGABRT, a status permbb
# never exits with). UBSan needs abort_on_error itself: gcc's runtime does not read it from
# ASAN_OPTIONS. LeakSanitizer runs at every exit and skips only Open MPI's own leaks
# (tests/sanitizers/lsan.supp says why the slow unwinder is needed to see them).
# Left out here: slurm (a slow local Slurm around the executable the cluster test runs),
# fuzz (its own build), and checkpoint, signals and differential_cluster, which time kills
# and signals against many runs of the same executable: the code they reach (saves, loads,
# restarts, the cluster) runs under the sanitizers in the unit tests and in the cli,
# hardening and cluster tests.
ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:halt_on_error=1:fast_unwind_on_malloc=0" \
UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1" \
LSAN_OPTIONS="suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0" \
  ctest --test-dir "$root/build-asan" -LE "slurm|fuzz" \
    -E "^(checkpoint|signals|differential_cluster)$" \
    -j "$(nproc)" --output-on-failure --timeout 900

