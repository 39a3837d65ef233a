"""The inputs of `permbb report`, read and checked: progress logs (JSON Lines of `permbb solve
--progress-log`) into searches (most logs hold one), each its runs on one time axis; run
folders of slurm/permbb-submit (chain.json, result.json, progress.jsonl) and sweep folders of
slurm/permbb-sweep (sweep.json, one run folder per upper bound); and what each says for the
page's summary tables. Bad input raises ReportError, naming the PATH. The files read are
remembered (INPUT_FILES): no output may be one of them.
"""
import datetime
import json
import math
import os
import stat

EVENTS = ("start", "progress", "end")


class ReportError(Exception):
    """Bad input or an unwritable output: one line on stderr, exit status 2."""


def fail(path, what):
    raise ReportError(f"{path}: {what}")


# ---------------------------------------------------------------------------------------
# Reading values: the log is written by another program (and may grow new fields), so
# every value is checked for its type instead of trusted.

def number(record, key):
    """record[key] as a float, or None when absent, null, not a number or not finite (NaN
    and Infinity parse as JSON here, and mean nothing on a plot)."""
    value = record.get(key) if isinstance(record, dict) else None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def integer(record, key):
    value = record.get(key) if isinstance(record, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def text(record, key):
    value = record.get(key) if isinstance(record, dict) else None
    return value if isinstance(value, str) else None


def iso_to_unix(value):
    """An ISO time of runstate.py (chain.json) as seconds since the epoch, or None."""
    try:
        return datetime.datetime.fromisoformat(value).timestamp()
    except (TypeError, ValueError):
        return None


# ---------------------------------------------------------------------------------------
# The files read: the command line refuses an output that is one of them (reached through
# any name or link), since writing it would destroy what the report shows.

# (st_dev, st_ino) of each file read -> the name it was read by.
INPUT_FILES = {}


def remember_input(path, status=None):
    status = status or os.stat(path)
    INPUT_FILES.setdefault((status.st_dev, status.st_ino), path)


def refuse_non_regular(path, what):
    """A FIFO, a device or a socket as a file to read or write would block or never end
    (`/dev/zero`): refused, as the solver's readers do. Nothing to refuse when `path` does not
    exist."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        fail(path, f"cannot {what}: not a regular file (a FIFO, a device or a socket)")


def open_input(path):
    """`path` opened for reading as UTF-8 text, and remembered as an input."""
    refuse_non_regular(path, "read it")
    f = open(path, encoding="utf-8")
    remember_input(path, os.fstat(f.fileno()))
    return f


def input_named(path):
    """The name of the input file that `path` is, or None (also when it does not exist)."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return INPUT_FILES.get((status.st_dev, status.st_ino))


# ---------------------------------------------------------------------------------------
# The progress log.

def read_text(path):
    try:
        with open_input(path) as f:
            return f.read()
    except UnicodeDecodeError:
        fail(path, "not a progress log (not UTF-8 text)")
    except OSError as e:
        fail(path, f"cannot read ({e.strerror})")


def parse_log_lines(path, content):
    """The JSON objects of a progress log, and notes for the page. The last line may be cut
    short (the run was killed while writing it): it is skipped. Elsewhere a line that is not
    JSON means the file is not a progress log."""
    lines = [(n, line) for n, line in enumerate(content.split("\n"), 1) if line.strip()]
    records, notes = [], []
    for index, (n, line) in enumerate(lines):
        try:
            record = json.loads(line)
        except ValueError as e:
            if index == len(lines) - 1:
                notes.append(f"{path}: line {n} is cut short (the run stopped while writing "
                             f"it?): skipped")
                continue
            fail(path, f"line {n} is not JSON ({getattr(e, 'msg', e)}): not a progress log")
        check_record(path, n, record)
        records.append(record)
    if not records:
        fail(path, 'no records with an "event" field: not a progress log')
    return records, notes


def check_record(path, n, record):
    if not isinstance(record, dict):
        fail(path, f"line {n} is not a JSON object: not a progress log")
    if not isinstance(record.get("event"), str):
        fail(path, f'line {n} has no "event" field: not a progress log')


def read_progress_log(path):
    """The searches of a log (most logs hold one), each a list of runs placed on its own time
    axis from 0 (a sweep places them again)."""
    records, notes = parse_log_lines(path, read_text(path))
    runs = split_runs(records)
    if not runs:
        fail(path, "no start, progress or end line: not a progress log")
    searches = split_searches(runs)
    for search in searches:
        place_runs(search)
    if len(searches) > 1:
        notes.append(searches_note(path, searches))
    return searches, notes


class Run:
    """One process's part of the search: a start line (absent when it was lost), then its
    progress lines and its end line (absent when the process was killed)."""

    def __init__(self, start, restart):
        self.start = start
        self.restart = restart
        self.records = [start] if start else []   # its lines, in order
        self.end = None
        self.offset = 0.0   # where the run begins on the report's time axis
        self.label = f"restart {restart}" if restart else "start"

    def start_unix(self):
        return number(self.start, "unix_time") if self.start else None


def split_runs(records):
    """Each start line opens a run; lines of an unknown event are left out (the schema may
    grow), and a line whose restart number changes without a start line opens one too."""
    runs = []
    for record in records:
        event, restart = record["event"], integer(record, "restart") or 0
        if event not in EVENTS:
            continue
        if event == "start" or not runs or runs[-1].restart != restart or runs[-1].end:
            runs.append(Run(record if event == "start" else None, restart))
        if event != "start":
            runs[-1].records.append(record)
        if event == "end":
            runs[-1].end = record
    return runs


# What names a search on its start lines; a field differs only where both lines have it (old
# logs lack the fingerprint).
IDENTITY = ("instance", "fingerprint", "jobs", "machines")


def split_searches(runs):
    """The searches of a log: a log may hold several (a fresh run appended to an old log,
    another instance logged to the same file), which must not share a best makespan, a node
    total or a restart count. A start line begins a new one when it is a fresh run's
    (restart 0) after earlier lines, or names another search than the current one's."""
    searches = []
    for run in runs:
        if not searches or begins_search(run, searches[-1]):
            searches.append([])
        searches[-1].append(run)
    return searches


def begins_search(run, search):
    if run.start is None:
        return False
    return run.restart == 0 or not same_search(run.start, search)


def same_search(start, runs):
    for key in IDENTITY:
        known, value = first_start_field(runs, key), start.get(key)
        if known is not None and value is not None and known != value:
            return False
    return True


def searches_note(path, searches):
    named = ", ".join(f"search {k}: {first_start_field(runs, 'instance')}"
                      for k, runs in enumerate(searches, 1))
    return (f"{path}: the log holds {len(searches)} searches ({named}), shown apart (a start "
            f"line of a fresh run or of another instance begins a new one)")


def run_seconds(run, record):
    """Seconds since the run's start: the record's own field, else from the clocks."""
    seconds = number(record, "seconds")
    if seconds is None and run.start_unix() is not None and number(record, "unix_time"):
        seconds = number(record, "unix_time") - run.start_unix()
    return seconds


def run_length(run):
    times = [run_seconds(run, r) for r in run.records]
    return max([t for t in times if t is not None], default=0.0)


def place_runs(runs, base=0.0):
    """Sets each run's offset on the time axis: the wall seconds of the earlier runs of the
    search (seconds_before, what the checkpoint counted), else the end of the run before.
    `base` shifts a whole chain (the steps of a sweep follow one another). Returns the end."""
    end = base
    for run in runs:
        before = number(run.start, "seconds_before") if run.start else None
        run.offset = base + before if before is not None else end
        end = max(end, run.offset + run_length(run))
    return end


def timeline_end(runs):
    """Where the last run ends on the time axis (after place_runs)."""
    return max([run.offset + run_length(run) for run in runs], default=0.0)


def series(runs, key, events=("progress",), at_start=None):
    """Per run, the (time, value) points of `key` where it is a number; `at_start`: the
    value the key has by definition at a run's start line."""
    out = []
    for run in runs:
        points = [(run.offset, at_start)] if run.start and at_start is not None else []
        for record in run.records:
            t, y = run_seconds(run, record), number(record, key)
            if record["event"] in events and t is not None and y is not None:
                points.append((run.offset + t, y))
        out.append(points)
    return out


def run_markers(runs, style="run"):
    """A vertical line at each run's start but the very first (at time 0, or a restart)."""
    return [(run.offset, run.label, style) for i, run in enumerate(runs)
            if i > 0 or run.restart > 0 or run.offset > 0]


# ---------------------------------------------------------------------------------------
# What a log says, for the summary.

def first_start_field(runs, key):
    for run in runs:
        if run.start and run.start.get(key) is not None:
            return run.start[key]
    return None


def last_field(runs, key):
    for run in reversed(runs):
        for record in reversed(run.records):
            if record.get(key) is not None:
                return record[key]
    return None


def log_outcome(runs):
    last = runs[-1]
    if last.end is None:
        return "no end line: still running, or stopped without writing one"
    if last.end.get("complete") is True:
        return "complete"
    return "stopped before the end (resumable from its checkpoint, if it wrote one)"


def best_text(runs):
    """The log's best is the incumbent, which starts at the initial upper bound (older logs
    show that bound as the best even where no schedule makes it). Only a complete search
    proves that nothing lies below it; a stopped one says what it found so far."""
    best, initial = last_field(runs, "best"), first_start_field(runs, "initial_ub")
    if best is not None and best != initial:
        return str(best)
    complete = runs[-1].end is not None and runs[-1].end.get("complete") is True
    if initial is not None and complete:
        return f"nothing below the initial upper bound {initial} (the search is complete)"
    if initial is not None:
        return (f"none found below the initial upper bound {initial} so far "
                "(the search was not complete: nothing is proved)")
    return "none found"


def restarts(runs):
    """Restarts from a checkpoint: start lines that say so (a run whose start line was lost
    may be anything)."""
    return sum(1 for run in runs if run.start and run.restart > 0)


def log_summary(runs):
    """Rows (label, value) of the summary table for one progress log."""
    jobs, machines = first_start_field(runs, "jobs"), first_start_field(runs, "machines")
    size = f" ({jobs} jobs, {machines} machines)" if jobs is not None else ""
    ranks = max([integer(r.start, "ranks") or 1 for r in runs if r.start], default=1)
    return [
        ("instance", f"{first_start_field(runs, 'instance')}{size}"),
        ("outcome", log_outcome(runs)),
        ("best makespan", best_text(runs)),
        ("initial upper bound", first_start_field(runs, "initial_ub")),
        ("nodes (all runs)", last_field(runs, "nodes_total")),
        ("wall seconds (all runs)", round(timeline_end(runs), 3)),
        ("runs", f"{len(runs)} ({restarts(runs)} restart(s) in this log)"),
        ("ranks", ranks),
    ]


def is_mpi(runs):
    return any((integer(r.start, "ranks") or 1) > 1 for r in runs if r.start) or any(
        "coordinator_busy" in record for r in runs for record in r.records)


# ---------------------------------------------------------------------------------------
# Chains and sweeps (the JSON files of slurm/runstate.py).

def read_json(path, what):
    try:
        with open_input(path) as f:
            data = json.load(f)
    except OSError as e:
        fail(path, f"cannot read {what} ({e.strerror})")
    except ValueError as e:
        fail(path, f"{what} is not JSON ({e})")
    if not isinstance(data, dict):
        fail(path, f"{what} is not a JSON object")
    return data


def read_optional_json(path):
    try:
        with open_input(path) as f:
            data = json.load(f)
        return data if isinstance(data, dict) else None
    except (OSError, ValueError):
        return None


def chain_links(chain):
    links = chain.get("links")
    return [l for l in links if isinstance(l, dict)] if isinstance(links, list) else []


class Chain:
    """A run folder of slurm/permbb-submit: chain.json, result.json, progress.jsonl."""

    def __init__(self, folder):
        self.folder = folder
        self.chain = read_json(os.path.join(folder, "chain.json"), "the chain state")
        self.result = read_optional_json(os.path.join(folder, "result.json"))
        self.links = chain_links(self.chain)
        self.log = os.path.join(folder, "progress.jsonl")
        self.searches, self.notes = [[]], []
        if os.path.exists(self.log):
            self.searches, self.notes = read_progress_log(self.log)
        else:
            self.notes.append(f"{self.log}: absent (no link has run the solver with "
                              f"--progress-log)")
        # The chain's own search is the last: its links append to the log, and chain.json
        # and result.json speak of it. An earlier one was left by another run in the folder.
        self.runs = self.searches[-1]
        label_runs_with_links(all_runs(self.searches), self.links)


def all_runs(searches):
    return [run for runs in searches for run in runs]


def label_runs_with_links(runs, links):
    """Names each run after the chain link that ran it: the last link started (by the
    clock) before the run's start line; chain.json keeps whole seconds."""
    starts = [(iso_to_unix(l.get("started_at")), integer(l, "link")) for l in links]
    starts = sorted((t, k) for t, k in starts if t is not None and k is not None)
    for run in runs:
        began = run.start_unix()
        owners = [k for t, k in starts if began is not None and t <= began + 1]
        if owners:
            run.label = f"link {owners[-1]}"


def chain_summary(c):
    """The chain's own account (chain.json, result.json) first, then its progress log's."""
    result = c.result or {}
    reason = text(c.chain, "reason")
    rows = [("instance", c.chain.get("instance")),
            ("outcome", (text(c.chain, "status") or "unknown")
             + (f" ({reason})" if reason else "")),
            ("solver status", result.get("status")),
            ("best makespan", result.get("makespan") if result.get("makespan") is not None
             else best_text(c.runs) if c.runs else None),
            ("nodes (all links)", result.get("nodes_decomposed",
                                                last_field(c.runs, "nodes_total"))),
            ("seconds (all links)", result.get("seconds", round(timeline_end(c.runs), 3))),
            ("links", len(c.links)),
            ("restarts", result.get("restarts"))]
    shown = {label for label, _ in rows}
    from_log = [r for r in log_summary(c.runs) if r[0] in ("initial upper bound", "ranks")] \
        if c.runs else []
    return rows + [r for r in from_log if r[0] not in shown]


LINK_COLUMNS = ("link", "job_id", "hosts", "ranks", "restarted_from_checkpoint", "started_at",
                "ended_at", "signal", "solver_exit", "outcome", "reason")


def link_rows(links):
    rows = []
    for link in links:
        hosts = link.get("hosts")
        link = dict(link, hosts=" ".join(map(str, hosts)) if isinstance(hosts, list) else hosts)
        rows.append([link.get(c) for c in LINK_COLUMNS])
    return rows


class Sweep:
    """A sweep folder of slurm/permbb-sweep: sweep.json and one chain folder per step."""

    def __init__(self, folder):
        self.folder = folder
        self.state = read_json(os.path.join(folder, "sweep.json"), "the sweep state")
        self.steps = sweep_steps(self.state, folder)
        self.chains, self.notes = [], []
        for step in self.steps:
            self.add_step_chain(step)

    def add_step_chain(self, step):
        folder = step["folder"]
        if not os.path.isfile(os.path.join(folder, "chain.json")):
            self.notes.append(f"step --ub {step.get('ub')}: no chain.json in {folder}")
            return
        chain = Chain(folder)
        self.chains.append((step, chain))
        self.notes.extend(chain.notes)


def sweep_steps(state, folder):
    """The finished steps, plus the running one when its folder exists. A step's run_dir is
    relative to the sweep folder (which may have moved since)."""
    steps = [dict(s) for s in state.get("steps") or [] if isinstance(s, dict)]
    for step in steps:
        run_dir = step.get("run_dir") if isinstance(step.get("run_dir"), str) else \
            f"ub-{step.get('ub')}"
        step["folder"] = os.path.join(folder, run_dir)
    running = integer(state, "next_ub")
    if state.get("status") == "running" and running not in [s.get("ub") for s in steps]:
        folder_running = os.path.join(folder, f"ub-{running}")
        if os.path.isdir(folder_running):
            steps.append({"ub": running, "status": "running", "chain": "running",
                          "run_dir": f"ub-{running}", "folder": folder_running})
    return steps


def sweep_summary(s):
    st = s.state
    reason = text(st, "reason")
    return [
        ("instance", st.get("instance")),
        ("outcome", (text(st, "status") or "unknown") + (f" ({reason})" if reason else "")),
        ("proved lower bound", f"C* >= {st.get('lower_bound')} ({st.get('lower_bound_origin')})"),
        ("best makespan", st.get("upper_bound")),
        ("nodes (all steps)", st.get("nodes_decomposed")),
        ("seconds (all steps)", st.get("seconds")),
        ("steps", len(s.steps)),
        ("links (all steps)", sum(len(c.links) for _, c in s.chains)),
    ]


STEP_COLUMNS = ("ub", "question", "chain", "status", "proves", "makespan", "nodes_decomposed",
                "seconds", "restarts", "links", "run_dir")


def step_rows(steps):
    return [[step.get(c) for c in STEP_COLUMNS] for step in steps]


def sweep_timeline(sweep):
    """The steps' runs one after another on one time axis, each step's start marked."""
    runs, markers, end = [], [], 0.0
    for step, chain in sweep.chains:
        step_runs = all_runs(chain.searches)
        if not step_runs:
            continue
        begin = end
        for search in chain.searches:   # one after another, should a step's log hold several
            end = place_runs(search, base=end)
        markers.append((begin, f"--ub {step.get('ub')}", "step"))
        markers += [m for m in run_markers(step_runs, style="run") if m[0] > begin]
        runs += step_runs
    return runs, markers


# ---------------------------------------------------------------------------------------
# Which kind of input a PATH is.

def path_kind(path):
    """"sweep", "chain" or "log", by what PATH holds; a log is checked when read."""
    if not os.path.exists(path):
        fail(path, "no such file or folder")
    if os.path.isdir(path):
        if os.path.isfile(os.path.join(path, "sweep.json")):
            return "sweep"
        if os.path.isfile(os.path.join(path, "chain.json")):
            return "chain"
        fail(path, "neither a run folder of permbb-submit (chain.json) nor a sweep folder "
                   "of permbb-sweep (sweep.json)")
    return "log"
