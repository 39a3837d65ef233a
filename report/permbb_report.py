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

A log holding several searches (a fresh run appended to an old log) shows each apart, like
compared PATHs. --images DIR replaces the plot-K.png files an earlier report wrote in DIR
(listed in DIR/.permbb-report-images), and no others.

Bad input (a missing or unreadable PATH (any of them), a folder that is neither a chain nor
a sweep, a file that is not a progress log, an output that cannot be written or that is one
of the files read) is one line on stderr, "permbb: error: ...", and exit status 2.
"""
# This file is the command line; the work is done by the modules beside it (report/
# CMakeLists.txt copies them all next to the permbb executable): report_inputs.py reads the
# PATHs, report_plots.py draws, report_page.py writes the HTML. None of them imports
# matplotlib when loaded: load_pyplot first finds an interpreter that has it.
import argparse
import base64
import os
import re
import sys

from report_inputs import ReportError, fail, input_named, refuse_non_regular, remember_input
from report_page import build_report
from report_plots import agg_pyplot

# Debian's python3-matplotlib lives in the system interpreter's packages; `python3` on PATH
# may be another interpreter (pyenv, a virtual environment) that does not see them.
SYSTEM_PYTHON = "/usr/bin/python3"
REEXEC_MARK = "PERMBB_REPORT_SYSTEM_PYTHON"


def load_pyplot():
    """matplotlib.pyplot, from this interpreter or, once, from the system's python3 (which
    runs this script again with the same arguments)."""
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
    return agg_pyplot(matplotlib)


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
                        "plot-1.png, plot-2.png, ... in the page's order, replacing the "
                        "plot files an earlier report wrote there (and no other file)")
    return p.parse_args(argv)


# ---------------------------------------------------------------------------------------
# The outputs: the page, and with --images its plots as PNG files.

IMAGE_PATTERN = re.compile(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"')
# The plot files a report writes into --images DIR.
IMAGE_FILE = re.compile(r"plot-[0-9]+\.png")
# The list of the plot files the last report wrote into DIR, one name a line: only those are
# removed by the next one, never a file of the user's that happens to be named plot-9.png.
IMAGE_MANIFEST = ".permbb-report-images"


def image_path(folder, k):
    return os.path.join(folder, f"plot-{k}.png")


def owned_images(folder):
    """The plot files that an earlier report wrote into `folder`, as its manifest lists them
    (a stale plot-4.png beside a new page's three plots would pass for one of them)."""
    try:
        with open(os.path.join(folder, IMAGE_MANIFEST), encoding="utf-8") as f:
            names = f.read().split()
    except (OSError, UnicodeDecodeError):   # no folder or manifest yet: nothing of ours
        return []
    return [os.path.join(folder, n) for n in sorted(set(names))
            if IMAGE_FILE.fullmatch(n) and os.path.isfile(os.path.join(folder, n))]


def check_output(output):
    """Before the work: the output's folder must exist, and the output be a regular file or
    none yet (a folder takes no page; a FIFO or a device would block or swallow it)."""
    folder = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(folder):
        fail(output, "cannot write the report (no such folder)")
    if os.path.isdir(output):
        fail(output, "cannot write the report (a folder)")
    refuse_non_regular(output, "write the report")


def refuse_page_as_image_folder(args):
    """--images DIR may not name the -o page: the page would be written and the images then
    fail (or the page be taken for their folder). Checked before the work."""
    if args.images and os.path.realpath(args.images) == os.path.realpath(args.output):
        fail(f"--images {args.images}", f"the same path as the page -o {args.output}, which "
                                        "cannot also be the images' folder")


def outputs(args, plots=0):
    """What the report would write or remove: the page, and with --images the folder, the
    files of an earlier report there and the `plots` new ones."""
    out = [(f"-o {args.output}", args.output, "overwrite")]
    if args.images:
        folder = args.images
        out.append((f"--images {folder}", folder, "overwrite"))
        out += [(f"--images {path}", path, "remove") for path in owned_images(folder)]
        out += [(f"--images {image_path(folder, k)}", image_path(folder, k), "overwrite")
                for k in range(1, plots + 1)]
    return out


def refuse_inputs(planned):
    """No output may be a file the report reads (under any name, through any link): writing
    it would destroy the input. `planned`: (name in the error, path, what it would do)."""
    for name, path, verb in planned:
        source = input_named(path)
        if source is not None:
            fail(name, f"the same file as the input {source}, which it would {verb}")


def refuse_replacing_foreign_images(args, plots):
    """A plot-K.png that this report would write, already in DIR and not written by an
    earlier report (not in the manifest), is the user's: refused, not overwritten."""
    if not args.images:
        return
    ours = set(owned_images(args.images))
    for k in range(1, plots + 1):
        path = image_path(args.images, k)
        if os.path.lexists(path) and path not in ours:
            fail(f"--images {path}", "a file that no earlier report wrote there, which this one "
                                     "would overwrite; move it or choose another folder")


def check_outputs_first(args):
    """Before the (slow) work: the outputs against the PATHs that are files, and the page
    against the plot files (--images would remove or overwrite it)."""
    check_output(args.output)
    for path in args.paths:
        if os.path.isfile(path):
            remember_input(path)
    refuse_inputs(outputs(args))
    refuse_page_as_image_folder(args)
    if args.images and is_image_in(args.output, args.images):
        fail(f"-o {args.output}", f"a plot file of --images {args.images}, which would "
                                  f"overwrite or remove it")


def is_image_in(path, folder):
    return bool(IMAGE_FILE.fullmatch(os.path.basename(path))) and \
        os.path.realpath(os.path.dirname(os.path.abspath(path))) == os.path.realpath(folder)


def check_outputs_last(args, images):
    """Before anything is written: the outputs against every file the report has read (the
    logs and JSON files inside run and sweep folders too)."""
    refuse_inputs(outputs(args, len(images)))
    if args.images and os.path.exists(args.images) and not os.path.isdir(args.images):
        fail(args.images, "cannot write the images (not a folder)")
    refuse_replacing_foreign_images(args, len(images))


def write_output(output, content):
    try:
        with open(output, "w", encoding="utf-8") as f:
            f.write(content)
    except OSError as e:
        fail(output, f"cannot write the report ({e.strerror})")


def write_images(images, folder):
    """The page's plots (base64, as in the page) as folder/plot-K.png, after removing those
    the manifest says an earlier report wrote; the manifest then lists the new ones."""
    try:
        os.makedirs(folder, exist_ok=True)
        for path in owned_images(folder):
            os.remove(path)
        names = []
        for k, data in enumerate(images, start=1):
            with open(image_path(folder, k), "wb") as f:
                f.write(base64.b64decode(data))
            names.append(os.path.basename(image_path(folder, k)))
        with open(os.path.join(folder, IMAGE_MANIFEST), "w", encoding="utf-8") as f:
            f.write("".join(n + "\n" for n in names))
    except OSError as e:
        fail(folder, f"cannot write the images ({e.strerror})")


def main(argv):
    try:
        args = parse_args(argv)
        check_outputs_first(args)
        plt = load_pyplot()
        content = build_report(plt, args.paths)
        images = IMAGE_PATTERN.findall(content) if args.images else []
        check_outputs_last(args, images)
        write_output(args.output, content)
        if args.images:
            write_images(images, args.images)
    except ReportError as e:
        print(f"permbb: error: {e}", file=sys.stderr)
        return 2
    print(f"permbb: report written to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
