#!/usr/bin/env python3
"""permbb report: one self-contained HTML page on a run of `permbb solve`, or comparing runs.

PATH is a progress log (`permbb solve --progress-log FILE`, JSON Lines), a run folder of
slurm/permbb-submit (chain.json, progress.jsonl) or a sweep folder of slurm/permbb-sweep
(sweep.json, one run folder per upper bound). The page holds a summary table and plots
(PNG images embedded in the page: it needs no network): nodes per second, remaining work,
the incumbent, and under MPI the busy and idle workers and the coordinator's load, over
the wall time summed across restarts; restarts and chain links are vertical lines.
With several PATHs the page compares them: a summary row per PATH and the same plots with
one line per PATH (its own colour, named after its file or folder), each from time 0.

Bad input (a missing or unreadable PATH (any of them), a folder that is neither a chain nor a sweep, a
file that is not a progress log, an output that cannot be written) is one line on stderr,
"permbb: error: ...", and exit status 2.
"""
import argparse
import base64
import collections
import datetime
import html
import io
import json
import math
import os
import re
import sys

EVENTS = ("start", "progress", "end")
# Debian's python3-matplotlib lives in the system interpreter's packages; `python3` on PATH
# may be another interpreter (pyenv, a virtual environment) that does not see them.
SYSTEM_PYTHON = "/usr/bin/python3"
REEXEC_MARK = "PERMBB_REPORT_SYSTEM_PYTHON"


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
# The progress log.

def read_text(path):
    try:
        with open(path, encoding="utf-8") as f:
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
    """The runs of a log, placed on a time axis from 0 (a sweep places them again)."""
    records, notes = parse_log_lines(path, read_text(path))
    runs = split_runs(records)
    place_runs(runs)
    return runs, notes


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
    """The log's best is the incumbent, which starts at the initial upper bound."""
    best, initial = last_field(runs, "best"), first_start_field(runs, "initial_ub")
    if best is not None and best != initial:
        return str(best)
    if initial is not None:
        return f"nothing below the initial upper bound {initial}"
    return "none found"


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
        ("runs", f"{len(runs)} ({len(runs) - 1} restart(s) in this log)"),
        ("ranks", ranks),
    ]


def is_mpi(runs):
    return any((integer(r.start, "ranks") or 1) > 1 for r in runs if r.start) or any(
        "coordinator_busy" in record for r in runs for record in r.records)


# ---------------------------------------------------------------------------------------
# Chains and sweeps (the JSON files of slurm/runstate.py).

def read_json(path, what):
    try:
        with open(path, encoding="utf-8") as f:
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
        with open(path, encoding="utf-8") as f:
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
        self.runs, self.notes = [], []
        log = os.path.join(folder, "progress.jsonl")
        if os.path.exists(log):
            self.runs, self.notes = read_progress_log(log)
        else:
            self.notes.append(f"{log}: absent (no link has run the solver with --progress-log)")
        label_runs_with_links(self.runs, self.links)


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


# ---------------------------------------------------------------------------------------
# Plots (matplotlib, Agg: no display).

def load_pyplot():
    """matplotlib.pyplot, from this interpreter or, once, from the system's python3."""
    try:
        import matplotlib
    except ImportError:
        system = SYSTEM_PYTHON
        if os.environ.get(REEXEC_MARK) or not os.path.exists(system) or \
                os.path.realpath(sys.executable) == os.path.realpath(system):
            raise ReportError("matplotlib is missing (Debian: apt-get install "
                              "python3-matplotlib)")
        os.environ[REEXEC_MARK] = "1"
        sys.stdout.flush()
        os.execv(system, [system, os.path.abspath(__file__)] + sys.argv[1:])
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


# The colours of compared PATHs (matplotlib's default cycle, named so that a PATH keeps its
# colour in every plot, whatever else a plot draws).
SOURCE_COLORS = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown",
                 "tab:pink", "tab:olive", "tab:cyan", "tab:grey")


def source_color(k):
    return SOURCE_COLORS[k % len(SOURCE_COLORS)]


class Plotter:
    def __init__(self, plt, sources):
        self.plt = plt
        # (name, runs, markers) per PATH; markers: (time, label, style) of restarts, links
        # and sweep steps. The page of one PATH has one source, named None.
        self.sources = sources
        self.unit, self.scale = "s", 1.0

    def set_time_span(self, seconds):
        """Hours or minutes on the axis when seconds would give unreadable numbers."""
        for unit, scale in (("h", 3600.0), ("min", 60.0)):
            if seconds >= 3 * scale:
                self.unit, self.scale = unit, scale
                return
        self.unit, self.scale = "s", 1.0

    def axes(self, title, rows=1):
        fig, axes = self.plt.subplots(rows, 1, figsize=(9, 3.2 * rows), squeeze=False,
                                      sharex=True)
        axes[0][0].set_title(title)
        axes[-1][0].set_xlabel(f"wall time, all runs ({self.unit})")
        return fig, [a[0] for a in axes]

    def style(self, k, name, color, label):
        """The colour and legend label of source k: the plot's own for one PATH (its lines
        are told apart by colour), the PATH's colour and name when comparing."""
        if name is None:
            return color, label
        return source_color(k), f"{name}: {label}"

    def draw_sources(self, ax, points_of, label, color, step=False, dashes="-"):
        """points_of(runs) of every source. `dashes` tells two quantities of one axis apart
        when comparing, where colour already means the PATH."""
        drawn = False
        for k, (name, runs, _) in enumerate(self.sources):
            line_color, line_label = self.style(k, name, color, label)
            drawn |= self.draw(ax, points_of(runs), line_label, line_color, step,
                               "-" if name is None else dashes)
        return drawn

    def draw(self, ax, runs_points, label, color, step=False, dashes="-"):
        """One line per run, in one colour: runs may overlap in time where a killed run's
        work after its last checkpoint is done again by the next one."""
        drawn = False
        for points in runs_points:
            if not points:
                continue
            xs = [t / self.scale for t, _ in points]
            ys = [y for _, y in points]
            plot = ax.step if step else ax.plot
            kwargs = {"where": "post"} if step else {}
            plot(xs, ys, color=color, linestyle=dashes, label=None if drawn else label,
                 marker="." if len(points) < 3 else None, **kwargs)
            drawn = True
        return drawn

    def mark(self, ax):
        for k, (name, _, markers) in enumerate(self.sources):
            for t, label, style in markers:
                default = "grey" if style == "run" else "black"
                color = default if name is None else source_color(k)
                ax.axvline(t / self.scale, color=color,
                           linestyle=":" if style == "run" else "--", linewidth=1)
                ax.text(t / self.scale, 1.0, f" {label}", transform=ax.get_xaxis_transform(),
                        rotation=90, va="top", ha="left", fontsize=7, color="dimgrey")

    def finish(self, fig, axes, drawn):
        for ax in axes:
            self.mark(ax)
            ax.grid(True, alpha=0.3)
            if ax.get_legend_handles_labels()[0]:
                ax.legend(loc="best", fontsize=8)
        if not drawn:
            axes[0].text(0.5, 0.5, "no data in the log", transform=axes[0].transAxes,
                         ha="center", va="center", color="grey")
        return png(self.plt, fig)


def png(plt, fig):
    """The figure as base64 PNG (closed afterwards: a long sweep makes many)."""
    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png", dpi=90)
    plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def plot_rate(p):
    fig, axes = p.axes("Nodes decomposed per second")
    drawn = p.draw_sources(axes[0], lambda runs: series(runs, "nodes_per_second"), "nodes/s",
                           "tab:blue")
    axes[0].set_ylabel("nodes / s")
    axes[0].set_ylim(bottom=0)
    return p.finish(fig, axes, drawn)


def run_share(runs):
    """run_remaining where a log scale can draw it (0 at the end is off the scale)."""
    return [[(t, y) for t, y in pts if y > 0]
            for pts in series(runs, "run_remaining", ("progress", "end"), at_start=1.0)]


def plot_remaining(p):
    """run_remaining (share of the run's own starting work, so 1 again after a restart) on
    a log scale, and the remaining share of all n! schedules as its log10 (it may be far
    below what a float holds, so it is drawn as the exponent)."""
    fig, (top, bottom) = p.axes("Remaining work", rows=2)
    drawn = p.draw_sources(top, run_share, "run_remaining (share of the run's start)",
                           "tab:green")
    if drawn:
        top.set_yscale("log")
    top.set_ylabel("share of run's work")
    drawn |= p.draw_sources(bottom, lambda runs: series(runs, "space_remaining_log10", EVENTS),
                            "log10 of the remaining share of n! schedules", "tab:purple")
    bottom.set_ylabel("log10 share of n!")
    return p.finish(fig, [top, bottom], drawn)


def plot_incumbent(p):
    fig, axes = p.axes("Incumbent (best makespan)")
    drawn = p.draw_sources(axes[0], lambda runs: series(runs, "best", ("progress", "end")),
                           "best", "tab:red", step=True)
    for k, (name, runs, _) in enumerate(p.sources):
        initial = first_start_field(runs, "initial_ub")
        if isinstance(initial, (int, float)) and not isinstance(initial, bool):
            color, label = p.style(k, name, "tab:orange", f"initial upper bound {initial}")
            axes[0].axhline(initial, color=color, linestyle="--", linewidth=1, label=label)
            drawn = True
    axes[0].set_ylabel("makespan")
    return p.finish(fig, axes, drawn)


def plot_workers(p):
    fig, axes = p.axes("Workers and coordinator")
    ax = axes[0]
    drawn = p.draw_sources(ax, lambda runs: series(runs, "active"), "busy workers", "tab:blue",
                           step=True)
    drawn |= p.draw_sources(ax, lambda runs: series(runs, "idle_workers"), "idle workers",
                            "tab:grey", step=True, dashes="--")
    ax.set_ylabel("workers")
    ax.set_ylim(bottom=0)
    load = ax.twinx()
    if p.draw_sources(load, lambda runs: series(runs, "coordinator_busy"), "coordinator busy",
                      "tab:red", dashes=":"):
        drawn = True
        load.legend(loc="lower right", fontsize=8)
    load.set_ylim(0, 1.05)
    load.set_ylabel("coordinator busy (share)")
    return p.finish(fig, axes, drawn)


def progress_plots(plt, sources):
    """The plots of searches over time: (caption, base64 PNG) pairs. `sources`: (name, runs,
    markers) per PATH, placed on their own time axes; one named None for one PATH's page."""
    p = Plotter(plt, sources)
    p.set_time_span(max(timeline_end(runs) for _, runs, _ in sources))
    plots = [("Nodes per second over the wall time of all runs", plot_rate(p)),
             ("Remaining work: share of each run's starting work (log scale) and of all n! "
              "schedules (log10)", plot_remaining(p)),
             ("Best makespan found so far", plot_incumbent(p))]
    if any(is_mpi(runs) for _, runs, _ in sources):
        plots.append(("Busy and idle workers, coordinator load", plot_workers(p)))
    return plots


def run_markers(runs, style="run"):
    """A vertical line at each run's start but the very first (at time 0, or a restart)."""
    return [(run.offset, run.label, style) for i, run in enumerate(runs)
            if i > 0 or run.restart > 0 or run.offset > 0]


STEP_COLORS = {"optimal": "tab:green", "no-better-than-ub": "tab:blue", "running": "tab:orange"}


def plot_sweep_steps(plt, steps):
    """Nodes of each upper-bound step, coloured by what it proved."""
    fig, ax = plt.subplots(figsize=(9, 3.4))
    ubs = [step.get("ub") for step in steps]
    nodes = [number(step, "nodes_decomposed") or 0 for step in steps]
    colors = [STEP_COLORS.get(step.get("status"), "tab:red") for step in steps]
    positions = range(len(steps))
    ax.bar(positions, nodes, color=colors)
    for i, step in enumerate(steps):
        label = step.get("proves") or step.get("status") or step.get("chain") or "?"
        ax.text(i, nodes[i], f" {label}", rotation=90, ha="center", va="bottom", fontsize=8)
    ax.set_xticks(list(positions), [f"--ub {u}" for u in ubs])
    # A log scale only where the steps differ by orders of magnitude: bars of a narrow
    # log range would not start from zero and mislead.
    if nodes and min(nodes) > 0 and max(nodes) > 100 * min(nodes):
        ax.set_yscale("log")
    else:
        ax.set_ylim(bottom=0)
    ax.set_ylabel("nodes decomposed")
    ax.set_title("Upper-bound sweep: the steps and what each proved")
    ax.margins(y=0.35)
    return png(plt, fig)


# ---------------------------------------------------------------------------------------
# The page.

STYLE = """body{font-family:sans-serif;margin:1.5em;max-width:70em;color:#222}
table{border-collapse:collapse;margin:0.5em 0 1.5em}td,th{border:1px solid #ccc;
padding:0.2em 0.6em;text-align:left;font-size:0.9em;vertical-align:top}th{background:#eee}
figure{margin:1em 0}img{max-width:100%}figcaption{font-size:0.9em;color:#555}
.note{color:#8a5a00}"""


def cell(value):
    if value is None:
        return "—"
    return html.escape(str(value))


def key_value_table(rows):
    body = "".join(f"<tr><th>{cell(k)}</th><td>{cell(v)}</td></tr>" for k, v in rows)
    return f"<table>{body}</table>"


def grid_table(columns, rows):
    head = "".join(f"<th>{cell(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{cell(v)}</td>" for v in row) + "</tr>"
                   for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def figures(plots):
    return "".join(f'<figure><img alt="{html.escape(caption)}" '
                   f'src="data:image/png;base64,{data}"><figcaption>{html.escape(caption)}'
                   f"</figcaption></figure>" for caption, data in plots)


def notes_html(notes):
    if not notes:
        return ""
    items = "".join(f"<li>{html.escape(n)}</li>" for n in notes)
    return f'<h2>Notes</h2><ul class="note">{items}</ul>'


def page(title, source, sections):
    made = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>"
            f"<h1>{html.escape(title)}</h1><p>{html.escape(source)}; page made {made}</p>"
            + "".join(sections) + "</body></html>\n")


# ---------------------------------------------------------------------------------------
# One page per kind of PATH.

def report_log(plt, path):
    runs, notes = read_progress_log(path)
    instance = first_start_field(runs, "instance")
    sections = [key_value_table(log_summary(runs)), notes_html(notes), "<h2>Progress</h2>",
                figures(progress_plots(plt, [(None, runs, run_markers(runs))]))]
    return page(f"permbb report: {instance}", f"progress log {path}", sections)


def report_chain(plt, folder):
    c = Chain(folder)
    instance = c.chain.get("instance") or first_start_field(c.runs, "instance")
    sections = [key_value_table(chain_summary(c)), "<h2>Links</h2>",
                grid_table(LINK_COLUMNS, link_rows(c.links)), notes_html(c.notes)]
    if c.runs:
        markers = run_markers(c.runs, style="link")
        sections += ["<h2>Progress</h2>",
                     figures(progress_plots(plt, [(None, c.runs, markers)]))]
    return page(f"permbb report: {instance} (restart chain)", f"run folder {folder}", sections)


def sweep_timeline(sweep):
    """The steps' runs one after another on one time axis, each step's start marked."""
    runs, markers, end = [], [], 0.0
    for step, chain in sweep.chains:
        if not chain.runs:
            continue
        begin = end
        end = place_runs(chain.runs, base=begin)
        markers.append((begin, f"--ub {step.get('ub')}", "step"))
        markers += [m for m in run_markers(chain.runs, style="run") if m[0] > begin]
        runs += chain.runs
    return runs, markers


def report_sweep(plt, folder):
    s = Sweep(folder)
    sections = [key_value_table(sweep_summary(s)), "<h2>Steps</h2>"]
    if s.steps:
        sections.append(figures([("Each upper-bound step: nodes decomposed, and what it "
                                  "proved", plot_sweep_steps(plt, s.steps))]))
    sections += [grid_table(STEP_COLUMNS, step_rows(s.steps)), notes_html(s.notes)]
    runs, markers = sweep_timeline(s)
    if runs:
        sections += ["<h2>Progress of the steps, one after another</h2>",
                     figures(progress_plots(plt, [(None, runs, markers)]))]
    return page(f"permbb report: {s.state.get('instance')} (upper-bound sweep)",
                f"sweep folder {folder}", sections)


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


# ---------------------------------------------------------------------------------------
# Several PATHs: one page comparing them.

# One PATH of a comparison: its summary rows (label, value), its runs placed from time 0,
# the markers of its restarts, links or steps, and its notes.
Source = collections.namedtuple("Source", "kind summary runs markers notes")


def load_source(path):
    kind = path_kind(path)
    if kind == "sweep":
        s = Sweep(path)
        return Source("sweep folder", sweep_summary(s), *sweep_timeline(s), s.notes)
    if kind == "chain":
        c = Chain(path)
        return Source("run folder", chain_summary(c), c.runs, run_markers(c.runs, "link"),
                      c.notes)
    runs, notes = read_progress_log(path)
    return Source("progress log", log_summary(runs), runs, run_markers(runs), notes)


def source_names(paths):
    """Each PATH's file or folder name, for the legend; the whole PATH where names repeat
    (the progress.jsonl of two chains)."""
    names = [os.path.basename(os.path.normpath(path)) for path in paths]
    return [name if names.count(name) == 1 else path for name, path in zip(names, paths)]


COMPARED_COLUMNS = ("instance", "outcome", "best makespan", "nodes", "seconds")


def summary_field(rows, column):
    """A column of the comparison from the summary of any kind of PATH, whose labels say
    what they sum over: "nodes (all links)", "wall seconds (all runs)"."""
    for label, value in rows:
        if re.sub(r"^wall | \(all \w+\)$", "", label) == column:
            return value
    return None


def comparison_row(name, path, source):
    return [name, source.kind, path] + [summary_field(source.summary, column)
                                        for column in COMPARED_COLUMNS] + [len(source.runs)]


def report_comparison(plt, paths):
    loaded = [load_source(path) for path in paths]  # every PATH read before any drawing
    names = source_names(paths)
    rows = [comparison_row(*row) for row in zip(names, paths, loaded)]
    sections = [grid_table(("name", "kind", "path") + COMPARED_COLUMNS + ("runs",), rows),
                notes_html([note for source in loaded for note in source.notes])]
    # Every PATH keeps its place (and so its colour), even one without runs to draw.
    sources = [(name, s.runs, s.markers) for name, s in zip(names, loaded)]
    if any(s.runs for s in loaded):
        sections += ["<h2>Progress, each PATH from time 0</h2>",
                     figures(progress_plots(plt, sources))]
    return page(f"permbb report: {len(paths)} runs compared", "compared: " + ", ".join(paths),
                sections)


REPORTS = {"log": report_log, "chain": report_chain, "sweep": report_sweep}


def build_report(plt, paths):
    if len(paths) == 1:
        return REPORTS[path_kind(paths[0])](plt, paths[0])
    return report_comparison(plt, paths)


def check_output(output):
    """Before the work: the output's folder must exist, and the output be no folder."""
    folder = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(folder):
        fail(output, "cannot write the report (no such folder)")
    if os.path.isdir(output):
        fail(output, "cannot write the report (a folder)")


def write_output(output, content):
    try:
        with open(output, "w", encoding="utf-8") as f:
            f.write(content)
    except OSError as e:
        fail(output, f"cannot write the report ({e.strerror})")


class Parser(argparse.ArgumentParser):
    def error(self, message):
        # One line like every other error, not argparse's usage block.
        raise ReportError(f"{message} (see --help)")


def parse_args(argv):
    p = Parser(prog="permbb report", description=__doc__,
               formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", metavar="PATH", nargs="+",
                   help="progress log (JSON Lines), run folder (chain.json) or sweep folder "
                        "(sweep.json); several: a page comparing them")
    p.add_argument("-o", "--output", metavar="FILE", default="report.html",
                   help="the HTML page to write (default: report.html)")
    p.add_argument("--images", metavar="DIR",
                   help="also write the page's plots as PNG files into DIR (created), "
                        "plot-1.png, plot-2.png, ... in the page's order")
    return p.parse_args(argv)


IMAGE_PATTERN = re.compile(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"')


def write_images(content, folder):
    """The page's plots, decoded from the page itself, as folder/plot-K.png."""
    try:
        os.makedirs(folder, exist_ok=True)
        for k, data in enumerate(IMAGE_PATTERN.findall(content), start=1):
            with open(os.path.join(folder, f"plot-{k}.png"), "wb") as f:
                f.write(base64.b64decode(data))
    except OSError as e:
        fail(folder, f"cannot write the images ({e.strerror})")


def main(argv):
    try:
        args = parse_args(argv)
        check_output(args.output)
        plt = load_pyplot()
        content = build_report(plt, args.paths)
        write_output(args.output, content)
        if args.images:
            write_images(content, args.images)
    except ReportError as e:
        print(f"permbb: error: {e}", file=sys.stderr)
        return 2
    print(f"permbb: report written to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
