#!/usr/bin/env bash
# A single-node Slurm on localhost for the integration tests: its own munged (own key and
# socket), slurmctld and slurmd, all configured and logging in one fresh folder, so nothing
# outside that folder is read or changed. Every wait is bounded; on a failed start the log
# tails are printed. What works on Debian 12 is written down in
# shared/notes/mpi-and-slurm-on-one-machine.md.
#
# As a library (what slurm_test.sh does):
#   source tests/integration/slurm_cluster.sh
#   trap slurm_cluster_stop EXIT
#   slurm_cluster_start "$(mktemp -d)"      # exports SLURM_CONF; sbatch, squeue... now work
# As a command:
#   slurm_cluster.sh run -- COMMAND...      # start, run COMMAND, stop (also on failure)
#   slurm_cluster.sh --help

# The folder of the running cluster (set by slurm_cluster_start).
SLURM_CLUSTER_DIR=${SLURM_CLUSTER_DIR:-}

slurm_cluster_log() { echo "slurm_cluster: $*" >&2; }

# Fails with a message naming the packages when a Slurm or munge command is missing.
slurm_cluster_check_commands() {
  local missing=() c
  case ":$PATH:" in *:/usr/sbin:*) ;; *) PATH=$PATH:/usr/sbin:/sbin ;; esac  # the daemons
  for c in munged munge unmunge slurmctld slurmd scontrol sinfo squeue sbatch scancel srun; do
    command -v "$c" >/dev/null 2>&1 || missing+=("$c")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    slurm_cluster_log "missing: ${missing[*]}; install the Debian packages" \
      "slurmctld slurmd slurm-client munge (scripts/setup.sh does)"
    return 1
  fi
}

# Runs "$@" every 0.2 s until it succeeds, at most $1 seconds. Returns 1 on timeout.
slurm_cluster_wait_for() {
  local seconds=$1
  shift
  local tries=$((seconds * 5)) i
  for ((i = 0; i < tries; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  return 1
}

slurm_cluster_munge_ok() {
  munge -n --socket="$SLURM_CLUSTER_DIR/munge/munge.socket" |
    unmunge --socket="$SLURM_CLUSTER_DIR/munge/munge.socket"
}

slurm_cluster_node_idle() {
  [ "$(sinfo -h -N -o %T 2>/dev/null)" = idle ]
}

slurm_cluster_ctld_up() {
  scontrol ping 2>/dev/null | grep -q UP
}

# The last lines of every daemon log, for a failed start or a failed test.
slurm_cluster_logs() {
  local dir=$SLURM_CLUSTER_DIR f
  [ -n "$dir" ] || return 0
  for f in "$dir/munge/munged.log" "$dir/slurmctld.log" "$dir/slurmd.log"; do
    [ -f "$f" ] || continue
    echo "----- last lines of $f" >&2
    tail -n 25 "$f" >&2
  done
}

# The lines of slurm.conf every test cluster shares, for a controller at HOST ("name(address)")
# and PORT (slurmd: PORT + 1), with munge's socket and Slurm's state in DIR: plugins that
# need no cgroups, a scheduler that looks every 2 s. The callers add the nodes' lines.
slurm_cluster_common_conf() {
  local dir=$1 host=$2 port=$3
  cat <<EOF
SlurmctldHost=${host}
SlurmctldPort=${port}
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket,cred_expire=30
StateSaveLocation=$dir/state
SlurmctldPidFile=$dir/slurmctld.pid
SlurmctldLogFile=$dir/slurmctld.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=2,bf_interval=2
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
KillWait=10
MinJobAge=600
MailProg=/bin/true
EOF
}

slurm_cluster_write_conf() {
  local dir=$1 host=$2 port=$3
  {
    echo "ClusterName=permbbci"
    slurm_cluster_common_conf "$dir" "${host}(127.0.0.1)" "$port"
    echo "SlurmdSpoolDir=$dir/spool"
    echo "SlurmdPidFile=$dir/slurmd.pid"
    echo "SlurmdLogFile=$dir/slurmd.log"
    echo "NodeName=${host} NodeAddr=127.0.0.1 CPUs=16 RealMemory=16000 State=UNKNOWN"
    echo "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES"
  } >"$dir/slurm.conf"
}

# Starts munged as user munge with its own key, socket, pid and log in DIR/munge, and waits
# (at most 10 s) until it answers. On failure: the log tails printed, what started stopped.
slurm_cluster_start_munge() {
  local dir=$1
  mkdir -p "$dir/munge"
  chmod 755 "$dir/munge"
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$dir/munge/munge.key"
  chown -R munge: "$dir/munge"
  runuser -u munge -- test -x "$dir/munge" ||
    { slurm_cluster_log "user munge cannot reach $dir/munge (make its parents world-executable)"
      return 1; }
  runuser -u munge -- munged --socket="$dir/munge/munge.socket" \
    --key-file="$dir/munge/munge.key" --pid-file="$dir/munge/munged.pid" \
    --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" ||
    { slurm_cluster_log "munged did not start"; slurm_cluster_logs; return 1; }
  slurm_cluster_wait_for 10 slurm_cluster_munge_ok ||
    { slurm_cluster_log "munge does not answer after 10 s"; slurm_cluster_fail; return 1; }
}

# Starts munged (as user munge, own key and socket), then slurmctld, then slurmd, in DIR
# (a fresh folder). Exports SLURM_CONF and SLURM_CLUSTER_DIR. Returns 1 (after printing the
# log tails and stopping what did start) when a daemon does not come up in time.
slurm_cluster_start() {
  local dir=$1 host port
  slurm_cluster_check_commands || return 1
  [ -n "$dir" ] || { slurm_cluster_log "no folder given"; return 1; }
  mkdir -p "$dir" || return 1
  dir=$(cd "$dir" && pwd)
  SLURM_CLUSTER_DIR=$dir
  export SLURM_CLUSTER_DIR
  host=$(hostname -s)
  # Two ports of our own, so that a Slurm already running here is left alone.
  port=${SLURM_CLUSTER_PORT:-$((20000 + ($$ % 10000) * 2))}
  chmod 755 "$dir"
  mkdir -p "$dir/state" "$dir/spool"
  slurm_cluster_start_munge "$dir" || return 1

  slurm_cluster_write_conf "$dir" "$host" "$port"
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -f "$SLURM_CONF" ||
    { slurm_cluster_log "slurmctld did not start"; slurm_cluster_fail; return 1; }
  slurm_cluster_wait_for 20 slurm_cluster_ctld_up ||
    { slurm_cluster_log "slurmctld not UP after 20 s"; slurm_cluster_fail; return 1; }
  slurmd -f "$SLURM_CONF" -N "$host" ||
    { slurm_cluster_log "slurmd did not start"; slurm_cluster_fail; return 1; }
  slurm_cluster_wait_for 20 slurm_cluster_node_idle ||
    { slurm_cluster_log "node not idle after 20 s: $(sinfo -h -N -o '%T %E' 2>&1)"
      slurm_cluster_fail; return 1; }
  slurm_cluster_log "up in $dir (slurmctld port $port)"
}

slurm_cluster_fail() {
  slurm_cluster_logs
  slurm_cluster_stop
}

# TERM, then KILL after 10 s, the process whose id is in FILE (if it is still running).
slurm_cluster_stop_pidfile() {
  local file=$1 pid i
  [ -s "$file" ] || return 0
  pid=$(cat "$file")
  [[ $pid =~ ^[0-9]+$ ]] || return 0
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < 50; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.2
  done
  slurm_cluster_log "pid $pid ($file) still running after 10 s: KILL"
  kill -KILL "$pid" 2>/dev/null
  return 0
}

# Processes started for this cluster's jobs: their environment names its slurm.conf.
slurm_cluster_job_pids() {
  local dir=$SLURM_CLUSTER_DIR p
  for p in /proc/[0-9]*; do
    [ "${p#/proc/}" = "$$" ] && continue
    grep -qzF "SLURM_CONF=$dir/slurm.conf" "$p/environ" 2>/dev/null && echo "${p#/proc/}"
  done
  return 0
}

# Cancels every job, waits (bounded) for them to end, stops slurmd, slurmctld and munged by
# the ids in their pid files, and kills by id whatever job process is still left.
slurm_cluster_stop() {
  local dir=$SLURM_CLUSTER_DIR i pids
  [ -n "$dir" ] && [ -d "$dir" ] || return 0
  if [ -s "$dir/slurmctld.pid" ] && kill -0 "$(cat "$dir/slurmctld.pid")" 2>/dev/null; then
    scancel --quiet --full --signal=KILL --state=RUNNING "--user=$(id -un)" 2>/dev/null
    scancel --quiet "--user=$(id -un)" 2>/dev/null
    for ((i = 0; i < 75; i++)); do
      [ -z "$(squeue -h -t PENDING,RUNNING,COMPLETING,CONFIGURING -o %i 2>/dev/null)" ] && break
      sleep 0.2
    done
  fi
  slurm_cluster_stop_pidfile "$dir/slurmd.pid"
  slurm_cluster_stop_pidfile "$dir/slurmctld.pid"
  slurm_cluster_stop_pidfile "$dir/munge/munged.pid"
  pids=$(slurm_cluster_job_pids)
  if [ -n "$pids" ]; then
    slurm_cluster_log "killing leftover job processes: $(echo "$pids" | tr '\n' ' ')"
    for i in $pids; do kill -KILL "$i" 2>/dev/null; done
  fi
  SLURM_CLUSTER_DIR=
  return 0
}

slurm_cluster_usage() {
  cat <<'EOF'
Usage: tests/integration/slurm_cluster.sh run [--dir DIR] -- COMMAND [ARG...]
       source tests/integration/slurm_cluster.sh   (functions slurm_cluster_start DIR,
                                                    slurm_cluster_stop, slurm_cluster_logs)
Starts a single-node Slurm on localhost (munged, slurmctld, slurmd, configured in a fresh
folder, DIR or a new temporary one), runs COMMAND with SLURM_CONF exported, then stops the
daemons by their pids (also when COMMAND fails). Needs root and the Debian packages
slurmctld slurmd slurm-client munge. Exit status: COMMAND's, or 1 if Slurm did not start.
Environment: SLURM_CLUSTER_PORT (slurmctld's port; slurmd uses the next one).
EOF
}

slurm_cluster_main() {
  local dir="" rc
  case "${1:-}" in
    -h | --help) slurm_cluster_usage; return 0 ;;
    run) shift ;;
    *) slurm_cluster_usage >&2; return 2 ;;
  esac
  while [ $# -gt 0 ]; do
    case "$1" in
      --dir) dir=$2; shift 2 ;;
      --) shift; break ;;
      *) slurm_cluster_usage >&2; return 2 ;;
    esac
  done
  [ $# -gt 0 ] || { slurm_cluster_usage >&2; return 2; }
  local made=""
  if [ -z "$dir" ]; then
    dir=$(mktemp -d /tmp/permbb-slurm.XXXXXX) || return 1
    chmod 755 "$dir"
    made=$dir
  fi
  trap slurm_cluster_stop EXIT
  slurm_cluster_start "$dir" || return 1
  "$@"
  rc=$?
  [ $rc -eq 0 ] || slurm_cluster_logs
  slurm_cluster_stop
  if [ -n "$made" ] && [ $rc -eq 0 ]; then rm -rf "$made"; fi
  return $rc
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -uo pipefail
  slurm_cluster_main "$@"
  exit $?
fi
