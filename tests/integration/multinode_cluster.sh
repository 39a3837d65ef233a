#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# A Slurm cluster of N nodes on this one machine (as root), for the multi-node tests and for
# trying the Slurm scripts locally. Each node is a network namespace with its own hostname
# (UTS namespace), its own /etc/hosts (mount namespace), an address on a private bridge and
# its own slurmd; slurmctld and munged run here, in the root namespaces. The file system is
# shared by all nodes, as a cluster's shared file system is. MPI ranks on different nodes
# talk over TCP across the bridge.
#
# Everything lives in one folder (configuration, state, logs, cluster.env); `stop` removes
# exactly what `start` created: the daemons (by pid), every process inside the nodes'
# namespaces, the namespaces, the veth pairs and the bridge.
#
# As a command:
#   multinode_cluster.sh start --dir DIR [--nodes N]   # prints the SLURM_CONF to export
#   multinode_cluster.sh stop --dir DIR
#   multinode_cluster.sh run [--dir DIR] [--nodes N] -- COMMAND...   # start, run, stop
# As a library (what multinode_test.sh does): source it, then
#   mn_cluster_start DIR N; mn_node_kill NAME; mn_node_revive NAME; mn_node_exec NAME CMD...;
#   mn_cluster_stop

# shellcheck source=slurm_cluster.sh disable=SC1091
source "$(dirname "${BASH_SOURCE[0]}")/slurm_cluster.sh"

# Set by mn_cluster_start / mn_cluster_load (cluster.env).
MN_DIR=${MN_DIR:-}
MN_TAG="" MN_NET="" MN_BRIDGE="" MN_NODES=""

mn_log() { echo "multinode_cluster: $*" >&2; }

mn_check_commands() {
  slurm_cluster_check_commands || return 1
  local c
  for c in ip unshare nsenter mount; do
    command -v "$c" >/dev/null 2>&1 || { mn_log "missing command $c (package iproute2 / util-linux)"; return 1; }
  done
  [ "$(id -u)" -eq 0 ] || { mn_log "needs root (namespaces, bridge, daemons)"; return 1; }
}

# Whether this machine lets us build the cluster: root, a network namespace with a veth
# pair into it, a bridge, UTS and mount namespaces inside (CMake registers the tests on this).
# Removes what it made.
mn_namespaces_allowed() {
  local ns=permbb-probe-$$ veth=pbbp$$ bridge=pbbq$$ rc=1
  [ "$(id -u)" -eq 0 ] || return 1
  command -v ip >/dev/null 2>&1 && command -v unshare >/dev/null 2>&1 &&
    command -v nsenter >/dev/null 2>&1 || return 1
  ip netns add "$ns" 2>/dev/null || return 1
  if ip link add "$veth" type veth peer name eth0 netns "$ns" 2>/dev/null &&
    ip link add "$bridge" type bridge 2>/dev/null &&
    ip link set "$veth" master "$bridge" 2>/dev/null &&
    nsenter "--net=/run/netns/$ns" unshare --uts --mount --propagation private true 2>/dev/null; then
    rc=0
  fi
  ip link del "$bridge" 2>/dev/null
  ip link del "$veth" 2>/dev/null
  ip netns del "$ns" 2>/dev/null
  return $rc
}

mn_netns() { echo "permbb-$MN_TAG-$1"; }    # namespace of node NAME
mn_veth() { echo "pbb$MN_TAG${1#pbbn}"; }   # host-side interface of node NAME (<= 15 chars)
mn_addr() { echo "$MN_NET.$((10 + ${1#pbbn}))"; }

mn_write_env() {
  cat >"$MN_DIR/cluster.env" <<EOF
MN_TAG=$MN_TAG
MN_NET=$MN_NET
MN_BRIDGE=$MN_BRIDGE
MN_NODES="$MN_NODES"
SLURM_CONF=$MN_DIR/slurm.conf
SLURM_CLUSTER_DIR=$MN_DIR
EOF
}

# Reads DIR/cluster.env (for stop from another shell).
mn_cluster_load() {
  MN_DIR=$(cd "$1" 2>/dev/null && pwd) || { mn_log "no cluster folder $1"; return 1; }
  [ -f "$MN_DIR/cluster.env" ] || { mn_log "$MN_DIR/cluster.env missing: not a cluster folder"; return 1; }
  # shellcheck disable=SC1091
  source "$MN_DIR/cluster.env"
  export SLURM_CONF SLURM_CLUSTER_DIR MN_DIR
}

mn_write_conf() {
  local port=$1 count=$2 i
  {
    echo "ClusterName=permbbmn"
    slurm_cluster_common_conf "$MN_DIR" "$(hostname -s)($MN_NET.1)" "$port"
    # Per node (%n): its spool and pid file, and its own TmpFS (srun's PMIx plugin makes its
    # per-step folders there; the nodes share /tmp, where they would collide).
    echo "SlurmdSpoolDir=$MN_DIR/spool/%n"
    echo "SlurmdPidFile=$MN_DIR/spool/%n/slurmd.pid"
    echo "TmpFS=$MN_DIR/tmp/%n"
    echo "GresTypes=gpu"
    # A lost node is declared down by the test at once; Slurm's own check comes after 30 s.
    echo "SlurmdTimeout=30"
    # The chains restart links themselves (a requeued link would run twice).
    echo "JobRequeue=0"
    echo "NodeName=DEFAULT CPUs=4 RealMemory=4000 Gres=gpu:2 State=UNKNOWN"
    for ((i = 1; i <= count; i++)); do echo "NodeName=pbbn$i NodeAddr=$MN_NET.$((10 + i))"; done
    echo "PartitionName=debug Nodes=pbbn[1-$count] Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES"
  } >"$MN_DIR/slurm.conf"
  # GPUs that exist only as a count: Slurm sets SLURM_GPUS_ON_NODE and friends, so the rank
  # layout for G GPUs per node can be checked; nothing here touches a device.
  # Slurm wants a file per GPU: plain empty files stand in for the device nodes.
  mkdir -p "$MN_DIR/dev"
  touch "$MN_DIR/dev/gpu0" "$MN_DIR/dev/gpu1"
  echo "NodeName=pbbn[1-$2] Name=gpu File=$MN_DIR/dev/gpu[0-1]" >"$MN_DIR/gres.conf"
  {
    echo "127.0.0.1 localhost"
    echo "$MN_NET.1 $(hostname -s)"
    for ((i = 1; i <= $2; i++)); do echo "$MN_NET.$((10 + i)) pbbn$i"; done
  } >"$MN_DIR/hosts"
}

# The bridge with the controller's address, then per node a namespace and a veth pair.
mn_network_up() {
  local n ns veth
  ip link add "$MN_BRIDGE" type bridge || return 1
  ip addr add "$MN_NET.1/24" dev "$MN_BRIDGE" && ip link set "$MN_BRIDGE" up || return 1
  for n in $MN_NODES; do
    ns=$(mn_netns "$n")
    veth=$(mn_veth "$n")
    ip netns add "$ns" || return 1
    ip link add "$veth" type veth peer name eth0 netns "$ns" || return 1
    ip link set "$veth" master "$MN_BRIDGE" up || return 1
    ip -n "$ns" link set lo up &&
      ip -n "$ns" addr add "$(mn_addr "$n")/24" dev eth0 &&
      ip -n "$ns" link set eth0 up || return 1
  done
}

# Runs COMMAND inside node NAME: its network namespace, and the UTS and mount namespaces of
# its slurmd (hostname, /etc/hosts, anything a test mounted there).
mn_node_exec() {
  local name=$1 pid
  shift
  pid=$(cat "$MN_DIR/slurmd.$name.pid" 2>/dev/null)
  if ! [[ $pid =~ ^[0-9]+$ ]] || ! kill -0 "$pid" 2>/dev/null; then
    mn_log "$name: no slurmd running"
    return 1
  fi
  nsenter -t "$pid" -n -u -m -- "$@"
}

# Starts slurmd of node NAME in the foreground (-D, so $! is its pid) inside fresh UTS and
# mount namespaces within the node's network namespace. nsenter rather than `ip netns exec`,
# which remounts /sys, hiding the cgroup file system that slurmd's gres/gpu plugin opens.
mn_node_start_slurmd() {
  local name=$1
  # Node-local temporary folder (the nodes share /tmp): srun's PMIx plugin makes its
  # per-step folders in TmpFS, which would collide across nodes in one /tmp.
  mkdir -p "$MN_DIR/spool/$name" "$MN_DIR/tmp/$name"
  # shellcheck disable=SC2016  # expanded by the node's shell
  nsenter "--net=/run/netns/$(mn_netns "$name")" unshare --uts --mount --propagation private \
    bash -c 'hostname "$1" && mount --bind "$2" /etc/hosts && exec slurmd -D -f "$3" -N "$1" -L "$4"' \
    _ "$name" "$MN_DIR/hosts" "$MN_DIR/slurm.conf" "$MN_DIR/slurmd.$name.log" \
    >>"$MN_DIR/slurmd.$name.out" 2>&1 </dev/null &
  echo $! >"$MN_DIR/slurmd.$name.pid"
  disown $!  # its death, when the node is lost, is expected: no "Killed" line from bash
}

mn_nodes_state() { sinfo -h -N -o '%N %T' 2>/dev/null | sort -u; }
mn_all_idle() {
  local n
  for n in $MN_NODES; do
    [ "$(sinfo -h -n "$n" -o %T 2>/dev/null)" = idle ] || return 1
  done
}

# Starts an N-node cluster in DIR (a fresh folder). Exports SLURM_CONF, MN_DIR.
mn_cluster_start() {
  local dir=$1 count=${2:-4} port i n
  mn_check_commands || return 1
  if ! [[ $count =~ ^[0-9]+$ ]] || [ "$count" -lt 1 ] || [ "$count" -gt 32 ]; then
    mn_log "--nodes: 1 to 32, not '$count'"
    return 1
  fi
  mkdir -p "$dir" && chmod 755 "$dir" || return 1
  MN_DIR=$(cd "$dir" && pwd)
  SLURM_CLUSTER_DIR=$MN_DIR
  MN_TAG=$(printf '%04x' $(((RANDOM << 1 ^ $$) & 0xffff)))
  MN_NET=10.213.$((16#$MN_TAG % 250 + 1))
  MN_BRIDGE=pbb${MN_TAG}br
  MN_NODES=$(for ((i = 1; i <= count; i++)); do printf 'pbbn%d ' "$i"; done)
  MN_NODES=${MN_NODES% }
  export MN_DIR SLURM_CLUSTER_DIR SLURM_CONF=$MN_DIR/slurm.conf
  mn_write_env
  mkdir -p "$MN_DIR/state" "$MN_DIR/spool"
  port=${SLURM_CLUSTER_PORT:-$((20000 + (16#$MN_TAG % 10000) * 2))}
  mn_write_conf "$port" "$count"
  mn_network_up || { mn_log "could not build the network"; mn_cluster_stop; return 1; }
  slurm_cluster_start_munge "$MN_DIR" || { mn_cluster_stop; return 1; }
  slurmctld -f "$SLURM_CONF" || { mn_log "slurmctld did not start"; mn_fail; return 1; }
  slurm_cluster_wait_for 20 slurm_cluster_ctld_up ||
    { mn_log "slurmctld not UP after 20 s"; mn_fail; return 1; }
  for n in $MN_NODES; do mn_node_start_slurmd "$n"; done
  slurm_cluster_wait_for 30 mn_all_idle ||
    { mn_log "nodes not idle after 30 s: $(mn_nodes_state | tr '\n' ' ')"; mn_fail; return 1; }
  mn_log "up: $count nodes ($MN_NODES) on $MN_NET.0/24, folder $MN_DIR"
}

mn_fail() {
  mn_logs
  mn_cluster_stop
}

mn_logs() {
  local f
  [ -n "$MN_DIR" ] || return 0
  for f in "$MN_DIR/munge/munged.log" "$MN_DIR/slurmctld.log" "$MN_DIR"/slurmd.*.log \
    "$MN_DIR"/slurmd.*.out; do
    [ -s "$f" ] || continue
    echo "----- last lines of $f" >&2
    tail -n 15 "$f" >&2
  done
}

# Every process inside node NAME's network namespace gets SIGNAL.
mn_node_signal() {
  local pids=()
  mapfile -t pids < <(ip netns pids "$(mn_netns "$1")" 2>/dev/null)
  [ ${#pids[@]} -eq 0 ] || kill "-$2" "${pids[@]}" 2>/dev/null
  return 0
}

mn_node_empty() { [ -z "$(ip netns pids "$(mn_netns "$1")" 2>/dev/null)" ]; }

# The node is lost: its slurmd and every process on it killed at once (no signal handler
# runs), then marked down in Slurm so that its jobs end (NODE_FAIL) without waiting for
# SlurmdTimeout.
mn_node_kill() {
  local name=$1
  mn_node_signal "$name" KILL
  slurm_cluster_wait_for 10 mn_node_empty "$name" || mn_log "$name: processes left after KILL"
  scontrol update "NodeName=$name" State=DOWN "Reason=lost (test)" ||
    mn_log "$name: scontrol could not mark it down"
}

# A lost node comes back: slurmd again, and the node resumed.
mn_node_revive() {
  local name=$1
  mn_node_start_slurmd "$name"
  scontrol update "NodeName=$name" State=RESUME 2>/dev/null
  slurm_cluster_wait_for 30 bash -c "[ \"\$(sinfo -h -n $name -o %T)\" = idle ]" ||
    { mn_log "$name not idle after revive: $(sinfo -h -n "$name" -o '%T %E')"; return 1; }
}

# Stops what mn_cluster_start made, by pid and by name; safe to call twice or half-started.
mn_cluster_stop() {
  local n ns i
  [ -n "$MN_DIR" ] && [ -d "$MN_DIR" ] || return 0
  if [ -s "$MN_DIR/slurmctld.pid" ] && kill -0 "$(cat "$MN_DIR/slurmctld.pid")" 2>/dev/null; then
    scancel --quiet "--user=$(id -un)" 2>/dev/null
    for ((i = 0; i < 50; i++)); do
      [ -z "$(squeue -h -t PENDING,RUNNING,COMPLETING,CONFIGURING -o %i 2>/dev/null)" ] && break
      sleep 0.2
    done
  fi
  for n in $MN_NODES; do mn_node_signal "$n" TERM; done
  for n in $MN_NODES; do
    slurm_cluster_wait_for 5 mn_node_empty "$n" || mn_node_signal "$n" KILL
    slurm_cluster_wait_for 5 mn_node_empty "$n" || mn_log "$n: processes survive KILL"
  done
  slurm_cluster_stop_pidfile "$MN_DIR/slurmctld.pid"
  slurm_cluster_stop_pidfile "$MN_DIR/munge/munged.pid"
  for n in $MN_NODES; do
    ns=$(mn_netns "$n")
    ip netns del "$ns" 2>/dev/null   # takes its end of the veth pair, and so the pair
    ip link del "$(mn_veth "$n")" 2>/dev/null
  done
  [ -z "$MN_BRIDGE" ] || ip link del "$MN_BRIDGE" 2>/dev/null
  rm -f "$MN_DIR/cluster.env"
  MN_DIR="" SLURM_CLUSTER_DIR=""
  return 0
}

mn_usage() {
  cat <<'EOF'
Usage: tests/integration/multinode_cluster.sh start --dir DIR [--nodes N]
       tests/integration/multinode_cluster.sh stop --dir DIR
       tests/integration/multinode_cluster.sh run [--dir DIR] [--nodes N] -- COMMAND [ARG...]
A Slurm cluster of N nodes (default 4, named pbbn1..pbbnN) on this machine: one network
namespace per node with its own hostname and address on a private bridge, its own slurmd;
slurmctld and munged here. Every node declares 4 CPUs and 2 GPUs (a count only: Slurm sets
the GPU variables, no device is used). The file system is shared by all nodes.
  start  builds it in DIR (a fresh folder) and prints the SLURM_CONF line to export; then
         sbatch, srun, squeue, slurm/permbb-submit... use it.
  stop   stops the daemons and every process on the nodes, removes the namespaces, the
         interfaces and the bridge (DIR itself stays).
  run    start (in DIR or a new temporary folder), run COMMAND with SLURM_CONF exported,
         stop (also when COMMAND fails). Exit status: COMMAND's, or 1 if the cluster did
         not start.
Needs root, iproute2, util-linux and the Debian packages slurmctld slurmd slurm-client munge.
EOF
}

mn_main() {
  local verb=${1:-} dir="" nodes=4 rc
  case "$verb" in
    -h | --help) mn_usage; return 0 ;;
    start | stop | run) shift ;;
    *) mn_usage >&2; return 2 ;;
  esac
  while [ $# -gt 0 ]; do
    case "$1" in
      --dir) dir=${2:?--dir needs a folder}; shift 2 ;;
      --nodes) nodes=${2:?--nodes needs a number}; shift 2 ;;
      --) shift; break ;;
      *) mn_log "unknown option '$1'"; mn_usage >&2; return 2 ;;
    esac
  done
  case "$verb" in
    start)
      [ -n "$dir" ] || { mn_log "start needs --dir"; return 2; }
      mn_cluster_start "$dir" "$nodes" || return 1
      echo "export SLURM_CONF=$MN_DIR/slurm.conf"
      ;;
    stop)
      [ -n "$dir" ] || { mn_log "stop needs --dir"; return 2; }
      mn_cluster_load "$dir" || return 1
      mn_cluster_stop
      ;;
    run)
      [ $# -gt 0 ] || { mn_usage >&2; return 2; }
      [ -n "$dir" ] || { dir=$(mktemp -d /tmp/permbb-multinode.XXXXXX) || return 1; }
      trap mn_cluster_stop EXIT
      mn_cluster_start "$dir" "$nodes" || return 1
      "$@"
      rc=$?
      [ $rc -eq 0 ] || mn_logs
      mn_cluster_stop
      return $rc
      ;;
  esac
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -uo pipefail
  mn_main "$@"
  exit $?
fi
