#!/usr/bin/env python3
"""Knapsack benchmark: the solvers of `permbb knapsack` side by side, on the setting of
Lalami & El Baz 2012 (§IV, Table I: strongly correlated instances, w uniform in [1, R],
p = w + R/10, R = 100, n = 100 ... 500, ten instances each, capacity half the total weight;
and uncorrelated ones) and on a sample of Jooken, Leyman & De Causmaecker's hard class (EJOR
2022; `--generate jooken,n,c,g,f,eps,s,seed`) drawn across its published grid.

Columns, per method (--methods): `core` (the expanding-core dynamic program on one CPU core,
--method core --no-gpu; `core-without-TECH` the same with `--without TECH`), `core-gpu` (the
same with its long lists merged on the GPU, --method core --gpu; left out with --no-gpu),
`cpu` (the branch-and-bound on the CPU, --method bb --no-gpu), `gpu` (the branch-and-bound
with CPU/GPU switching, --method bb --gpu; left out with --no-gpu), `dp` (the dynamic program,
--method dp; "—" where its table exceeds its memory limit), and `combo` when --combo PATH
names an external combo driver: it is run as `PATH FILE` on the instance written in the
numbered layout (`permbb knapsack --write-instance`), its first integer on standard output is
taken as the optimum, and its time is the wall clock of the process (permbb's columns are the
solver's own `seconds`, without process start). The optimal values of the runs that finished
are checked equal. Prints Markdown tables; --markdown writes them, --json the raw runs.

--sweep-threshold measures the CPU/GPU switch threshold instead: the GPU run of a few
instances at each threshold (lists of at least T nodes go to the GPU), total seconds per T;
of the branch-and-bound, or with --sweep-method core of the core search (lists of at least T
states merged on the GPU).

Usage:
  bench/knapsack.py [--bin build/permbb] [--no-gpu] [--methods core,core-gpu,cpu,gpu,dp]
                    [--sizes 100,200,300,400,500] [--instances 10] [--ranges 100]
                    [--classes strongly-correlated,uncorrelated] [--jooken N]
                    [--jooken-sizes 400,600,800,1000,1200] [--jooken-capacities 1e6,1e8,1e10]
                    [--combo PATH] [--without TECH,...] [--time-limit S] [--json FILE]
                    [--markdown FILE]
  bench/knapsack.py --sweep-threshold [--sweep-method bb|core] [--thresholds 1,16,...]
                    [--sweep-instances SPEC;SPEC]
"""
import argparse
import itertools
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time

# Lalami & El Baz 2012, Table I: n -> (CPU s, CPU-GPU s, speedup), means of ten correlated
# instances (R = 100), Tesla C2050 vs. one core of a Xeon E5640 at 2.66 GHz.
PAPER_TABLE_1 = {
    100: (1.59, 0.18, 8.48),
    200: (4.85, 0.41, 11.78),
    300: (9.82, 0.65, 15.08),
    400: (10.94, 0.57, 19.04),
    500: (13.39, 0.65, 20.48),
}

# Jooken, Leyman & De Causmaecker 2022, §4: the published grid of their class.
JOOKEN_GRID = {
    "n": [400, 600, 800, 1000, 1200],
    "c": [10**6, 10**8, 10**10],
    "g": [2, 6, 10, 14],
    "f": ["0.1", "0.2", "0.3"],
    "eps": ["0", "0.00001", "0.0001", "0.001", "0.01", "0.1"],
    "s": [100, 200, 300],
}

METHOD_OPTIONS = {
    "core": ["--method", "core", "--no-gpu"],
    "core-gpu": ["--method", "core", "--gpu"],
    "cpu": ["--method", "bb", "--no-gpu"],
    "gpu": ["--method", "bb", "--gpu"],
    "dp": ["--method", "dp"],
}

# Instances with lists of several 100,000 nodes (strongly correlated, n = 100, R = 100).
DEFAULT_SWEEP = "strongly-correlated,100,100,1;strongly-correlated,100,100,8"
DEFAULT_THRESHOLDS = "1,16,64,256,1024,2048,4096,16384,65536"
# Jooken instances whose state lists reach millions (docs/knapsack.md), solved in seconds.
DEFAULT_CORE_SWEEP = ("jooken,1200,100000000,6,0.2,0.0001,300,11;"
                      "jooken,800,100000000,6,0.3,0,300,9;jooken,600,100000000,14,0.2,0.1,300,8")
DEFAULT_CORE_THRESHOLDS = "1024,2048,4096,8192,16384,65536,262144"


def knapsack(binary, spec, options, time_limit):
    """Runs `permbb knapsack --generate SPEC OPTIONS --json - --quiet`; returns its JSON and
    whether it completed (exit 0) or stopped at the time limit (exit 3); None when the dynamic
    program refuses the instance for its memory (exit 2, "MiB allowed")."""
    cmd = [binary, "knapsack", "--generate", spec, *options, "--json", "-", "--quiet"]
    if time_limit and "dp" not in options:
        cmd += ["--time-limit", str(time_limit)]
    proc = subprocess.run(cmd, capture_output=True, text=True,
                          timeout=(time_limit or 36000) + 300)
    if proc.returncode == 2 and "MiB allowed" in proc.stderr:
        return None
    if proc.returncode not in (0, 3):
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr}")
    result = json.loads(proc.stdout)
    result["complete"] = proc.returncode == 0
    return result


def run_combo(args, spec):
    """The external combo driver on the instance, timed by the wall clock."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "instance.txt")
        subprocess.run([args.bin, "knapsack", "--generate", spec, "--write-instance", path],
                       check=True, capture_output=True)
        begin = time.monotonic()
        try:
            proc = subprocess.run([args.combo, path], capture_output=True, text=True,
                                  timeout=args.time_limit or None)
        except subprocess.TimeoutExpired:
            return {"complete": False, "seconds": time.monotonic() - begin, "value": None}
        seconds = time.monotonic() - begin
    found = re.search(r"-?\d+", proc.stdout)
    if proc.returncode != 0 or not found:
        sys.exit(f"{args.combo} {spec}: exit {proc.returncode}, output {proc.stdout!r}")
    return {"complete": True, "seconds": seconds, "value": int(found.group())}


def mean(values):
    return sum(values) / len(values) if values else None


def cell(value, digits=4):
    return "—" if value is None else f"{value:.{digits}f}"


def markdown_table(columns, rows):
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def method_options(method):
    """A method's permbb options; `core-without-TECH` is core with --without TECH, to measure
    what a technique buys in the same run."""
    if method.startswith("core-without-"):
        return ["--method", "core", "--no-gpu", "--without", method[len("core-without-"):]]
    return METHOD_OPTIONS[method]


def methods(args):
    chosen = [m for m in args.methods.split(",")
              if not (args.no_gpu and m in ("gpu", "core-gpu"))]
    return chosen + (["combo"] if args.combo else [])


def run_instance(args, spec):
    """Every method on one instance; the optimal values of the finished runs checked equal."""
    bb = ["--without", args.without] if args.without else []
    run = {"spec": spec}
    for method in methods(args):
        if method == "combo":
            run[method] = run_combo(args, spec)
        else:
            extra = bb if method in ("cpu", "gpu") else []
            run[method] = knapsack(args.bin, spec, method_options(method) + extra,
                                   args.time_limit)
    values = {m: r["value"] for m, r in run.items() if m != "spec" and r and r["complete"]}
    if len(set(values.values())) > 1:
        sys.exit(f"{spec}: the methods disagree: {values}")
    print(f"  {spec}: " + ", ".join(f"{m} {seconds_cell(run[m])}" for m in methods(args)),
          file=sys.stderr, flush=True)
    return run


def seconds_cell(result):
    if result is None:
        return "—"
    return cell(result["seconds"], 3) if result["complete"] else "limit"


def summary_cells(args, runs):
    """Per method: solved count, then mean and max seconds over the instances every method
    solved (the dynamic program's refusals aside)."""
    both = [r for r in runs
            if all(r[m] is None or r[m]["complete"] for m in methods(args))]
    cells = []
    for m in methods(args):
        solved = sum(1 for r in runs if r[m] and r[m]["complete"])
        attempted = sum(1 for r in runs if r[m])
        seconds = [r[m]["seconds"] for r in both if r[m]]
        cells += [f"{solved}/{attempted}", cell(mean(seconds)), cell(max(seconds, default=None))]
    return cells, len(both)


def standard_classes(args):
    columns = ["class", "n", "R"]
    for m in methods(args):
        columns += [f"{m} solved", f"{m} s", f"{m} max s"]
    columns += ["paper CPU s", "paper CPU-GPU s"]
    rows, raw = [], []
    for instance_class in [c for c in args.classes.split(",") if c]:
        for n in [int(x) for x in args.sizes.split(",")]:
            for big_r in [int(x) for x in args.ranges.split(",")]:
                runs = [run_instance(args, f"{instance_class},{n},{big_r},{seed}")
                        for seed in range(1, args.instances + 1)]
                raw += runs
                cells, _ = summary_cells(args, runs)
                paper = (PAPER_TABLE_1.get(n) if instance_class == "strongly-correlated"
                         and big_r == 100 else None)
                rows.append([instance_class, n, big_r, *cells,
                             cell(paper[0], 2) if paper else "—",
                             cell(paper[1], 2) if paper else "—"])
    note = (f"Solved: within {args.time_limit} s (dp: of the instances its memory limit "
            "allows). Mean and max seconds over the instances that every method solved; "
            "permbb's seconds are the solver's own (no process start, no GPU context creation). "
            "Paper: Lalami & El Baz 2012, Table I (Tesla C2050, Xeon E5640 core).")
    return markdown_table(columns, rows) + "\n\n" + note + "\n", raw


def jooken_sample(args):
    """--jooken instances drawn without replacement from the grid (restricted to
    --jooken-sizes and --jooken-capacities), seeded by --jooken-seed; instance seed = its
    number in the sample."""
    sizes = [int(x) for x in args.jooken_sizes.split(",")]
    capacities = [int(float(x)) for x in args.jooken_capacities.split(",")]
    grid = [p for p in itertools.product(*JOOKEN_GRID.values())
            if p[0] in sizes and p[1] in capacities]
    picked = random.Random(args.jooken_seed).sample(grid, min(args.jooken, len(grid)))
    return [f"jooken,{n},{c},{g},{f},{eps},{s},{k + 1}"
            for k, (n, c, g, f, eps, s) in enumerate(picked)]


def jooken_class(args):
    runs = [run_instance(args, spec) for spec in jooken_sample(args)]
    per_instance = markdown_table(["instance", *[f"{m} s" for m in methods(args)]],
                                  [[r["spec"], *[seconds_cell(r[m]) for m in methods(args)]]
                                   for r in runs])
    cells, common = summary_cells(args, runs)
    columns = ["instances"]
    for m in methods(args):
        columns += [f"{m} solved", f"{m} mean s", f"{m} max s"]
    summary = markdown_table(columns, [[len(runs), *cells]])
    ratios = ratio_lines(args, runs)
    note = (f"Jooken et al.'s class, {len(runs)} instances drawn from the grid (n in "
            f"{args.jooken_sizes}, c in {args.jooken_capacities}; sample seed "
            f"{args.jooken_seed}), {args.time_limit} s per run. 'limit': stopped at the time "
            "limit; '—': not run (dp beyond its memory limit). Means over the "
            f"{common} instances every method solved.")
    return (per_instance + "\n\n" + summary + "\n\n" + ratios + note + "\n"), runs


def ratio_lines(args, runs):
    """Total seconds of each other method over the instances both it and core solved, divided
    by core's total there."""
    if "core" not in methods(args):
        return ""
    lines = []
    for m in methods(args):
        if m == "core":
            continue
        both = [r for r in runs if r[m] and r[m]["complete"] and r["core"]["complete"]]
        core_total = sum(r["core"]["seconds"] for r in both)
        other_total = sum(r[m]["seconds"] for r in both)
        ratio = other_total / core_total if core_total else None
        lines.append(f"- {m} / core, total seconds over the {len(both)} instances both solved: "
                     f"{cell(other_total, 3)} / {cell(core_total, 3)} = {cell(ratio, 2)}")
    return "\n".join(lines) + "\n\n"


def benchmark(args):
    text, raw = standard_classes(args) if args.classes else ("", [])
    if args.jooken:
        jooken_text, jooken_raw = jooken_class(args)
        text += ("\n" if text else "") + jooken_text
        raw += jooken_raw
    print(text)
    return text, raw


def sweep(args):
    if args.no_gpu:
        sys.exit("--sweep-threshold measures the GPU: drop --no-gpu")
    core = args.sweep_method == "core"
    specs = (args.sweep_instances or (DEFAULT_CORE_SWEEP if core else DEFAULT_SWEEP)).split(";")
    method = ["--method", args.sweep_method] + (["--without", args.without] if args.without
                                                 else [])
    rows, raw = [], []
    cpu_runs = [knapsack(args.bin, s, ["--no-gpu", *method], args.time_limit) for s in specs]
    cpu_total = sum(r["seconds"] for r in cpu_runs)
    for threshold in [int(x) for x in (args.thresholds or
                                       (DEFAULT_CORE_THRESHOLDS if core else DEFAULT_THRESHOLDS)
                                       ).split(",")]:
        results = [knapsack(args.bin, s, ["--gpu", "--switch-threshold", str(threshold), *method],
                            args.time_limit) for s in specs]
        if any(r["value"] != c["value"] for r, c in zip(results, cpu_runs)):
            sys.exit(f"threshold {threshold}: the GPU and CPU runs disagree")
        total = sum(r["seconds"] for r in results)
        raw.append({"threshold": threshold, "results": results})
        work = ([sum(r["gpu_merges"] for r in results), sum(r["core_size"] for r in results)]
                if core else
                [sum(r["levels_gpu"] for r in results), sum(r["switches"] for r in results)])
        rows.append([threshold, cell(total), cell(cpu_total / total if total else None, 2), *work])
        print(f"  threshold {threshold}: {total:.3f} s", file=sys.stderr, flush=True)
    raw.append({"threshold": None, "results": cpu_runs})
    table = markdown_table(["threshold", "GPU run s", "speedup over CPU",
                            *(["GPU merges", "core items"] if core else ["GPU levels", "switches"])],
                           rows)
    best = min(raw[:-1], key=lambda r: sum(x["seconds"] for x in r["results"]))["threshold"]
    note = f"Instances: {', '.join(specs)}; CPU alone {cpu_total:.3f} s. Fastest threshold: {best}."
    print(table + "\n\n" + note)
    return table + "\n\n" + note + "\n", raw


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default="build/permbb", help="the permbb executable")
    parser.add_argument("--no-gpu", action="store_true", help="leave the gpu column out")
    parser.add_argument("--methods", default="core,core-gpu,cpu,gpu,dp",
                        help="columns: core, core-gpu, cpu, gpu, dp, core-without-TECH "
                             "(comma-separated)")
    parser.add_argument("--combo", help="an external combo driver, run as PATH FILE")
    parser.add_argument("--sizes", default="100,200,300,400,500")
    parser.add_argument("--instances", type=int, default=10, help="seeds 1..N per size")
    parser.add_argument("--ranges", "--range", default="100", help="R, or several: 100,1000")
    parser.add_argument("--classes", default="strongly-correlated,uncorrelated",
                        help="standard classes ('' for none)")
    parser.add_argument("--jooken", type=int, default=0,
                        help="instances of Jooken et al.'s class to draw from the grid")
    parser.add_argument("--jooken-sizes", default="400,600,800,1000,1200")
    parser.add_argument("--jooken-capacities", default="1e6,1e8,1e10")
    parser.add_argument("--jooken-seed", type=int, default=2022)
    parser.add_argument("--without", default="",
                        help="techniques the branch-and-bound runs turn off (--without of "
                             "permbb knapsack)")
    parser.add_argument("--time-limit", type=float, default=60,
                        help="seconds per run of core, the branch-and-bound and combo (0: none)")
    parser.add_argument("--json", help="write the raw runs here")
    parser.add_argument("--markdown", help="write the tables here")
    parser.add_argument("--sweep-threshold", action="store_true",
                        help="measure the CPU/GPU switch threshold instead")
    parser.add_argument("--sweep-method", choices=["bb", "core"], default="bb",
                        help="the search whose threshold --sweep-threshold measures")
    parser.add_argument("--thresholds", default="",
                        help=f"default {DEFAULT_THRESHOLDS} (bb), {DEFAULT_CORE_THRESHOLDS} (core)")
    parser.add_argument("--sweep-instances", default="",
                        help="generator specs separated by ';' (default: bb " + DEFAULT_SWEEP +
                             "; core " + DEFAULT_CORE_SWEEP + ")")
    args = parser.parse_args()

    text, raw = sweep(args) if args.sweep_threshold else benchmark(args)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"arguments": vars(args), "runs": raw}, f, indent=1)


if __name__ == "__main__":
    main()
