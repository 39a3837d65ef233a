#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# permbb's Slurm scripts across nodes: a 4-node Slurm cluster on this machine
# (multinode_cluster.sh: a network namespace, hostname and slurmd per node) and the real
# permbb. Every search runs at a fixed bound (--ub opt), where the node count does not depend
# on timing: a chain's total over all its links must equal that of one process.
#   A. 3 nodes x 2 ranks (srun): exact count; chain.json and the result show the hosts;
#   L. 3 nodes x 2 GPUs (mpirun, GPUs as Slurm counts only): the rank layout per node;
#   K. kill -9 of a worker rank (mpirun): the chain restarts from the checkpoint;
#   N. a worker's node lost (processes and slurmd killed, node down): the next link runs on
#      the remaining nodes;
#   C. the coordinator's node lost: the next link restarts from the periodic checkpoint;
#   S. a worker stopped (SIGSTOP): detected within --rank-timeout, the link ends resumable;
#   E. a node drained between links: link 2 runs on other nodes;
#   F. an upper-bound sweep and a job array over the nodes;
#   bad input: a request Slurm cannot satisfy, a run folder the nodes cannot reach, a node
#      that cannot run permbb.
# Optimal makespans are facts from shared/notes/taillard.md: ta001 1278, ta002 1359,
# ta003 1081, ta004 1293. Needs root and network namespaces (CTest registers it only then).
# Usage: tests/integration/multinode_test.sh PATH/TO/permbb
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TEST_NAME=multinode_test
# shellcheck source=slurm_test_lib.sh disable=SC1091
source "$HERE/slurm_test_lib.sh"
# shellcheck source=multinode_cluster.sh disable=SC1091
source "$HERE/multinode_cluster.sh"
PERMBB=$(absolute_permbb "${1:-}") || exit 1

WORK="" TAG=""
HIDDEN_MOUNTS=()  # "node path" of mounts made inside a node, undone at the end

# The cluster must leave nothing behind: no namespace, interface or process of its own.
cleanup() {
  local rc=$? m left=""
  for m in "${HIDDEN_MOUNTS[@]}"; do mn_node_exec "${m%% *}" umount "${m#* }" 2>/dev/null; done
  mn_cluster_stop
  [ -z "$TAG" ] || left=$( (ip netns list; ip -br link) 2>/dev/null | grep -E "permbb-$TAG-|pbb$TAG")
  end_test "$rc" "$left"
}

# --- helpers ---------------------------------------------------------------------------
submit() {  # run folder, permbb-submit arguments...
  "$SLURM_DIR/permbb-submit" --run-dir "$1" --permbb "$PERMBB" "${@:2}" >/dev/null ||
    fail "permbb-submit ${*:2} failed"
}
link_field() { jq "$1/chain.json" "d['links'][$2].get('$3')"; }
links() { jq "$1/chain.json" 'len(d["links"])'; }
link_host() { jq "$1/chain.json" "d['links'][$2]['hosts'][$3]"; }  # run, link index, host index
# Sends SIGNAL to the permbb processes running on node NAME (fails if there is none).
signal_permbb_on() {  # node, signal, run folder (shown on failure)
  local p found=()
  for p in $(ip netns pids "$(mn_netns "$1")" 2>/dev/null); do
    [ "$(cat "/proc/$p/comm" 2>/dev/null)" = permbb ] && found+=("$p")
  done
  [ ${#found[@]} -gt 0 ] || { show_run "$3"; fail "no permbb process on $1"; }
  kill "-$2" "${found[@]}" || fail "kill -$2 ${found[*]} on $1"
}
# Waits until the coordinator of the chain in $1 runs (its pid file), then $2 more seconds.
wait_running() {
  wait_file "$1/coordinator.pid" 90
  sleep "$2"
}
coordinator_host() { cut -d' ' -f1 "$1/coordinator.pid"; }
# A search at --ub opt: no better schedule, and exactly the single process's node count.
expect_exact() {  # run folder, reference count, what
  expect_eq "$3: status" "$(json "$1/result.json" status)" no-better-than-ub "$1"
  expect_eq "$3: nodes over all links" "$(json "$1/result.json" nodes_decomposed)" "$2" "$1"
}
# One process, one thread, at --ub opt: its result (JSON file $1) holds the node count every
# chain of the same instance must reach.
reference_run() {  # result file, instance and options
  "$PERMBB" solve "${@:2}" --ub opt --threads 1 --no-gpu --quiet --json "$1" >/dev/null
}

# --- set-up ----------------------------------------------------------------------------
if command -v shellcheck >/dev/null; then
  shellcheck -x "$HERE/multinode_cluster.sh" "$HERE/multinode_test.sh" "$HERE/slurm_test_lib.sh" ||
    fail "shellcheck"
fi
mn_namespaces_allowed || fail "needs root and network namespaces (ip netns, unshare)"
WORK=$(mktemp -d /tmp/permbb-multinode-test.XXXXXX)
chmod 755 "$WORK"  # munged runs as user munge
trap cleanup EXIT
SMALL=(ta011 --branch bwd)  # about 6 M nodes, 1.5 s on one core
LONG=(ta017)                # about 38 M nodes, 15 s on one core: faults land mid-run
# The references run while the cluster starts (mostly waiting for its daemons).
reference_run "$WORK/ref-small.json" "${SMALL[@]}" &
small_reference=$!
reference_run "$WORK/ref-long.json" "${LONG[@]}" &
long_reference=$!
mn_cluster_start "$WORK/cluster" 4 || fail "the cluster did not start"
TAG=$MN_TAG
cd "$WORK" || fail "cannot enter $WORK"
log "cluster up: $MN_NODES"
wait "$small_reference" || fail "reference run ${SMALL[*]} failed"
wait "$long_reference" || fail "reference run ${LONG[*]} failed"
REF_SMALL=$(json "$WORK/ref-small.json" nodes_decomposed)
REF_LONG=$(json "$WORK/ref-long.json" nodes_decomposed)
log "one process at --ub opt: ${SMALL[*]} $REF_SMALL nodes, ${LONG[*]} $REF_LONG nodes"
FAULTY=(--ub opt --threads 1 --worker-checkpoint-interval 1 --rank-timeout 4)

# --- A. 3 nodes, 2 ranks each, srun -----------------------------------------------------
submit "$WORK/a" --nodes=3 --ntasks-per-node=2 --job-name=mn-a "${SMALL[0]}" -- \
  "${SMALL[@]:1}" --ub opt --threads 1
wait_chain "$WORK/a" 120 mn-a
expect_exact "$WORK/a" "$REF_SMALL" "A"
hosts=$(link_field "$WORK/a" 0 hosts)
expect_eq "A: distinct hosts" "$(jq "$WORK/a/chain.json" 'len(set(d["links"][0]["hosts"]))')" 3 "$WORK/a"
expect_eq "A: first host runs the link" "$(jq "$WORK/a/chain.json" 'd["links"][0]["hosts"][0]')" \
  "$(link_field "$WORK/a" 0 host)" "$WORK/a"
expect_eq "A: ranks per host (result)" "$(jq "$WORK/a/result.json" \
  'sorted(set((r["host"], [x["host"] for x in d["cluster"]["ranks"]].count(r["host"])) for r in d["cluster"]["ranks"]))')" \
  "$(jq "$WORK/a/chain.json" 'sorted((h, 2) for h in d["links"][0]["hosts"])')" "$WORK/a"
log "A. 3 nodes x 2 ranks (srun): $REF_SMALL nodes as one process; hosts $hosts"

# --- L. rank layout with 2 GPUs per node (mpirun) ---------------------------------------
# The GPUs are counts in Slurm only (gres on empty files): this build's workers use the CPU,
# but each takes GPU (node-local rank mod 2) when there is one (engine_factory.cpp).
submit "$WORK/l" --launcher mpirun --nodes=3 --gpus-per-node=2 --job-name=mn-l "${SMALL[0]}" -- \
  "${SMALL[@]:1}" --ub opt --threads 1
wait_chain "$WORK/l" 120 mn-l
expect_exact "$WORK/l" "$REF_SMALL" "L"
expect_eq "L: ranks" "$(link_field "$WORK/l" 0 ranks)" 7 "$WORK/l"
expect_eq "L: GPUs per node" "$(link_field "$WORK/l" 0 gpus_per_node)" 2 "$WORK/l"
# Per host: its ranks' node-local ranks, and the GPUs of its workers.
layout=$(jq "$WORK/l/result.json" '" ".join(h + ":" + ",".join(str(r["local_rank"])
  for r in d["cluster"]["ranks"] if r["host"] == h) + "/gpus:" + ",".join(sorted(str(r["local_rank"] % 2)
  for i, r in enumerate(d["cluster"]["ranks"]) if r["host"] == h and i > 0))
  for h in dict.fromkeys(r["host"] for r in d["cluster"]["ranks"]))')
read -r first second third <<<"$(jq "$WORK/l/chain.json" '" ".join(d["links"][0]["hosts"])')"
expect_eq "L: layout" "$layout" \
  "$first:0,1,2/gpus:0,1 $second:0,1/gpus:0,1 $third:0,1/gpus:0,1" "$WORK/l"
expect_eq "L: coordinator" "$(jq "$WORK/l/result.json" 'd["cluster"]["ranks"][0]')" \
  "{'host': '$first', 'local_rank': 0}" "$WORK/l"
log "L. 2 GPUs per node: $layout (rank 0, the coordinator, on $first)"

# --- K. kill -9 of a worker rank (mpirun) -----------------------------------------------
submit "$WORK/k" --launcher mpirun --nodes=3 --ntasks-per-node=1 --job-name=mn-k "${LONG[@]}" -- \
  "${FAULTY[@]}"
wait_running "$WORK/k" 2
victim=$(link_host "$WORK/k" 0 1)
signal_permbb_on "$victim" KILL "$WORK/k"
wait_chain "$WORK/k" 180 mn-k
expect_exact "$WORK/k" "$REF_LONG" "K"
expect_eq "K: link 1" "$(link_field "$WORK/k" 0 outcome):$(link_field "$WORK/k" 0 launcher_failed)" \
  "resumable:True" "$WORK/k"
expect_eq "K: link 2 restarted" "$(link_field "$WORK/k" 1 restarted_from_checkpoint)" True "$WORK/k"
log "K. kill -9 of the worker on $victim: link 1 exit $(link_field "$WORK/k" 0 solver_exit)," \
  "resumable; $(links "$WORK/k") links, $REF_LONG nodes in all"

# --- N and C. a node lost mid-run --------------------------------------------------------
# Kills node $3 of the chain in $2 (job name $1); link 1 must end with outcome $4, the next
# link restart from the checkpoint on other nodes and the total be exact. The node returns.
lose_node() {  # job name, run folder, node, outcome of link 1
  mn_node_kill "$3"
  wait_chain "$2" 180 "$1"
  expect_exact "$2" "$REF_LONG" "$1"
  expect_eq "$1: link 1" "$(link_field "$2" 0 outcome)" "$4" "$2"
  expect_eq "$1: link 2 avoids $3" "$(jq "$2/chain.json" "'$3' in d['links'][1]['hosts']")" False "$2"
  expect_eq "$1: link 2 restarted" "$(link_field "$2" 1 restarted_from_checkpoint)" True "$2"
  mn_node_revive "$3" || fail "$1: $3 did not come back"
}
submit "$WORK/n" --nodes=3 --ntasks-per-node=1 --job-name=mn-n "${LONG[@]}" -- "${FAULTY[@]}"
wait_running "$WORK/n" 2
victim=$(link_host "$WORK/n" 0 2)
lose_node mn-n "$WORK/n" "$victim" resumable
log "N. worker's node $victim lost: link 2 on $(link_field "$WORK/n" 1 hosts), $REF_LONG nodes in all"

# The coordinator's node: its checkpoint on SIGTERM dies with it; the periodic one remains.
submit "$WORK/c" --nodes=3 --ntasks-per-node=1 --job-name=mn-c "${LONG[@]}" -- "${FAULTY[@]}" \
  --checkpoint-interval 1
wait_running "$WORK/c" 3
victim=$(coordinator_host "$WORK/c")
lose_node mn-c "$WORK/c" "$victim" lost
log "C. coordinator's node $victim lost: link 2 on $(link_field "$WORK/c" 1 hosts) from the" \
  "periodic checkpoint, $REF_LONG nodes in all"

# --- S. a worker that stops answering (SIGSTOP) ----------------------------------------
submit "$WORK/s" --nodes=3 --ntasks-per-node=1 --job-name=mn-s "${LONG[@]}" -- "${FAULTY[@]}"
wait_running "$WORK/s" 2
victim=$(link_host "$WORK/s" 0 1)
stopped_at=$(date +%s)
signal_permbb_on "$victim" STOP "$WORK/s"
until [ "$(link_field "$WORK/s" 0 outcome)" != None ]; do
  [ $(($(date +%s) - stopped_at)) -lt 60 ] || { show_run "$WORK/s"; fail "S: link 1 still running 60 s after SIGSTOP"; }
  sleep 0.5
done
detected=$(($(date +%s) - stopped_at))
wait_chain "$WORK/s" 180 mn-s
expect_exact "$WORK/s" "$REF_LONG" "S"
expect_eq "S: link 1" "$(link_field "$WORK/s" 0 solver_exit):$(link_field "$WORK/s" 0 outcome)" \
  "3:resumable" "$WORK/s"
log "S. SIGSTOP of the worker on $victim: link 1 ended resumable (exit 3) ${detected} s later" \
  "(--rank-timeout 4); $REF_LONG nodes in all"

# --- E. a node drained between links ----------------------------------------------------
submit "$WORK/e" --nodes=2 --ntasks-per-node=1 --job-name=mn-e "${LONG[@]}" -- --ub opt --threads 1
wait_running "$WORK/e" 2
drained=$(link_host "$WORK/e" 0 1)
scontrol update "NodeName=$drained" State=DRAIN "Reason=multinode test" || fail "E: drain $drained"
scancel --batch --signal=USR1 "$(link_field "$WORK/e" 0 job_id)" || fail "E: scancel --signal=USR1"
wait_chain "$WORK/e" 180 mn-e
scontrol update "NodeName=$drained" State=RESUME || fail "E: resume $drained"
expect_exact "$WORK/e" "$REF_LONG" "E"
expect_eq "E: link 1" "$(link_field "$WORK/e" 0 signal):$(link_field "$WORK/e" 0 outcome)" \
  "USR1:resumable" "$WORK/e"
expect_eq "E: link 2 avoids $drained" \
  "$(jq "$WORK/e/chain.json" "'$drained' in d['links'][1]['hosts']")" False "$WORK/e"
log "E. $drained drained after link 1 on $(link_field "$WORK/e" 0 hosts): link 2 on" \
  "$(link_field "$WORK/e" 1 hosts); $REF_LONG nodes in all"

# --- F. sweep and job array across the nodes --------------------------------------------
"$SLURM_DIR/permbb-sweep" start --run-dir "$WORK/sweep" --permbb "$PERMBB" --lower-bound 1276 \
  --nodes=2 --ntasks-per-node=1 --job-name=mn-f ta001 -- --threads 1 >/dev/null ||
  fail "permbb-sweep start failed"
printf '%s\n' ta002 ta003 ta004 >"$WORK/instances.txt"
submit "$WORK/array" --instances "$WORK/instances.txt" --nodes=2 --ntasks-per-node=1 \
  --job-name=mn-f -- --threads 1
wait_chain "$WORK/sweep/ub-1279" 180 mn-f
S=$WORK/sweep/sweep.json
expect_eq "F: sweep" "$(json "$S" status) $(json "$S" lower_bound) $(json "$S" upper_bound)" \
  "optimal 1278 1278" "$WORK/sweep"
for ub in 1277 1278 1279; do
  expect_eq "F: sweep step $ub on 2 hosts" \
    "$(jq "$WORK/sweep/ub-$ub/chain.json" 'len(set(d["links"][0]["hosts"]))')" 2 "$WORK/sweep"
done
for pair in ta002:1359 ta003:1081 ta004:1293; do
  run=$WORK/array/${pair%%:*}
  wait_chain "$run" 120 mn-f
  expect_eq "F: array ${pair%%:*}" "$(json "$run/result.json" makespan)" "${pair##*:}" "$run"
  expect_eq "F: array ${pair%%:*} on 2 hosts" \
    "$(jq "$run/chain.json" 'len(set(d["links"][0]["hosts"]))')" 2 "$run"
done
log "F. sweep from 1276 on 2 nodes a step: C* > 1276, > 1277, = 1278; array ta002-ta004 optimal"

# --- bad input ----------------------------------------------------------------------------
for request in --nodes=9 --nodelist=pbbn9 --gpus-per-node=3; do
  out=$("$SLURM_DIR/permbb-submit" --run-dir "$WORK/u" --permbb "$PERMBB" "$request" ta001 2>&1)
  status=$?
  [ $status -eq 2 ] || fail "unsatisfiable $request: exit status $status, not 2: $out"
  grep -q "Slurm cannot run this job" <<<"$out" || fail "unsatisfiable $request: $out"
  [ ! -e "$WORK/u" ] || fail "unsatisfiable $request: a run folder was made"
done
[ -z "$(squeue -h -o %i)" ] || fail "jobs left in the queue: $(squeue -h -o %i)"
log "bad input: --nodes=9, --nodelist=pbbn9, --gpus-per-node=3 refused at submission (exit 2)"

# A run folder the nodes cannot reach: an empty read-only file system over it on every node.
mkdir -p "$WORK/hidden"
for n in $MN_NODES; do
  mn_node_exec "$n" mount -t tmpfs -o ro,size=64k none "$WORK/hidden" || fail "mount on $n"
  HIDDEN_MOUNTS+=("$n $WORK/hidden")
done
submit "$WORK/hidden/run" --nodes=2 --job-name=mn-h ta001
deadline=$(($(date +%s) + 60))
until out=$("$SLURM_DIR/permbb-submit" --status --run-dir "$WORK/hidden/run") &&
  grep -q ": failed" <<<"$out"; do
  [ "$(date +%s)" -lt "$deadline" ] || fail "hidden run folder: --status says '$out' after 60 s"
  sleep 1
done
grep -q "JobLaunchFailure" <<<"$out" || fail "hidden run folder: Slurm's reason missing: $out"
expect_eq "hidden run folder: chain" "$(json "$WORK/hidden/run/chain.json" status)" failed
log "bad input: a run folder the nodes cannot reach: --status marks the chain failed: $out"
"$SLURM_DIR/permbb-sweep" start --run-dir "$WORK/hidden/sweep" --permbb "$PERMBB" \
  --lower-bound 1276 --nodes=2 --job-name=mn-h ta001 >/dev/null 2>&1 || fail "hidden sweep: start"
deadline=$(($(date +%s) + 60))
until out=$("$SLURM_DIR/permbb-sweep" status "$WORK/hidden/sweep") && grep -q ": failed" <<<"$out"; do
  [ "$(date +%s)" -lt "$deadline" ] || fail "hidden sweep folder: status says '$out' after 60 s"
  sleep 1
done
grep -q "JobLaunchFailure" <<<"$out" || fail "hidden sweep folder: Slurm's reason missing: $out"
log "bad input: a sweep folder the nodes cannot reach: permbb-sweep status marks it failed"

# A node that cannot run permbb: its executable hidden there (pbbn2). The chain stops after
# two links that fail without progress.
: >"$WORK/not-permbb"
mn_node_exec pbbn2 mount --bind "$WORK/not-permbb" "$PERMBB" || fail "mount over permbb on pbbn2"
HIDDEN_MOUNTS+=("pbbn2 $PERMBB")
submit "$WORK/w" --nodes=2 --nodelist=pbbn1,pbbn2 --job-name=mn-w ta001 -- --threads 1
wait_chain "$WORK/w" 120 mn-w
expect_eq "W: chain" "$(json "$WORK/w/chain.json" status):$(links "$WORK/w")" failed:2 "$WORK/w"
grep -q "twice in a row without progress" "$WORK/w/chain.json" || { show_run "$WORK/w"; fail "W: reason"; }
grep -q "rank 1 on pbbn2: cannot execute" "$WORK"/w/slurm-*.out || { show_run "$WORK/w"; fail "W: output"; }
log "bad input: permbb missing on pbbn2: the chain failed after 2 links; the output names the node"
