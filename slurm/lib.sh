# shellcheck shell=bash
# Functions shared by permbb.sbatch, permbb-submit and permbb-sweep. Source it after
# setting PBS_DIR (this folder) and PBS_NAME (the calling script's name, for messages).

PBS_NAME=${PBS_NAME:-permbb-slurm}

pbs_log() { echo "$PBS_NAME: $*" >&2; }
pbs_die() {
  echo "$PBS_NAME: error: $*" >&2
  exit 2
}

# The JSON state helper (chains, sweeps); see runstate.py --help.
pbs_state() { python3 "$PBS_DIR/runstate.py" "$@"; }

# One field of a JSON file ("a.b" for nested fields); empty when absent or null.
pbs_json_get() { pbs_state get "$1" "$2"; }

# "$@" as one line of shell words that can be pasted back into a shell.
pbs_quote() {
  local out="" w
  for w in "$@"; do out+=$(printf '%q ' "$w"); done
  echo "${out% }"
}

# An absolute path (the folder need not exist yet).
pbs_abspath() {
  case "$1" in
    /*) echo "$1" ;;
    *) echo "$PWD/$1" ;;
  esac
}

pbs_require_uint() {
  [[ $2 =~ ^[0-9]+$ ]] || pbs_die "$1 needs a whole number, got '$2'"
}

# The permbb executable: the given path, $PERMBB, permbb on PATH, the installation's
# (PREFIX/bin beside PREFIX/share/permbb/slurm), or build/permbb next to this folder. Prints
# an absolute path or fails.
pbs_find_permbb() {
  local given=${1:-${PERMBB:-}} found
  if [ -n "$given" ]; then
    found=$(command -v "$given" 2>/dev/null) || pbs_die "permbb executable not found: $given"
  elif found=$(command -v permbb 2>/dev/null); then
    :
  elif [ -x "$PBS_DIR/../../../bin/permbb" ]; then
    found=$PBS_DIR/../../../bin/permbb
  elif [ -x "$PBS_DIR/../build/permbb" ]; then
    found=$PBS_DIR/../build/permbb
  else
    pbs_die "no permbb executable: give --permbb PATH (or put permbb on PATH, or build it in build/)"
  fi
  found=$(pbs_abspath "$found")
  echo "$(cd "$(dirname "$found")" && pwd)/$(basename "$found")"
}

# A file or folder name for an instance: its base name without the extension.
pbs_instance_tag() {
  local base=${1##*/}
  base=${base%.*}
  echo "${base//[^A-Za-z0-9._-]/_}"
}

# The number of the next link of the chain in RUN (1 for a new chain).
pbs_next_link() {
  local run=$1 n
  n=$(python3 -c 'import json,sys
try:
    print(len(json.load(open(sys.argv[1])).get("links", [])) + 1)
except (OSError, ValueError):
    print(1)' "$run/chain.json")
  echo "$n"
}

# Whether a job is still queued or running.
pbs_job_active() {
  [ -n "$1" ] || return 1
  local state
  state=$(squeue -h -j "$1" -o %T 2>/dev/null | head -n 1)
  case "$state" in
    PENDING | RUNNING | CONFIGURING | COMPLETING | SUSPENDED | REQUEUED | RESIZING) return 0 ;;
    *) return 1 ;;
  esac
}

# Dies if a solver option ("${@:2}") is one the batch script sets itself (the checkpoint,
# the JSON result, the restart); $1 names who sets it. --checkpoint-interval and the like are
# the user's.
pbs_refuse_own_options() {
  local who=$1 o
  shift
  for o in "$@"; do
    case "$o" in
      --checkpoint | --checkpoint=* | --json | --json=* | --restart | --restart=* | --restart-fallback)
        pbs_die "solver option $o is set by $who" ;;
    esac
  done
}

# Slurm keeps a job that no node can ever satisfy pending for ever (more nodes than the
# partition has, an unknown node name): ask it first, with the job's sbatch options ("$@").
# sbatch --test-only submits nothing. Dies with Slurm's message (exit 2) if it cannot.
pbs_check_satisfiable() {
  local why
  why=$(sbatch --test-only "$@" --wrap true 2>&1) && return 0
  why=$(grep -v '^[[:space:]]*$' <<<"$why" | tail -n 1)
  pbs_die "Slurm cannot run this job ($*): ${why:-sbatch --test-only failed}"
}

# Dies unless Slurm answers: a job that seems gone must not be taken for one that is.
pbs_require_squeue() {
  squeue -h -o %i >/dev/null 2>&1 || pbs_die "cannot reach Slurm (squeue failed)"
}

# Succeeds when none of the jobs ($1, space-separated, at least one) is in Slurm any more,
# printing what Slurm says of each ("J: JobState=... Reason=...; ...").
pbs_jobs_gone() {
  local job said=""
  [ -n "${1// /}" ] || return 1
  for job in $1; do
    ! pbs_job_active "$job" || return 1
    said+="${said:+; }$job: $(pbs_job_state_text "$job")"
  done
  echo "$said"
}

# Slurm's state and reason for a job, as one line ("JobState=FAILED Reason=JobLaunchFailure
# ExitCode=0:53"); empty when Slurm no longer knows the job (MinJobAge).
pbs_job_state_text() {
  scontrol show job "$1" 2>/dev/null |
    grep -o -E '(JobState|Reason|ExitCode)=[^ ]*' | tr '\n' ' ' | sed 's/ $//'
}

# Reads sbatch options (one per line, as permbb-submit stores them) into the array named $2.
# shellcheck disable=SC2034  # `into` refers to the caller's array
pbs_read_options() {
  local file=$1
  local -n into=$2
  into=()
  [ -n "$file" ] && [ -f "$file" ] || return 0
  mapfile -t into <"$file"
}

# Cancels the given jobs that are still in Slurm: the pending ones first (a cancelled
# running link would start its pending follow-up), then the others, and prints their ids.
# With $1 = 1 (dry run) prints the scancel commands instead.
pbs_cancel_jobs() {
  local dry=$1 job pending=() running=()
  local -A seen=()
  shift
  for job in "$@"; do
    [ -z "${seen[$job]:-}" ] || continue
    seen[$job]=1
    pbs_job_active "$job" || continue
    if [ "$(squeue -h -j "$job" -o %T 2>/dev/null | head -n 1)" = PENDING ]; then
      pending+=("$job")
    else
      running+=("$job")
    fi
  done
  pbs_scancel "$dry" "${pending[@]}"
  pbs_scancel "$dry" "${running[@]}"
  [ "$dry" -eq 1 ] || echo "${pending[*]} ${running[*]}"
}

# scancel "${@:2}" (nothing if none), or print it when $1 = 1.
pbs_scancel() {
  local dry=$1
  shift
  [ $# -gt 0 ] || return 0
  if [ "$dry" -eq 1 ]; then
    pbs_quote scancel "$@"
  else
    scancel "$@" || pbs_log "scancel $* failed"
  fi
}
