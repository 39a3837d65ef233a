"""The HTML page of `permbb report`: one self-contained page (its plots embedded as PNG
images) for one PATH of each kind (a progress log, a run folder, a sweep folder), or one
comparing several PATHs; summary tables, the plots (report_plots), the notes on the input.
"""
import collections
import datetime
import html
import os
import re

from report_inputs import (LINK_COLUMNS, STEP_COLUMNS, Chain, Sweep, chain_summary,
                           first_start_field, link_rows, log_summary, path_kind,
                           read_progress_log, run_markers, step_rows, sweep_summary,
                           sweep_timeline)
from report_plots import plot_sweep_steps, progress_plots

# ---------------------------------------------------------------------------------------
# Pieces of the page.

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
# What is drawn and tabled: a search (most PATHs hold one; a log may hold several).

# One search of a PATH: its name in legends and tables, the PATH's kind, the PATH, its
# summary rows (label, value), its runs placed from time 0 and the markers of its restarts,
# links or steps.
Source = collections.namedtuple("Source", "name kind path summary runs markers")


def search_names(name, searches):
    """The PATH's name for its one search; numbered, with its instance, for several."""
    if len(searches) == 1:
        return [name]
    return [f"{name} (search {k}: {first_start_field(runs, 'instance')})"
            for k, runs in enumerate(searches, 1)]


def search_sources(name, kind, path, searches, summaries, style):
    return [Source(n, kind, path, summary, runs, run_markers(runs, style))
            for n, summary, runs in zip(search_names(name, searches), summaries, searches)]


def chain_sources(c, name, path):
    """The chain's own account (chain_summary) is of its last search; an earlier one left in
    its log is summed up by the log alone."""
    summaries = [log_summary(runs) for runs in c.searches[:-1]] + [chain_summary(c)]
    return search_sources(name, "run folder", path, c.searches, summaries, "link")


def load_path(path, name):
    """The searches of PATH as Sources named after `name`, and its notes."""
    kind = path_kind(path)
    if kind == "sweep":
        s = Sweep(path)
        return [Source(name, "sweep folder", path, sweep_summary(s), *sweep_timeline(s))], \
            s.notes
    if kind == "chain":
        c = Chain(path)
        return chain_sources(c, name, path), c.notes
    searches, notes = read_progress_log(path)
    return search_sources(name, "progress log", path, searches,
                          [log_summary(runs) for runs in searches], "run"), notes


def drawn(sources):
    """(name, runs, markers) of each source for the plots: a page's only source is unnamed
    (its lines in the plots' own colours), several are named, each in its own colour."""
    if len(sources) == 1:
        return [(None, sources[0].runs, sources[0].markers)]
    return [(s.name, s.runs, s.markers) for s in sources]


# ---------------------------------------------------------------------------------------
# One page per kind of PATH.

def report_log(plt, path):
    sources, notes = load_path(path, os.path.basename(path))
    if len(sources) > 1:
        return comparison_page(plt, f"permbb report: {len(sources)} searches in one log",
                               f"progress log {path}", sources, notes, each="search")
    instance = first_start_field(sources[0].runs, "instance")
    sections = [key_value_table(sources[0].summary), notes_html(notes), "<h2>Progress</h2>",
                figures(progress_plots(plt, drawn(sources)))]
    return page(f"permbb report: {instance}", f"progress log {path}", sections)


def report_chain(plt, folder):
    c = Chain(folder)
    instance = c.chain.get("instance") or first_start_field(c.runs, "instance")
    sections = [key_value_table(chain_summary(c)), "<h2>Links</h2>",
                grid_table(LINK_COLUMNS, link_rows(c.links)), notes_html(c.notes)]
    sources = chain_sources(c, os.path.basename(c.log), c.log)
    if any(s.runs for s in sources):
        sections += ["<h2>Progress</h2>", figures(progress_plots(plt, drawn(sources)))]
    return page(f"permbb report: {instance} (restart chain)", f"run folder {folder}", sections)


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


# ---------------------------------------------------------------------------------------
# Several PATHs, or several searches in one log: one page comparing them.

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


def comparison_row(source):
    return [source.name, source.kind, source.path] + [
        summary_field(source.summary, column) for column in COMPARED_COLUMNS] + [
        len(source.runs)]


def comparison_page(plt, title, origin, sources, notes, each):
    """A summary row and a line on each plot per source; `each`: what a source is."""
    sections = [grid_table(("name", "kind", "path") + COMPARED_COLUMNS + ("runs",),
                           [comparison_row(source) for source in sources]),
                notes_html(notes)]
    # Every source keeps its place (and so its colour), even one without runs to draw.
    if any(s.runs for s in sources):
        sections += [f"<h2>Progress, each {each} from time 0</h2>",
                     figures(progress_plots(plt, drawn(sources)))]
    return page(title, origin, sections)


def report_comparison(plt, paths):
    # Every PATH read before any drawing: a bad one is refused at once.
    loaded = [load_path(path, name) for path, name in zip(paths, source_names(paths))]
    return comparison_page(plt, f"permbb report: {len(paths)} runs compared",
                           "compared: " + ", ".join(paths),
                           [source for sources, _ in loaded for source in sources],
                           [note for _, notes in loaded for note in notes], each="PATH")


REPORTS = {"log": report_log, "chain": report_chain, "sweep": report_sweep}


def build_report(plt, paths):
    if len(paths) == 1:
        return REPORTS[path_kind(paths[0])](plt, paths[0])
    return report_comparison(plt, paths)
