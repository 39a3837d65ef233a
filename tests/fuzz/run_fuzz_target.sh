#!/usr/bin/env bash
# Runs one fuzz target for ctest: replays the inputs of past findings, then fuzzes for a
# bounded time from a fresh copy of the seed corpus, so the repository is never written.
# Usage: run_fuzz_target.sh FUZZER SEED_DIR REGRESSION_DIR WORK_DIR SECONDS
set -euo pipefail
fuzzer=$1 seeds=$2 regressions=$3 work=$4 seconds=$5

rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
cp -R "$seeds/." "$work/corpus/"

# libFuzzer runs each file given by name once and exits non-zero on the first failure.
shopt -s nullglob
replays=("$regressions"/*)
if [ ${#replays[@]} -gt 0 ]; then
  echo "== replaying ${#replays[@]} regression inputs"
  "$fuzzer" -rss_limit_mb=2048 -timeout=10 "${replays[@]}"
fi

echo "== fuzzing for $seconds s from $seeds (crash inputs go to $work/artifacts)"
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/" "$work/corpus"
