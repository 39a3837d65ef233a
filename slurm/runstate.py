#!/usr/bin/env python3
"""JSON state of permbb's Slurm runs: restart chains (RUN/chain.json, RUN/result.json) and
upper-bound sweeps (SWEEP/sweep.json). The shell scripts in this folder call it; every write
replaces the file atomically (write to a temporary file, then rename), and every command
holds an exclusive lock on the file it reads and rewrites (a hidden .NAME.lock beside it):
the submitter and the job it queued may update a chain at the same moment.

A chain is a sequence of links (jobs) that continue one search through its checkpoint. The
outcome of a link:
  complete    the search finished (status optimal or no-better-than-ub);
  resumable   a checkpoint is saved and a follow-up link is queued;
  incomplete  resumable, but no follow-up (the maximum number of links is reached, or the
              follow-up was cancelled);
  failed      bad input, or a failure that a restart does not get past: the chain stops.
  lost        the link never recorded its end (its first node, with the coordinator and
              the batch script, was lost); the next link records this when it starts.
A link whose launcher fails (a rank killed, a node lost, a rank that stopped answering) is
resumable: the next link restarts from the checkpoint on disk (or afresh when there is none
yet), on whatever nodes Slurm gives it. Two such failures in a row without progress (the checkpoint's node
count unchanged) end the chain as failed, so that a rank that cannot start, or a crash that
comes back, stops the chain instead of spending every link on it.
The chain ends with complete, incomplete or failed; complete and incomplete write
RUN/result.json: the solver's JSON of the last link (its counters are totals over all
restarts) plus a "chain" object.

An upper-bound sweep (Gmys 2022, §5.4.2, approach 1) runs one chain per upper bound U =
L+1, L+2, ...: a complete search at --ub U without a better schedule proves C* >= U; one
that finds a schedule proves it optimal. sweep.json holds what is proved so far.
"""
import argparse
import contextlib
import datetime
import fcntl
import json
import os
import sys
import tempfile

COMPLETE_STATUSES = ("optimal", "no-better-than-ub")
CHAIN_ENDS = ("complete", "incomplete", "failed")


def now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def load(path, default=None):
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        if default is not None:
            return default
        raise
    except json.JSONDecodeError as e:
        if default is not None:
            return default
        raise SystemExit(f"runstate: {path}: not JSON ({e})")


def save(path, data):
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
    with os.fdopen(fd, "w") as f:
        json.dump(data, f, indent=2)
        f.write("\n")
    os.replace(tmp, path)


@contextlib.contextmanager
def exclusive(path):
    """Holds an exclusive lock for the read-modify-write of `path` (no lock when its folder
    does not exist: the command then fails on the file itself, with its own message)."""
    folder, name = os.path.split(os.path.abspath(path))
    if not os.path.isdir(folder):
        yield
        return
    with open(os.path.join(folder, f".{name}.lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def load_optional(path):
    """The JSON in `path`, or None if it is absent, empty or not JSON."""
    if not path:
        return None
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, json.JSONDecodeError):
        return None


# ---------------------------------------------------------------------------------------
# get: one field of a JSON file, for the shell.

def format_value(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return " ".join(format_value(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value)
    return str(value)


def cmd_get(args):
    data = load_optional(args.file)
    if data is None:
        return 1
    for key in args.key.split("."):
        data = data.get(key) if isinstance(data, dict) else None
    print(format_value(data))
    return 0


# ---------------------------------------------------------------------------------------
# Chains.

def chain_path(run):
    return os.path.join(run, "chain.json")


def mark_lost(link):
    """A link that never recorded its end: its batch script was killed with its node (the
    node of the coordinator) before it could. The next link restarts from the checkpoint
    on disk, which the coordinator writes every --checkpoint-interval seconds."""
    link.update({"outcome": "lost", "launcher_failed": True, "signal": "none",
                 "reason": "the link ended without recording its end (its first node, which "
                           "runs the coordinator, was lost?): the next link restarts from "
                           "the last periodic checkpoint"})


def cmd_link_start(args):
    chain = load(chain_path(args.run), default={})
    chain.setdefault("instance", args.instance)
    chain.setdefault("run_dir", os.path.abspath(args.run))
    chain.setdefault("created_at", now())
    chain["max_links"] = args.max_links
    chain["status"] = "running"
    chain.setdefault("links", [])
    chain["links"] = [l for l in chain["links"] if l.get("link") != args.link]
    for earlier in chain["links"]:
        if earlier["link"] < args.link and "outcome" not in earlier:
            mark_lost(earlier)
    chain["links"].append({
        "link": args.link, "job_id": args.job, "host": args.host,
        "hosts": args.hosts.split() if args.hosts else [args.host], "launcher": args.launcher,
        "ranks": args.ranks, "workers": args.workers, "gpus_per_node": args.gpus_per_node,
        "restarted_from_checkpoint": args.restarted == "yes", "started_at": now(),
        "successor_job_id": args.successor or None})
    chain["links"].sort(key=lambda l: l["link"])
    chain["successor_job_id"] = args.successor or None
    save(chain_path(args.run), chain)
    return 0


def started_since(chain, epoch):
    """Whether a link of `chain` started at or after `epoch` (seconds; links record whole
    seconds, so a link of the same second counts as started)."""
    for link in chain.get("links", []):
        started = datetime.datetime.fromisoformat(link["started_at"]).timestamp()
        if started >= int(epoch):
            return True
    return False


def cmd_chain_queued(args):
    chain = load(chain_path(args.run), default={})
    chain.setdefault("instance", args.instance)
    chain.setdefault("run_dir", os.path.abspath(args.run))
    chain.setdefault("created_at", now())
    chain.setdefault("links", [])
    # A complete chain's task just reports it. A job that already started (it may even have
    # failed at once, before sbatch returned to the submitter) has written a newer status.
    if chain.get("status") != "complete" and not started_since(chain, args.submitted_at):
        chain["status"] = "queued"
    chain["queued_job_id"] = args.job
    save(chain_path(args.run), chain)
    return 0


def cmd_chain_jobs(args):
    """The chain's jobs that may still be in Slurm: follow-up, queued, last link."""
    chain = load_optional(chain_path(args.run)) or {}
    jobs = [chain.get("successor_job_id"), chain.get("queued_job_id")]
    jobs += [l.get("job_id") for l in chain.get("links", [])[-1:]]
    print(" ".join(dict.fromkeys(j for j in jobs if j)))
    return 0


def vanished_reason(jobs, slurm, what):
    """Why `what` (the chain, a sweep's step) failed: its jobs left Slurm before it ended."""
    return (f"job(s) {jobs} left Slurm without ending {what} "
            f"({slurm or 'Slurm no longer knows them'}): is the run folder on a file system "
            f"the nodes share, and writable there?")


def cmd_chain_vanished(args):
    """The chain's jobs have all left Slurm while it is not ended: no link could record its
    end (the job failed to launch: the nodes could not open the run folder, say). The chain
    is failed, with Slurm's last word on the jobs."""
    chain = load(chain_path(args.run))
    if chain.get("status") in CHAIN_ENDS:
        print(chain["status"])
        return 0
    chain["status"] = "failed"
    chain["reason"] = vanished_reason(args.jobs, args.slurm, "the chain")
    chain["ended_at"] = now()
    save(chain_path(args.run), chain)
    print("failed")
    return 0


def classify(exit_code, signalled, link_result, checkpoint, previous=None):
    """The outcome of one link (before looking at whether a follow-up is queued). `previous`
    is the chain's record of the link before, if any."""
    status = (link_result or {}).get("status")
    if exit_code == 0 and status in COMPLETE_STATUSES:
        return "complete", f"search complete ({status})"
    if exit_code == 2:
        return "failed", "bad input (solver exit 2)"
    if status in COMPLETE_STATUSES:
        return "complete", f"search complete ({status}); launcher exit {exit_code}"
    if exit_code == 3 or signalled:
        if checkpoint is not None and checkpoint.get("complete"):
            return "resumable", "the checkpoint is complete; the next link reports the result"
        if checkpoint is not None:
            return "resumable", (f"checkpoint saved, remaining fraction "
                                 f"{checkpoint.get('remaining_fraction')}")
        return "resumable", "stopped before the first checkpoint; the next link starts afresh"
    nodes = (checkpoint or {}).get("nodes_decomposed")
    if (previous or {}).get("launcher_failed") and \
            previous.get("checkpoint_nodes_decomposed") == nodes:
        return "failed", (f"launcher exit {exit_code} twice in a row without progress "
                          f"(a rank that cannot start, or a crash that comes back)")
    if checkpoint is None:
        return "resumable", (f"launcher exit {exit_code} before the first checkpoint: a rank "
                             f"or a node was lost; the next link starts afresh")
    return "resumable", (f"launcher exit {exit_code}: a rank or a node was lost; restart "
                         f"from the checkpoint (remaining fraction "
                         f"{checkpoint.get('remaining_fraction')})")


def result_from_checkpoint(checkpoint, instance):
    """A result in the solver's JSON shape, when a link left only its checkpoint."""
    makespan = checkpoint.get("best_makespan")
    return {
        "instance": checkpoint.get("instance", instance), "jobs": checkpoint.get("jobs"),
        "machines": checkpoint.get("machines"), "bound": checkpoint.get("bound"),
        "branching": checkpoint.get("branching"), "initial_ub": checkpoint.get("initial_ub"),
        "initial_ub_origin": checkpoint.get("initial_ub_origin"), "status": "incomplete",
        "makespan": makespan,
        "permutation": checkpoint.get("best_permutation") if makespan is not None else None,
        "nodes_decomposed": checkpoint.get("nodes_decomposed"),
        "leaves": checkpoint.get("leaves"), "seconds": checkpoint.get("wall_seconds"),
        "restarts": checkpoint.get("restarts"), "from_checkpoint": True}


def cmd_link_end(args):
    chain = load(chain_path(args.run))
    link_result = load_optional(args.link_json)
    checkpoint = load_optional(args.checkpoint_json)
    earlier = [l for l in chain["links"] if l["link"] < args.link]
    outcome, reason = classify(args.exit, args.signalled != "none", link_result, checkpoint,
                               earlier[-1] if earlier else None)
    if outcome == "resumable" and not args.successor:
        outcome = "incomplete"
        reason += (f"; no follow-up queued (link {args.link}; this submission allowed up to "
                   f"link {chain.get('max_links')})")
    record = next(l for l in chain["links"] if l["link"] == args.link)
    record.update({"ended_at": now(), "solver_exit": args.exit, "signal": args.signalled,
                   "outcome": outcome, "reason": reason,
                   "launcher_failed": args.exit not in (0, 2, 3) and args.signalled == "none",
                   "solver_status": (link_result or {}).get("status"),
                   "checkpoint_remaining_fraction": (checkpoint or {}).get("remaining_fraction"),
                   "checkpoint_nodes_decomposed": (checkpoint or {}).get("nodes_decomposed"),
                   "result": os.path.basename(args.link_json) if link_result else None})
    chain["status"] = "resumable" if outcome == "resumable" else outcome
    chain["reason"] = reason
    if outcome in ("complete", "incomplete"):
        result = link_result
        if result is None or result.get("status") not in COMPLETE_STATUSES + ("incomplete",):
            result = result_from_checkpoint(checkpoint or {}, chain.get("instance"))
        result = dict(result)
        result["chain"] = {"outcome": outcome, "links": len(chain["links"]),
                           "job_ids": [l["job_id"] for l in chain["links"]],
                           "run_dir": chain.get("run_dir")}
        save(os.path.join(args.run, "result.json"), result)
        chain["result"] = "result.json"
    if outcome in CHAIN_ENDS:
        chain["ended_at"] = now()
        chain["successor_job_id"] = None
    save(chain_path(args.run), chain)
    print(outcome)
    return 0


# ---------------------------------------------------------------------------------------
# Upper-bound sweeps.

def cmd_sweep_init(args):
    if os.path.exists(args.state):
        raise SystemExit(f"runstate: {args.state} exists: resume that sweep instead")
    state = {
        "format": "permbb-sweep/1", "instance": args.instance,
        "sweep_dir": os.path.abspath(os.path.dirname(os.path.abspath(args.state))),
        "solver_options": args.solver_options,
        "given_lower_bound": args.lower_bound,
        "lower_bound": args.lower_bound, "lower_bound_origin": "given",
        "upper_bound": None, "permutation": None,
        "status": "running", "reason": None,
        "next_ub": args.lower_bound + 1,
        "max_ub": args.max_ub, "max_steps": args.max_steps,
        "steps": [], "nodes_decomposed": 0, "seconds": 0.0,
        "created_at": now(), "updated_at": now()}
    save(args.state, state)
    return 0


def sweep_limit_reason(state):
    """Why no further step may run, or None."""
    if state.get("max_ub") is not None and state["next_ub"] > state["max_ub"]:
        return f"limit: next UB {state['next_ub']} > --max-ub {state['max_ub']}"
    if state.get("max_steps") is not None and len(state["steps"]) >= state["max_steps"]:
        return f"limit: {len(state['steps'])} steps done (--max-steps {state['max_steps']})"
    return None


def cmd_sweep_step(args):
    """Records a finished step (a chain at --ub U) and prints the next U to run, if any."""
    state = load(args.state)
    result = load_optional(os.path.join(args.run, "result.json")) or {}
    status = result.get("status")
    step = {"ub": args.ub, "question": f"C* <= {args.ub - 1}?", "chain": args.outcome,
            "status": status, "makespan": result.get("makespan"),
            "nodes_decomposed": result.get("nodes_decomposed"), "seconds": result.get("seconds"),
            "restarts": result.get("restarts"),
            "links": (result.get("chain") or {}).get("links"),
            "run_dir": os.path.relpath(os.path.abspath(args.run), state["sweep_dir"]),
            "ended_at": now()}
    state["steps"] = [s for s in state["steps"] if s["ub"] != args.ub] + [step]
    state["nodes_decomposed"] = sum(s.get("nodes_decomposed") or 0 for s in state["steps"])
    state["seconds"] = sum(s.get("seconds") or 0 for s in state["steps"])
    makespan = result.get("makespan")
    if makespan is not None and (state["upper_bound"] is None or makespan < state["upper_bound"]):
        state["upper_bound"] = makespan
        state["permutation"] = result.get("permutation")
    if args.outcome == "complete" and status == "no-better-than-ub":
        step["proves"] = f"C* > {args.ub - 1}"
        if args.ub > state["lower_bound"]:
            state["lower_bound"] = args.ub
            state["lower_bound_origin"] = f"proved at --ub {args.ub}"
        state["next_ub"] = args.ub + 1
        state["status"], state["reason"] = "running", None
        limit = sweep_limit_reason(state)
        if limit:
            state["status"], state["reason"] = "stopped", limit
    elif args.outcome == "complete" and status == "optimal":
        step["proves"] = f"C* = {makespan}"
        state["status"], state["reason"] = "optimal", f"optimal schedule proved at --ub {args.ub}"
        state["lower_bound"] = makespan
        state["lower_bound_origin"] = f"proved at --ub {args.ub}"
        state["upper_bound"], state["permutation"] = makespan, result.get("permutation")
    elif args.outcome == "incomplete":
        state["status"] = "stopped"
        state["reason"] = (f"step --ub {args.ub} incomplete after {step['links']} links: "
                           f"resume to continue it")
    else:
        state["status"], state["reason"] = "failed", f"step --ub {args.ub}: chain {args.outcome}"
    state["updated_at"] = now()
    save(args.state, state)
    if state["status"] == "running":
        print(state["next_ub"])
    return 0


def cmd_sweep_resume(args):
    """Makes a stopped or broken sweep runnable again (new limits allowed); prints next U."""
    state = load(args.state)
    if args.max_ub is not None:
        state["max_ub"] = args.max_ub
    if args.max_steps is not None:
        state["max_steps"] = args.max_steps
    store = (lambda: None) if args.dry_run else (lambda: save(args.state, state))
    if state["status"] == "optimal":
        store()
        return 0
    # A step that ended incomplete or failed is run again (its chain continues).
    unfinished = state["steps"] and state["steps"][-1]["ub"] == state["next_ub"]
    limit = None if unfinished else sweep_limit_reason(state)
    if limit:
        state["status"], state["reason"] = "stopped", limit
        store()
        return 0
    state["status"], state["reason"] = "running", None
    state["updated_at"] = now()
    store()
    print(state["next_ub"])
    return 0


def cmd_sweep_queued(args):
    state = load(args.state)
    state["step_job_id"] = args.job
    state["step_ub"] = args.ub
    state["updated_at"] = now()
    save(args.state, state)
    return 0


def cmd_sweep_vanished(args):
    """The running step's jobs have all left Slurm before its chain ended (see
    chain-vanished): the sweep is failed; `permbb-sweep resume` runs the step again."""
    state = load(args.state)
    if state.get("status") != "running":
        return 0
    state["status"] = "failed"
    state["reason"] = (f"step --ub {state['next_ub']}: "
                       + vanished_reason(args.jobs, args.slurm, "the step"))
    state["updated_at"] = now()
    save(args.state, state)
    return 0


def cmd_sweep_status(args):
    state = load(args.state)
    if args.json:
        print(json.dumps(state, indent=2))
        return 0
    print(f"sweep of {state['instance']}: {state['status']}"
          + (f" ({state['reason']})" if state.get("reason") else ""))
    ub = state["upper_bound"]
    print(f"  proved: C* >= {state['lower_bound']} ({state['lower_bound_origin']})"
          + (f"; best schedule found: {ub}" if ub is not None else ""))
    for s in state["steps"]:
        print(f"  --ub {s['ub']}: {s.get('status') or s['chain']}"
              + (f", proves {s['proves']}" if s.get("proves") else "")
              + f", {s.get('nodes_decomposed')} nodes, {s.get('links')} link(s), {s['run_dir']}")
    if state["status"] == "running":
        print(f"  running or next: --ub {state['next_ub']}"
              + (f" (job {state['step_job_id']})" if state.get("step_job_id") else ""))
    return 0


def add_vanished_parser(sub, name, target, func, help_text):
    """chain-vanished and sweep-vanished: the file (`target`), the jobs and Slurm's word."""
    s = sub.add_parser(name, help=help_text)
    s.add_argument(target)
    s.add_argument("--jobs", required=True)
    s.add_argument("--slurm", default="", help="what Slurm says of the jobs")
    s.set_defaults(func=func)


def main(argv):
    p = argparse.ArgumentParser(prog="runstate.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("get", help="print one field (a.b for nested); exit 1 if no JSON file")
    s.add_argument("file")
    s.add_argument("key")
    s.set_defaults(func=cmd_get)

    s = sub.add_parser("link-start", help="record that a link started")
    s.add_argument("run")
    for name in ("--instance", "--job", "--host", "--launcher", "--successor", "--hosts"):
        s.add_argument(name, default="")
    for name in ("--link", "--max-links", "--ranks", "--workers", "--gpus-per-node"):
        s.add_argument(name, type=int, required=True)
    s.add_argument("--restarted", choices=("yes", "no"), default="no")
    s.set_defaults(func=cmd_link_start)

    s = sub.add_parser("chain-queued", help="record the job that will run the next link")
    s.add_argument("run")
    s.add_argument("--job", required=True)
    s.add_argument("--instance", default="")
    s.add_argument("--submitted-at", type=float, default=0.0,
                   help="when sbatch was called (seconds since the epoch)")
    s.set_defaults(func=cmd_chain_queued)

    s = sub.add_parser("chain-jobs", help="print the chain's jobs that may still be in Slurm")
    s.add_argument("run")
    s.set_defaults(func=cmd_chain_jobs)

    add_vanished_parser(sub, "chain-vanished", "run", cmd_chain_vanished,
                        "mark failed a chain whose jobs left Slurm before it ended")

    s = sub.add_parser("link-end", help="classify a finished link; print its outcome")
    s.add_argument("run")
    s.add_argument("--link", type=int, required=True)
    s.add_argument("--exit", type=int, required=True)
    s.add_argument("--signalled", default="none", help="none, USR1 or TERM")
    s.add_argument("--link-json", default="")
    s.add_argument("--checkpoint-json", default="")
    s.add_argument("--successor", default="")
    s.set_defaults(func=cmd_link_end)

    s = sub.add_parser("sweep-init", help="create a sweep state file (solver options after --)")
    s.add_argument("state")
    s.add_argument("--instance", required=True)
    s.add_argument("--lower-bound", type=int, required=True)
    s.add_argument("--max-ub", type=int)
    s.add_argument("--max-steps", type=int)
    s.set_defaults(func=cmd_sweep_init)

    s = sub.add_parser("sweep-step", help="record a finished step; print the next UB")
    s.add_argument("state")
    s.add_argument("--ub", type=int, required=True)
    s.add_argument("--run", required=True)
    s.add_argument("--outcome", required=True, choices=CHAIN_ENDS)
    s.set_defaults(func=cmd_sweep_step)

    s = sub.add_parser("sweep-resume", help="make a sweep runnable again; print the next UB")
    s.add_argument("state")
    s.add_argument("--max-ub", type=int)
    s.add_argument("--max-steps", type=int)
    s.add_argument("--dry-run", action="store_true", help="change nothing")
    s.set_defaults(func=cmd_sweep_resume)

    s = sub.add_parser("sweep-queued", help="record the job that runs a step")
    s.add_argument("state")
    s.add_argument("--ub", type=int, required=True)
    s.add_argument("--job", required=True)
    s.set_defaults(func=cmd_sweep_queued)

    add_vanished_parser(sub, "sweep-vanished", "state", cmd_sweep_vanished,
                        "mark failed a running sweep whose step's jobs all left Slurm")

    s = sub.add_parser("sweep-status", help="print what a sweep has proved")
    s.add_argument("state")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_sweep_status)

    # Words after "--" are the solver options of sweep-init (argparse would take them as
    # options of its own).
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    args = p.parse_args(argv)
    args.solver_options = extra
    written = getattr(args, "state", None)
    if written is None and hasattr(args, "run") and args.command != "sweep-step":
        written = chain_path(args.run)
    if written is None or args.command == "get":
        return args.func(args)
    with exclusive(written):
        return args.func(args)


def exit_on_closed_reader():
    """A reader that leaves early ("| head") is not an error worth a traceback. Every command
    saves its state before it prints, so nothing is lost; exit as a shell tool killed by
    SIGPIPE would (128 + 13), with stdout pointed at /dev/null so the final flush is quiet."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 141


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:
        sys.exit(exit_on_closed_reader())
