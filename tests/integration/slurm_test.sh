#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# The Slurm scripts (slurm/) against a real single-node Slurm (slurm_cluster.sh) and the real
# permbb executable. Needs root and the Debian packages slurmctld slurmd slurm-client munge
# (scripts/setup.sh installs them); installs nothing itself.
#   1. a batch job with 4 tasks (plain sbatch, srun): the optimum of ta001;
#   2. a restart chain (mpirun) that gets the warning signal in link 1 and the final
#      SIGTERM (scancel) in link 2; link 3 finishes with the optimum and the totals;
#   3. an upper-bound sweep of ta001 from L = 1275: C* > 1275, > 1276, > 1277, C* = 1278;
#   4. a job array over three instances (srun, the GPU rank layout with --node-gpus 2) and
#      a missing instance file (the chain fails: bad input);
#   5. --dry-run submits nothing;
#   6. permbb-submit --cancel stops a chain: follow-up cancelled, link checkpointed.
# Optimal makespans are facts from shared/notes/taillard.md: ta001 1278, ta002 1359,
# ta003 1081, ta004 1293, ta017 1484.
# Usage: tests/integration/slurm_test.sh PATH/TO/permbb
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TEST_NAME=slurm_test
# shellcheck source=slurm_test_lib.sh disable=SC1091
source "$HERE/slurm_test_lib.sh"
# shellcheck source=slurm_cluster.sh disable=SC1091
source "$HERE/slurm_cluster.sh"
PERMBB=$(absolute_permbb "${1:-}") || exit 1

WORK=""
cleanup() {
  local rc=$? pids
  slurm_cluster_stop
  pids=$(SLURM_CLUSTER_DIR=$WORK/cluster slurm_cluster_job_pids)
  end_test "$rc" "${pids:+processes still running: $pids}"
}

# --- 0. set-up -----------------------------------------------------------------------------
if command -v shellcheck >/dev/null; then
  shellcheck -x "$SLURM_DIR/permbb.sbatch" "$SLURM_DIR/permbb-submit" "$SLURM_DIR/permbb-sweep" \
    "$SLURM_DIR/lib.sh" "$HERE/slurm_cluster.sh" "$HERE/slurm_test.sh" || fail "shellcheck"
  log "shellcheck: clean"
fi
[ "$(id -u)" -eq 0 ] || fail "needs root (it starts munged, slurmctld and slurmd)"
slurm_cluster_check_commands || fail "Slurm is not installed (run scripts/setup.sh)"
command -v python3 >/dev/null || fail "python3 is needed"
WORK=$(mktemp -d /tmp/permbb-slurm-test.XXXXXX)
chmod 755 "$WORK"  # munged runs as user munge
trap cleanup EXIT
slurm_cluster_start "$WORK/cluster" || fail "Slurm did not start"
log "Slurm up; work folder $WORK"
cd "$WORK" || fail "cannot enter $WORK"
export PERMBB

# --- 2 (started first: the longest). A chain: warning signal, final SIGTERM, restart. ----
CHAIN=$WORK/chain
# One CPU worker, one thread: ta017 from NEH's schedule is ~80M nodes, ~20 s; each signal
# comes 1 s after its link started, so links 1 and 2 stop mid-run and link 3 finishes.
"$SLURM_DIR/permbb-submit" --run-dir "$CHAIN" --launcher mpirun --ntasks=2 \
  --job-name=t-chain ta017 -- --threads 1 >"$WORK/chain.submit" || fail "permbb-submit failed"
job1=$(tail -n 1 "$WORK/chain.submit")
log "chain: link 1 is job $job1"

# The chain's two signals are sent before anything else is submitted: on a loaded machine the
# other submissions can take longer than a whole link, and a link that ends before its signal
# leaves nothing to restart.
# Link 1 of the chain: the warning signal once the search runs.
wait_file "$CHAIN/coordinator.pid" 60
log "chain: link 1 (job $job1) runs"
sleep 1
scancel --batch --signal=USR1 "$job1" || fail "scancel --batch --signal=USR1 $job1"
log "chain: warning signal (USR1) sent to job $job1"
deadline=$(($(date +%s) + 60))
until [ "$(jq "$CHAIN/chain.json" 'len(d["links"])')" = 2 ] && [ -s "$CHAIN/coordinator.pid" ]; do
  [ "$(date +%s)" -lt "$deadline" ] || { show_run "$CHAIN"; fail "link 2 did not start"; }
  sleep 0.2
done
job2=$(jq "$CHAIN/chain.json" 'd["links"][1]["job_id"]')
log "chain: link 2 (job $job2) runs"
sleep 1
scancel "$job2" || fail "scancel $job2"
log "chain: final SIGTERM (scancel) sent to job $job2"

# --- 1. A batch job with 4 tasks: plain sbatch, srun, ta001. ----------------------------
mkdir -p "$WORK/single"
sbatch --parsable --ntasks=4 --job-name=t-single --output="$WORK/single/slurm-%j.out" \
  "$SLURM_DIR/permbb.sbatch" --run-dir "$WORK/single" --instance ta001 >/dev/null ||
  fail "sbatch failed"

# --- 3. Upper-bound sweep of ta001 from L = 1275. ---------------------------------------
"$SLURM_DIR/permbb-sweep" start --run-dir "$WORK/sweep" --lower-bound 1275 --ntasks=2 \
  --job-name=t-sweep ta001 -- --threads 1 >/dev/null || fail "permbb-sweep start failed"

# --- 4. A job array over three instances, GPU rank layout (G = 2: 3 ranks). -------------
printf '%s\n' "# instances" ta002 "ta003 --bound lb2" "" ta004 "$WORK/no-such-file.txt" \
  >"$WORK/instances.txt"
"$SLURM_DIR/permbb-submit" --run-dir "$WORK/array" --instances "$WORK/instances.txt" \
  --ntasks=2 --node-gpus 2 --job-name=t-array -- --no-gpu >/dev/null ||
  fail "permbb-submit (array) failed"

# --- checks ------------------------------------------------------------------------------
wait_chain "$WORK/single" 60 t-single
expect_eq "single: status" "$(json "$WORK/single/result.json" status)" optimal "$WORK/single"
expect_eq "single: makespan" "$(json "$WORK/single/result.json" makespan)" 1278 "$WORK/single"
expect_eq "single: workers" "$(json "$WORK/single/result.json" cluster.workers)" 3 "$WORK/single"
expect_eq "single: ranks" "$(jq "$WORK/single/chain.json" 'd["links"][0]["ranks"]')" 4 "$WORK/single"
log "1. batch job, 4 tasks: ta001 optimal 1278, 3 workers"

wait_chain "$CHAIN" 240 t-chain
R=$CHAIN/result.json
expect_eq "chain: status" "$(json "$R" status)" optimal "$CHAIN"
expect_eq "chain: makespan" "$(json "$R" makespan)" 1484 "$CHAIN"
expect_eq "chain: restarts" "$(json "$R" restarts)" 2 "$CHAIN"
expect_eq "chain: links" "$(json "$R" chain.links)" 3 "$CHAIN"
outcomes=$(jq "$CHAIN/chain.json" '" ".join(l["signal"] + ":" + l["outcome"] + ":"
  + str(l["restarted_from_checkpoint"]) for l in d["links"])')
expect_eq "chain: links (signal:outcome:restarted)" "$outcomes" \
  "USR1:resumable:False TERM:resumable:True none:complete:True" "$CHAIN"
# Checkpoints are periodic every 300 s only: what link 1 and link 2 left was written on
# their signals; the remaining work shrinks and the nodes grow from one to the next.
left=$(jq "$CHAIN/chain.json" '" ".join(str(l["checkpoint_remaining_fraction"]) for l in d["links"])')
read -r left1 left2 left3 <<<"$left"
nodes=$(jq "$CHAIN/chain.json" '" ".join(str(l["checkpoint_nodes_decomposed"]) for l in d["links"])')
read -r nodes1 nodes2 nodes3 <<<"$nodes"
python3 -c 'import sys; a, b, c = map(float, sys.argv[1:4]); sys.exit(not (1 > a > b > c == 0))' \
  "$left1" "$left2" "$left3" || { show_run "$CHAIN"; fail "chain: remaining fractions $left"; }
python3 -c 'import sys; a, b, c, t = map(int, sys.argv[1:5]); sys.exit(not (0 < a < b < c == t))' \
  "$nodes1" "$nodes2" "$nodes3" "$(jq "$R" 'd["nodes_decomposed"]')" ||
  { show_run "$CHAIN"; fail "chain: nodes per checkpoint $nodes"; }
successor=$(jq "$CHAIN/chain.json" 'd["links"][2]["successor_job_id"]')
expect_eq "chain: unneeded link 4 cancelled" \
  "$(scontrol show job "$successor" 2>/dev/null | grep -o 'JobState=[A-Z]*')" JobState=CANCELLED
log "2. chain: USR1 -> resumable, SIGTERM -> resumable, link 3 optimal 1484, restarts 2;" \
  "remaining after each link: $left; nodes: $nodes"
# One progress log for the chain, each link a run of it; the report plots it (2 ranks: MPI,
# so nodes/s, remaining work, incumbent, workers).
expect_eq "chain: progress log runs" "$(log_restarts "$CHAIN/progress.jsonl")" "0 1 2" "$CHAIN"
expect_report "$CHAIN" 4
log "2. chain: progress.jsonl holds restarts 0 1 2; permbb report: 4 plots"

wait_chain "$WORK/sweep/ub-1279" 120 t-sweep
S=$WORK/sweep/sweep.json
expect_eq "sweep: status" "$(json "$S" status)" optimal "$WORK/sweep"
expect_eq "sweep: lower bound" "$(json "$S" lower_bound)" 1278 "$WORK/sweep"
expect_eq "sweep: upper bound" "$(json "$S" upper_bound)" 1278 "$WORK/sweep"
steps=$(jq "$S" '" ".join(str(s["ub"]) + ":" + s["status"] for s in d["steps"])')
expect_eq "sweep: steps" "$steps" \
  "1276:no-better-than-ub 1277:no-better-than-ub 1278:no-better-than-ub 1279:optimal" "$WORK/sweep"
expect_eq "sweep: schedule" "$(json "$WORK/sweep/ub-1279/result.json" permutation)" \
  "$(json "$S" permutation)" "$WORK/sweep"
# Output is captured before it is matched: "cmd | grep -q" closes the pipe at the first match,
# and the writer's next line then fails on a broken pipe.
out=$("$SLURM_DIR/permbb-sweep" status "$WORK/sweep") || fail "permbb-sweep status failed"
grep -q 'optimal' <<<"$out" || fail "permbb-sweep status: $out"
out=$("$SLURM_DIR/permbb-sweep" resume "$WORK/sweep") || fail "permbb-sweep resume failed"
grep -q 'C\* >= 1278' <<<"$out" || fail "resuming a finished sweep should only report it: $out"
log "3. sweep from 1275: C* > 1275, > 1276, > 1277, then 1278 optimal"
# The sweep's page: the steps' plot, then the progress plots of the steps in turn.
expect_report "$WORK/sweep" 5
log "3. sweep: permbb report: 5 plots"

for pair in ta002:1359 ta003:1081 ta004:1293; do
  wait_chain "$WORK/array/${pair%%:*}" 60 t-array
  expect_eq "array ${pair%%:*}" "$(json "$WORK/array/${pair%%:*}/result.json" makespan)" \
    "${pair##*:}" "$WORK/array"
  expect_eq "array ${pair%%:*} workers" \
    "$(json "$WORK/array/${pair%%:*}/result.json" cluster.workers)" 2 "$WORK/array"
done
expect_eq "array ta003 bound" "$(json "$WORK/array/ta003/result.json" bound)" lb2 "$WORK/array"
wait_chain "$WORK/array/no-such-file" 60 t-array
expect_eq "array: bad input" "$(json "$WORK/array/no-such-file/chain.json" reason)" \
  "bad input (solver exit 2)" "$WORK/array"
[ ! -e "$WORK/array/no-such-file/result.json" ] || fail "a failed chain left a result.json"
log "4. job array: ta002 1359, ta003 1081 (lb2), ta004 1293; a missing file fails (exit 2)"

out=$("$SLURM_DIR/permbb-submit" --dry-run --run-dir "$WORK/dry" --ntasks=2 ta001 ta002)
grep -q '^sbatch .*--array=0-1' <<<"$out" || fail "dry run: no sbatch line: $out"
[ ! -e "$WORK/dry" ] || fail "dry run created $WORK/dry"
out=$("$SLURM_DIR/permbb-sweep" start --dry-run --run-dir "$WORK/dry" --lower-bound 10 ta001)
grep -q '^sbatch .*--sweep-ub 11' <<<"$out" || fail "sweep dry run: $out"
[ ! -e "$WORK/dry" ] || fail "sweep dry run created $WORK/dry"
[ -z "$(squeue -h -o %i)" ] || fail "jobs left in the queue: $(squeue -h -o %i)"
log "5. --dry-run submits nothing; queue empty"

CANCEL=$WORK/cancel
"$SLURM_DIR/permbb-submit" --run-dir "$CANCEL" --ntasks=2 --job-name=t-cancel ta021 \
  -- --ub opt >/dev/null || fail "permbb-submit (cancel) failed"
wait_file "$CANCEL/coordinator.pid" 60
sleep 1
"$SLURM_DIR/permbb-submit" --run-dir "$CANCEL" --ntasks=2 ta021 -- --ub opt 2>/dev/null &&
  fail "a second submission on a running chain was accepted"
"$SLURM_DIR/permbb-submit" --cancel --run-dir "$CANCEL" >/dev/null || fail "--cancel failed"
wait_chain "$CANCEL" 60 t-cancel
expect_eq "cancel: chain" "$(json "$CANCEL/chain.json" status)" incomplete "$CANCEL"
expect_eq "cancel: result" "$(json "$CANCEL/result.json" status)" incomplete "$CANCEL"
expect_eq "cancel: links" "$(jq "$CANCEL/chain.json" 'len(d["links"])')" 1 "$CANCEL"
out=$("$PERMBB" checkpoint "$CANCEL/permbb.ckpt" --json) || fail "permbb checkpoint failed"
grep -q '"complete": false' <<<"$out" || fail "cancel: no resumable checkpoint: $out"
[ -z "$(squeue -h -o %i)" ] || fail "jobs left in the queue: $(squeue -h -o %i)"
log "6. --cancel: follow-up cancelled, link checkpointed, chain incomplete; queue empty"
