"""The plots of `permbb report` (matplotlib, Agg: no display), each a base64 PNG for the page:
the progress of searches over the wall time (nodes per second, remaining work, the incumbent,
under MPI the workers), restarts, links and sweep steps marked, and a sweep's steps as bars.
The functions take matplotlib.pyplot as `plt` (agg_pyplot): the command line imports
matplotlib only once it has found an interpreter that has it.
"""
import base64
import io

from report_inputs import EVENTS, first_start_field, is_mpi, number, series, timeline_end


def agg_pyplot(matplotlib):
    """The pyplot of the imported `matplotlib` module, drawing without a display."""
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

