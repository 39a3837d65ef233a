#!/usr/bin/env python3
"""P||Cmax PTAS benchmark: the configuration DP on all CPU cores (OpenMP) against the GPU, per
DP table and per whole bisection, beside Li et al.'s Table VII.

Instances are generated (`uniform,n,m,1,100,seed` with n = 3m or near: few jobs per machine,
so most jobs are long and the tables are large), at epsilon = 0.3 (as in the paper) and 0.2.
For each instance it runs

  cpu:  permbb pcmax --no-gpu --threads N --split 2   (plain bisection: the paper's OpenMP)
  gpu:  permbb pcmax --gpu --split 4                  (quarter split: the paper's GPU PTAS)
  auto: permbb pcmax                                  (the default: the engine it picks)

and reads the per-table times from the JSON (`dp.per_table`). The quarter split evaluates
every target of the plain bisection's path (and more), so each CPU table has a GPU twin with
the same target, compared side by side. With --baseline-bin OLD, OLD's GPU runs go beside
(before/after in one run). Without a GPU (or with --cpu-only) only the CPU runs.

Sets: quick (largest tables 10^4 to 4 x 10^6), large (10^7 to 1.4 x 10^9 entries; needs
about 10 GiB of host memory and minutes of CPU time per instance), full (both).

Usage: bench/pcmax.py [--bin build/permbb] [--baseline-bin OLD] [--threads N]
                      [--set quick|large|full] [--cpu-only] [--timeout S]
                      [--out results.md] [--json results.json]

With --quality it measures the schedules instead (docs/pcmax.md, "Quality"): the literature's
uniform classes [1,100], [20,100], [50,100], [1,1000], [1,10000] (Franca, Gendreau, Laporte &
Mueller 1994; Dell'Amico & Martello 1995), m in --machines and n/m in --ratios, --seeds
instances each. Per instance: `--exact --time-limit S` (which also reports LPT's and
MULTIFIT's makespans, as built, and the lower bounds), and, on the first --ptas-seeds seeds,
the PTAS at epsilon 0.3 and 0.1 with the same time limit. Gaps are to the best lower bound
any of the runs proved.

      bench/pcmax.py --quality [--seeds 3] [--ptas-seeds 1] [--machines 5,10,20]
                     [--ratios 2,2.5,3,5,10] [--time-limit 10] [--out q.md] [--json q.json]
"""
import argparse
import contextlib
import io
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_common import table_header, table_row  # noqa: E402

# Li et al., Table VII: DP-table size, GPU iterations and runtime, OpenMP iterations and
# runtime (milliseconds; K40 GPU, 2 x 14-core Xeon E5-2697v3 for OpenMP).
PAPER_TABLE_VII = [
    (12960, 8, 13183, 13, 11160),
    (20736, 4, 13031, 6, 13072),
    (27360, 1, 4559, 3, 15238),
    (30240, 3, 11139, 5, 34098),
    (403200, 3, 300881, 5, 9654220),
]

# (generator spec, epsilon); the largest table each gives is in the comment (entries).
QUICK = [
    ("uniform,30,10,1,100,1", 0.3),   # 1.8e4
    ("uniform,39,13,1,100,1", 0.3),   # 3.6e4
    ("uniform,48,16,1,100,1", 0.3),   # 1.3e5
    ("uniform,60,20,1,100,1", 0.3),   # 7.5e5
    ("uniform,30,10,1,100,1", 0.2),   # 2.3e5
    ("uniform,75,25,1,100,1", 0.3),   # 3.1e6
    ("uniform,72,24,1,100,2", 0.3),   # 3.7e6
    ("uniform,45,15,1,100,1", 0.2),   # 4.7e6
]
LARGE = [
    ("uniform,90,30,1,100,1", 0.3),   # 1e7
    ("uniform,60,20,1,100,1", 0.2),   # 8.1e7
    ("uniform,100,40,1,100,1", 0.3),  # 3.4e8
    ("uniform,69,23,1,100,1", 0.2),   # 7e8
    ("uniform,120,48,1,100,1", 0.3),  # 1.4e9
]
SETS = {"quick": QUICK, "large": LARGE, "full": QUICK + LARGE}


def run_pcmax(binary, spec, epsilon, options, timeout):
    cmd = [binary, "pcmax", "--generate", spec, "--epsilon", str(epsilon), *options,
           "--json", "-", "--quiet"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        print(f"timed out after {timeout} s: {' '.join(cmd)}", file=sys.stderr)
        return None
    if proc.returncode != 0:
        print(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.strip()}", file=sys.stderr)
        return None
    return json.loads(proc.stdout)


def gpu_available(binary):
    proc = subprocess.run([binary, "pcmax", "--generate", "uniform,4,2,1,9,1", "--epsilon", "0.5",
                           "--gpu", "--quiet"], capture_output=True, text=True, timeout=300)
    return proc.returncode == 0


def tables_by_target(result):
    return {t["target"]: t for t in result["dp"]["per_table"] if t["entries"] > 0}


def seconds(value):
    return "-" if value is None else f"{value:.3f}"


def ratio(cpu, gpu):
    return "-" if cpu is None or gpu is None or gpu <= 0 else f"{cpu / gpu:.1f}"


class Report:
    """Markdown lines, printed as they come (bench_common) and kept for the result file."""

    def __init__(self):
        self.lines = []

    def emit(self, function, *args):
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            function(*args)
        text = buffer.getvalue()
        print(text, end="", flush=True)
        self.lines.append(text)

    def text(self, line=""):
        self.emit(print, line)


def per_table_section(report, raw):
    report.text("## Per DP table (same target T on both)")
    report.text()
    report.emit(table_header, ["instance", "epsilon", "T", "entries", "classes",
                               "configurations", "CPU s", "GPU s", "CPU/GPU", "GPU before s"])
    for entry in raw:
        cpu = entry["cpu"]
        if cpu is None:
            continue
        gpu_tables = tables_by_target(entry["gpu"]) if entry["gpu"] else {}
        before_tables = tables_by_target(entry.get("before")) if entry.get("before") else {}
        for target, table in sorted(tables_by_target(cpu).items(), key=lambda kv: kv[1]["entries"]):
            twin = gpu_tables.get(target, {}).get("seconds")
            before = before_tables.get(target, {}).get("seconds")
            report.emit(table_row, [entry["instance"], entry["epsilon"], target, table["entries"],
                                    table["classes"], table["configurations"],
                                    seconds(table["seconds"]), seconds(twin),
                                    ratio(table["seconds"], twin), seconds(before)])


def whole_run_section(report, raw):
    report.text("## Whole bisection (DP seconds summed over the tables; wall seconds)")
    report.text()
    report.text("`auto` is the default engine (no --gpu/--no-gpu): the one it picked, its wall "
                "seconds, and whether that was the faster of the two.")
    report.text()
    report.emit(table_header, ["instance", "epsilon", "largest table", "CPU rounds", "CPU DP s",
                               "CPU s", "GPU rounds", "GPU DP s", "GPU s", "CPU/GPU (wall)",
                               "GPU before s", "auto", "auto s", "auto picked the faster"])
    for entry in raw:
        cpu, g, before, auto = entry["cpu"], entry["gpu"], entry.get("before"), entry.get("auto")
        if cpu is None:
            continue
        g = g or {"dp": {}}
        faster = "-"
        if auto is not None and g.get("seconds") is not None:
            faster = "yes" if (auto["engine"] == "gpu") == (g["seconds"] < cpu["seconds"]) else "no"
        report.emit(table_row, [entry["instance"], entry["epsilon"], cpu["dp"]["largest_table"],
                                cpu["dp"]["bisection_rounds"], seconds(cpu["dp"]["seconds"]),
                                seconds(cpu["seconds"]), g["dp"].get("bisection_rounds", "-"),
                                seconds(g["dp"].get("seconds")), seconds(g.get("seconds")),
                                ratio(cpu["seconds"], g.get("seconds")),
                                seconds(before["seconds"]) if before else "-",
                                auto["engine"] if auto else "-",
                                seconds(auto["seconds"]) if auto else "-", faster])


def paper_section(report, raw):
    report.text("## Li et al. Table VII beside the run whose largest table is nearest in size")
    report.text()
    report.text("Their runtimes are whole bisections (ms); so are ours. Their OpenMP locates every "
                "v - s by searching the table (Algorithm 2 line 18); here v - s is index(v) - "
                "offset(s), on the CPU and the GPU alike.")
    report.text()
    report.emit(table_header, ["paper size", "paper GPU itr", "paper GPU ms", "paper OpenMP itr",
                               "paper OpenMP ms", "our largest", "our CPU itr", "our CPU ms",
                               "our GPU itr", "our GPU ms"])
    runs = [e for e in raw if e["cpu"] is not None]
    for size, gpu_itr, gpu_ms, omp_itr, omp_ms in PAPER_TABLE_VII:
        if not runs:
            break
        near = min(runs, key=lambda e: abs(e["cpu"]["dp"]["largest_table"] - size))
        cpu, g = near["cpu"], near["gpu"]
        report.emit(table_row, [size, gpu_itr, gpu_ms, omp_itr, omp_ms,
                                cpu["dp"]["largest_table"], cpu["dp"]["bisection_rounds"],
                                f"{cpu['seconds'] * 1000:.1f}",
                                g["dp"]["bisection_rounds"] if g else "-",
                                f"{g['seconds'] * 1000:.1f}" if g else "-"])


QUALITY_CLASSES = [(1, 100), (20, 100), (50, 100), (1, 1000), (1, 10000)]


def quality_run(binary, spec, options, timeout):
    """One `permbb pcmax` run single-threaded on the CPU: its JSON, or a note why none."""
    cmd = [binary, "pcmax", "--generate", spec, "--no-gpu", "--threads", "1", *options,
           "--json", "-", "--quiet"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"failed": "timeout"}
    if proc.returncode not in (0, 3):
        return {"failed": proc.stderr.strip().splitlines()[-1][:80]}
    return json.loads(proc.stdout)


def quality_instances(args):
    for lo, hi in QUALITY_CLASSES:
        for ratio_text in args.ratios.split(","):
            for m in map(int, args.machines.split(",")):
                n = round(float(ratio_text) * m)
                for seed in range(1, args.seeds + 1):
                    yield {"class": f"[{lo},{hi}]", "ratio": ratio_text, "seed": seed,
                           "spec": f"uniform,{n},{m},{lo},{hi},{seed}"}


def run_quality(args):
    raw = []
    limit = ["--time-limit", str(args.time_limit)]
    for entry in quality_instances(args):
        entry["exact"] = quality_run(args.bin, entry["spec"], ["--exact", *limit], args.timeout)
        if entry["seed"] <= args.ptas_seeds:
            for epsilon in ["0.3", "0.1"]:
                entry["ptas " + epsilon] = quality_run(args.bin, entry["spec"],
                                                       ["--epsilon", epsilon, *limit], args.timeout)
        raw.append(entry)
        with open(args.json, "w") as f:
            json.dump(raw, f, indent=1)
        print(f"{entry['spec']}: done", file=sys.stderr, flush=True)
    return raw


def quality_values(entry):
    """Makespans and seconds per column, and the best lower bound of the instance."""
    runs = {k: v for k, v in entry.items() if isinstance(v, dict) and "failed" not in v}
    lower = max(r["best_lower_bound"] for r in runs.values()) if runs else None
    values = {}
    exact = runs.get("exact")
    if exact:
        for c in exact["candidates"]:
            if c["name"] in ("lpt", "multifit"):
                values[c["name"]] = (c["makespan"], c["seconds"], True)
        values["exact"] = (exact["makespan"], exact["seconds"], exact["optimal"])
    for name in ["ptas 0.3", "ptas 0.1"]:
        if name in runs:
            r = runs[name]
            values[name] = (r["makespan"], r["seconds"], r["status"] == "complete")
    return lower, values


QUALITY_COLUMNS = ["lpt", "multifit", "ptas 0.3", "ptas 0.1", "exact"]


def quality_row(label, entries):
    cells = [label, len(entries)]
    for column in QUALITY_COLUMNS:
        gaps, times, done = [], [], 0
        for entry in entries:
            lower, values = quality_values(entry)
            if column in values:
                makespan, secs, complete = values[column]
                gaps.append(100.0 * (makespan - lower) / lower)
                times.append(secs)
                done += complete
        if not gaps:
            cells += ["-", "-"]
            continue
        mean_gap = sum(gaps) / len(gaps)
        note = f" ({done}/{len(gaps)})" if column != "lpt" and column != "multifit" else ""
        cells += [f"{mean_gap:.2f}{note}", f"{sum(times) / len(times):.3f} / {max(times):.2f}"]
    return cells


def quality_goals(report, raw):
    worse = {name: 0 for name in ["ptas 0.3", "ptas 0.1", "exact"]}
    compared = {name: 0 for name in worse}
    not_monotone, both = 0, 0
    lpt_gaps, ptas_gaps = [], []
    proven = sum(1 for e in raw if e["exact"].get("optimal"))
    for entry in raw:
        lower, values = quality_values(entry)
        best_heuristic = min(values[h][0] for h in ["lpt", "multifit"] if h in values)
        for name in worse:
            if name in values:
                compared[name] += 1
                worse[name] += values[name][0] > best_heuristic
        if "ptas 0.3" in values:
            lpt_gaps.append(100.0 * (values["lpt"][0] - lower) / lower)
            ptas_gaps.append(100.0 * (values["ptas 0.3"][0] - lower) / lower)
        if "ptas 0.3" in values and "ptas 0.1" in values:
            both += 1
            not_monotone += values["ptas 0.1"][0] > values["ptas 0.3"][0]
    for name in worse:
        report.text(f"- {name}: worse than LPT or MULTIFIT on {worse[name]} of "
                    f"{compared[name]} instances")
    if lpt_gaps:
        report.text(f"- mean gap at epsilon 0.3: {sum(ptas_gaps) / len(ptas_gaps):.3f} % against "
                    f"LPT's {sum(lpt_gaps) / len(lpt_gaps):.3f} % on the same {len(lpt_gaps)} "
                    "instances")
    report.text(f"- epsilon 0.1 longer than epsilon 0.3 on {not_monotone} of {both} instances")
    within = sum(1 for e in raw if e["exact"].get("optimal") and e["exact"]["seconds"] <= 10)
    report.text(f"- --exact proved the optimum on {proven} of {len(raw)} instances "
                f"({100.0 * proven / max(1, len(raw)):.1f} %), {within} of them within 10 s")
    for name in ["exact", "ptas 0.3", "ptas 0.1"]:
        failed = [e[name]["failed"] for e in raw if name in e and "failed" in e[name]]
        if failed:
            report.text(f"- {name}: no result on {len(failed)} instances ({failed[0]}, ...)")
    unproven = [e for e in raw if not e["exact"].get("optimal")]
    if unproven:
        report.text("- left incomplete by --exact (OPT in [lower, upper]): " + ", ".join(
            f"`{e['spec']}` [{e['exact']['best_lower_bound']}, {e['exact']['makespan']}]"
            for e in unproven if "failed" not in e["exact"]))


def write_quality_report(raw, out):
    report = Report()
    report.text("# P||Cmax schedules: gap to the best lower bound (%), seconds (mean / max)")
    report.text()
    report.text("Cells: mean gap % (complete runs / runs) and seconds. LPT and MULTIFIT as "
                "built (before the local search); PTAS and exact: the schedule returned.")
    report.text()
    header = ["instances"]
    for column in QUALITY_COLUMNS:
        header += [f"{column} gap", f"{column} s"]
    for key, title in [("class", "class"), ("ratio", "n/m")]:
        report.emit(table_header, [title] + header)
        for label in dict.fromkeys(e[key] for e in raw):
            report.emit(table_row, quality_row(label, [e for e in raw if e[key] == label]))
        report.text()
    report.emit(table_row, quality_row("all", raw))
    report.text()
    quality_goals(report, raw)
    with open(out, "w") as f:
        f.write("".join(report.lines))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default="build/permbb")
    parser.add_argument("--baseline-bin", default=None, help="an older permbb: its GPU runs too")
    parser.add_argument("--threads", type=int, default=0, help="CPU threads (0: all)")
    parser.add_argument("--set", choices=sorted(SETS), default=None,
                        help="instances (default: full with a GPU, quick without)")
    parser.add_argument("--cpu-only", action="store_true")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per run")
    parser.add_argument("--out", default="pcmax_bench.md", help="Markdown result file")
    parser.add_argument("--json", default="pcmax_bench.json",
                        help="raw results, rewritten after each instance")
    parser.add_argument("--render", default=None, metavar="JSON",
                        help="run nothing: the tables from an earlier run's --json")
    parser.add_argument("--quality", action="store_true",
                        help="measure the schedules on the literature's classes (above)")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--ptas-seeds", type=int, default=1)
    parser.add_argument("--machines", default="5,10,20")
    parser.add_argument("--ratios", default="2,2.5,3,5,10")
    parser.add_argument("--time-limit", type=float, default=10)
    args = parser.parse_args()

    if args.quality:
        raw = json.load(open(args.render)) if args.render else run_quality(args)
        write_quality_report(raw, args.out)
        return
    if args.render:
        with open(args.render) as f:
            write_report(json.load(f), args.threads, True, args.out)
        return
    gpu = not args.cpu_only and gpu_available(args.bin)
    cases = SETS[args.set or ("full" if gpu else "quick")]
    cpu_options = ["--no-gpu", "--split", "2", "--threads", str(args.threads)]
    gpu_options = ["--gpu", "--split", "4"]
    raw = []
    for spec, epsilon in cases:
        entry = {"instance": spec, "epsilon": epsilon,
                 "cpu": run_pcmax(args.bin, spec, epsilon, cpu_options, args.timeout),
                 "gpu": None, "before": None, "auto": None}
        if gpu:
            entry["gpu"] = run_pcmax(args.bin, spec, epsilon, gpu_options, args.timeout)
            entry["auto"] = run_pcmax(args.bin, spec, epsilon, [], args.timeout)
            if args.baseline_bin:
                entry["before"] = run_pcmax(args.baseline_bin, spec, epsilon, gpu_options,
                                            args.timeout)
        raw.append(entry)
        with open(args.json, "w") as f:  # a run cut short keeps what it measured
            json.dump(raw, f, indent=1)
        print(f"{spec} eps {epsilon}: done", file=sys.stderr, flush=True)
    write_report(raw, args.threads, gpu, args.out)
    print(f"\nwrote {args.out} and {args.json}", file=sys.stderr)


def write_report(raw, threads, gpu, out):
    report = Report()
    report.text(f"# P||Cmax DP: CPU ({'all' if threads == 0 else threads} threads, "
                f"OpenMP, split 2) vs {'GPU (split 4)' if gpu else 'no GPU'}")
    report.text()
    per_table_section(report, raw)
    report.text()
    whole_run_section(report, raw)
    report.text()
    paper_section(report, raw)
    with open(out, "w") as f:
        f.write("".join(report.lines))


if __name__ == "__main__":
    main()
