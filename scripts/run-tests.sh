#!/usr/bin/env bash
# Sets permbb up (scripts/setup.sh) and runs the whole test suite with ctest, in four builds:
#   build       the quick start (scripts/quickstart.sh: permbb alone, ta017 solved), then
#               every unit and integration test (Release);
#   build-tsan  the multi-threaded tests (label `threads`) under ThreadSanitizer;
#   build-fuzz  the decoders' fuzz targets (label `fuzz`, clang), for a bounded time each;
#   build-asan  the unit tests and the single-process CLI tests under AddressSanitizer and
#               UndefinedBehaviorSanitizer.
# Each sanitizer build compiles only what it runs. On a machine without a GPU the CUDA
# explorer is left out of the builds: its device tests could not run there (they run on a GPU
# machine, tools/device_checks.sh); the warp code runs on emulated lanes in every build.
# Every test has its own timeout, so a hang fails.
set -euo pipefail
if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  echo "Usage: scripts/run-tests.sh   (installs, builds, runs every test, then the threaded ones" \
    "under TSan, the fuzz targets, and the unit and CLI tests under ASan+UBSan)"
  exit 0
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=$(nproc)

gpu_option=()
if ! nvidia-smi -L 2>/dev/null | grep -q "^GPU [0-9]"; then gpu_option=(--no-gpu); fi

step() { echo "== $* ($(date -u +%H:%M:%S)) =="; }

step "Quick start: the README's first command, from this clone"
# It builds permbb alone in build/, which the Release build below then completes. ta017's
# optimum (1484) is Taillard's published one, not a figure of permbb's.
quickstart_log=$(mktemp)
"$root/scripts/quickstart.sh" "${gpu_option[@]}" | tee "$quickstart_log"
if ! grep -Eq '^status +optimal$' "$quickstart_log" ||
  ! grep -Eq '^makespan +1484$' "$quickstart_log"; then
  echo "run-tests.sh: the quick start did not prove ta017's optimum 1484" >&2
  exit 1
fi
rm -f "$quickstart_log"

step "Release build: every test"
"$root/scripts/setup.sh" "${gpu_option[@]}"
ctest --test-dir "$root/build" -j "$jobs" --output-on-failure --timeout 900
# The multi-node tests are registered only where network namespaces are allowed: say so.
registered=$(ctest --test-dir "$root/build" -N -L multinode)
if ! grep -q "Total Tests: [1-9]" <<<"$registered"; then
  echo "NOTE: the multinode tests were not registered: this machine does not allow root" \
    "network namespaces (tests/integration/multinode_cluster.sh)"
fi

step "ThreadSanitizer: tests labelled 'threads'"
"$root/scripts/setup.sh" --build-dir "$root/build-tsan" --tsan --target permbb_threaded_tests
# A data race fails the test (exit status 66) instead of only printing a report. The code
# runs 5-20x slower under a sanitizer: the randomised tests run a quarter of their trials
# (PERMBB_TEST_SCALE, tests/test_support.hpp), each checking the same property.
export PERMBB_TEST_SCALE=0.25
TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
  ctest --test-dir "$root/build-tsan" -L threads -j "$jobs" --output-on-failure --timeout 900

step "Fuzzing: the decoders' fuzz targets (label 'fuzz'), about 10 s each"
"$root/scripts/setup.sh" --build-dir "$root/build-fuzz" --fuzz
ctest --test-dir "$root/build-fuzz" -L fuzz -j "$jobs" --output-on-failure --timeout 900

step "AddressSanitizer + UndefinedBehaviorSanitizer: unit and CLI tests"
# Only what runs below: the unit-test executables and permbb (not the tools/ executables).
"$root/scripts/setup.sh" --build-dir "$root/build-asan" --asan --target permbb_unit_tests \
  --target permbb
# Every report fails its test: each sanitizer aborts the process (SIGABRT, a status permbb
# never exits with). UBSan needs abort_on_error itself: gcc's runtime does not read it from
# ASAN_OPTIONS. LeakSanitizer runs at every exit.
asan="detect_leaks=1:abort_on_error=1:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1"
# The unit tests: no MPI, the fast unwinder.
ASAN_OPTIONS="$asan" ctest --test-dir "$root/build-asan" -LE "integration|fuzz" \
  -j "$jobs" --output-on-failure --timeout 900
# The permbb executable's CLI tests. permbb starts Open MPI even alone, and LeakSanitizer
# skips only Open MPI's own leaks (tests/sanitizers/lsan.supp), which it recognises only in
# whole stacks: the slow unwinder, affordable for these process-bound tests. Left out: the
# multi-process tests (label mpi: kills, signals and timings against many runs of the same
# executable; the coordinator's and workers' code runs here in the unit tests), slurm,
# multinode, report (its subject is the Python page builder, which no sanitizer sees; the
# --progress-log it reads is written under ASan by cli_test) and install (the installed files
# and the .deb: the Release build's).
ASAN_OPTIONS="$asan:fast_unwind_on_malloc=0" \
LSAN_OPTIONS="suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0" \
  ctest --test-dir "$root/build-asan" -L integration -LE "mpi|slurm|multinode|report|install" \
    -j "$jobs" --output-on-failure --timeout 900
step "done"
