#!/usr/bin/env bash
# Functions shared by the Slurm integration tests (slurm_test.sh, multinode_test.sh): logging,
# failing with the run folder's files shown, reading the run state, waiting for a chain.
# The sourcing script sets TEST_NAME first; sourcing sets STARTED (epoch seconds) and
# SLURM_DIR (the scripts under test, slurm/).

STARTED=$(date +%s)
SLURM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../slurm" && pwd)

# The test's end (its EXIT trap calls it after stopping its cluster): fails when something
# was left behind ($2: what, empty if nothing), removes the work folder $WORK if the test
# passed, keeps it otherwise; exits with status $1 (or 1).
end_test() {
  local rc=$1
  if [ -n "$2" ]; then
    echo "[$TEST_NAME] FAIL: left behind: $2" >&2
    rc=1
  fi
  if [ "$rc" -eq 0 ]; then
    rm -rf "$WORK"
    log "passed"
  else
    echo "[$TEST_NAME] kept $WORK for inspection" >&2
  fi
  exit "$rc"
}

# The permbb executable the test was given ($1), as an absolute path; fails without one.
absolute_permbb() {
  if [ -z "${1:-}" ] || [ ! -x "$1" ]; then
    echo "[$TEST_NAME] FAIL: usage: $TEST_NAME.sh PATH/TO/permbb (no executable at '${1:-}')" >&2
    return 1
  fi
  echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
}

log() { echo "[$TEST_NAME $(($(date +%s) - STARTED))s] $*"; }
fail() {
  echo "[$TEST_NAME] FAIL: $*" >&2
  squeue 2>/dev/null >&2
  exit 1
}

# Prints the files of a run folder (chain, result, job output) for a failure.
show_run() {
  local f
  for f in "$1"/chain.json "$1"/sweep.json "$1"/slurm-*.out "$1"/*/slurm-*.out; do
    [ -f "$f" ] || continue
    echo "----- $f" >&2
    tail -n 40 "$f" >&2
  done
}

json() { python3 "$SLURM_DIR/runstate.py" get "$1" "$2"; }
# A Python expression over the JSON in a file, bound to d: jq "FILE" 'len(d["links"])'.
jq() {
  python3 -c 'import json,sys
try:
    d = json.load(open(sys.argv[1]))
except (OSError, ValueError):
    sys.exit(1)
print(eval(sys.argv[2]))' "$1" "$2"
}

expect_eq() {  # what, got, expected, run folder to show on failure
  [ "$2" = "$3" ] && return 0
  show_run "${4:-/nonexistent}"
  fail "$1: got '$2', expected '$3'"
}

# Waits (at most $2 s) until the chain in $1 has ended and none of its jobs is in Slurm.
wait_chain() {
  local run=$1 seconds=$2 deadline status
  deadline=$(($(date +%s) + seconds))
  while :; do
    status=$(json "$run/chain.json" status 2>/dev/null)
    case "$status" in
      complete | incomplete | failed)
        [ -z "$(squeue -h -n "$3" -o %i 2>/dev/null)" ] && return 0 ;;
    esac
    if [ "$(date +%s)" -ge "$deadline" ]; then
      show_run "$run"
      fail "$run: chain not ended after $seconds s (status '$status')"
    fi
    sleep 0.5
  done
}

# `permbb report` on a run or sweep folder ($1): exit 0 and a page with $2 embedded images.
expect_report() {
  local page images
  page=$WORK/report-$(basename "$1").html
  "$PERMBB" report "$1" -o "$page" >/dev/null 2>"$page.err" ||
    { cat "$page.err" >&2; show_run "$1"; fail "permbb report $1 failed"; }
  [ ! -s "$page.err" ] || fail "permbb report $1 wrote to stderr: $(cat "$page.err")"
  images=$(grep -o 'src="data:image/png;base64,' "$page" | wc -l)
  [ "$images" -eq "$2" ] || fail "permbb report $1: $images images in $page, expected $2"
}

# The restart numbers of the start lines of a progress log, space-separated.
log_restarts() {
  python3 -c 'import json, sys
print(" ".join(str(r["restart"]) for r in map(json.loads, open(sys.argv[1]))
               if r["event"] == "start"))' "$1"
}

wait_file() {  # file, seconds
  local deadline=$(($(date +%s) + $2))
  until [ -s "$1" ]; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "$1 did not appear in $2 s"
    sleep 0.1
  done
}


