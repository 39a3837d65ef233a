#!/usr/bin/env python3
"""Knapsack branch-and-bound benchmark, in the setting of Lalami & El Baz 2012 (§IV, Table I):
strongly correlated instances (w uniform in [1, R], p = w + R/10, the paper's "correlated"),
R = 100, n = 100 ... 500 step 100, ten instances each, capacity half the total weight; and
uncorrelated instances, where the paper saw no GPU speedup.

For each instance: the branch-and-bound on the CPU (`--no-gpu`), on the GPU with CPU/GPU
switching (`--gpu`, skipped with --no-gpu), and the dynamic program (`--method dp`); the
optimal values are checked equal. Prints a Markdown table of mean seconds (the solver's own
`seconds`: the search, without process start or GPU context creation) beside the paper's
Table I (Tesla C2050 against one core of a Xeon E5640), and writes it with --markdown, the raw
runs with --json.

--sweep-threshold measures the CPU/GPU switch threshold instead: the GPU run of a few
instances at each threshold (lists of at least T nodes go to the GPU), total seconds per T.

--ranges R1,R2 repeats every (class, n) for each R; --without TECH,... passes the same
option to the branch-and-bound runs, to measure what a technique buys (permbb knapsack --help).

Usage:
  bench/knapsack.py [--bin build/permbb] [--no-gpu] [--sizes 100,200,300,400,500]
                    [--instances 10] [--ranges 100] [--classes strongly-correlated,uncorrelated]
                    [--without TECH,...] [--time-limit S] [--json FILE] [--markdown FILE]
  bench/knapsack.py --sweep-threshold [--thresholds 1,16,...] [--sweep-instances SPEC;SPEC]
                    [--without TECH,...]
"""
import argparse
import json
import subprocess
import sys

# Lalami & El Baz 2012, Table I: n -> (CPU s, CPU-GPU s, speedup), means of ten correlated
# instances (R = 100), Tesla C2050 vs. one core of a Xeon E5640 at 2.66 GHz.
PAPER_TABLE_1 = {
    100: (1.59, 0.18, 8.48),
    200: (4.85, 0.41, 11.78),
    300: (9.82, 0.65, 15.08),
    400: (10.94, 0.57, 19.04),
    500: (13.39, 0.65, 20.48),
}

# Instances with lists of several 100,000 nodes (strongly correlated, n = 100, R = 100).
DEFAULT_SWEEP = "strongly-correlated,100,100,1;strongly-correlated,100,100,8"
DEFAULT_THRESHOLDS = "1,16,64,256,1024,2048,4096,16384,65536"


def knapsack(binary, spec, options, time_limit):
    """Runs `permbb knapsack --generate SPEC OPTIONS --json - --quiet`; returns its JSON and
    whether it completed (exit 0) or stopped at the time limit (exit 3)."""
    cmd = [binary, "knapsack", "--generate", spec, *options, "--json", "-", "--quiet"]
    if time_limit and "--method" not in options:
        cmd += ["--time-limit", str(time_limit)]
    proc = subprocess.run(cmd, capture_output=True, text=True,
                          timeout=(time_limit or 36000) + 300)
    if proc.returncode not in (0, 3):
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr}")
    result = json.loads(proc.stdout)
    result["complete"] = proc.returncode == 0
    return result


def mean(values):
    return sum(values) / len(values) if values else None


def cell(value, digits=4):
    return "—" if value is None else f"{value:.{digits}f}"


def markdown_table(columns, rows):
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def run_size(args, instance_class, n, big_r):
    """The runs of one (class, n, R): per seed, CPU, GPU and DP results."""
    runs = []
    bb = ["--without", args.without] if args.without else []
    for seed in range(1, args.instances + 1):
        spec = f"{instance_class},{n},{big_r},{seed}"
        run = {"spec": spec,
               "cpu": knapsack(args.bin, spec, ["--no-gpu", *bb], args.time_limit),
               "dp": knapsack(args.bin, spec, ["--method", "dp"], None)}
        if not args.no_gpu:
            run["gpu"] = knapsack(args.bin, spec, ["--gpu", *bb], args.time_limit)
        for engine in ("cpu", "gpu"):
            r = run.get(engine)
            if r and r["complete"] and r["value"] != run["dp"]["value"]:
                sys.exit(f"{spec}: {engine} value {r['value']} != DP {run['dp']['value']}")
        print(f"  {spec}: cpu {cell(run['cpu']['seconds'])} s"
              + ("" if args.no_gpu else f", gpu {cell(run['gpu']['seconds'])} s")
              + f", dp {cell(run['dp']['seconds'])} s", file=sys.stderr, flush=True)
        runs.append(run)
    return runs


def summary_row(args, instance_class, n, big_r, runs):
    complete = [r for r in runs if r["cpu"]["complete"] and (args.no_gpu or r["gpu"]["complete"])]
    cpu = mean([r["cpu"]["seconds"] for r in complete])
    cpu_max = max([r["cpu"]["seconds"] for r in complete], default=None)
    gpu = None if args.no_gpu else mean([r["gpu"]["seconds"] for r in complete])
    speedup = cpu / gpu if cpu is not None and gpu else None
    nodes = mean([r["cpu"]["nodes_explored"] for r in complete])
    paper = PAPER_TABLE_1.get(n) if instance_class == "strongly-correlated" and big_r == 100 else None
    return [instance_class, n, big_r, f"{len(complete)}/{len(runs)}",
            "—" if nodes is None else f"{nodes:.3g}", cell(cpu), cell(cpu_max), cell(gpu),
            cell(speedup, 2),
            cell(mean([r["dp"]["seconds"] for r in runs]), 4),
            cell(paper[0], 2) if paper else "—", cell(paper[1], 2) if paper else "—",
            cell(paper[2], 2) if paper else ("no speedup" if instance_class == "uncorrelated" else "—")]


def benchmark(args):
    columns = ["class", "n", "R", "solved", "nodes (mean)", "CPU s", "CPU max s", "GPU s",
               "speedup", "DP s",
               "paper CPU s", "paper CPU-GPU s", "paper speedup"]
    rows, raw = [], []
    for instance_class in args.classes.split(","):
        for n in [int(x) for x in args.sizes.split(",")]:
            for big_r in [int(x) for x in args.ranges.split(",")]:
                runs = run_size(args, instance_class, n, big_r)
                raw += runs
                rows.append(summary_row(args, instance_class, n, big_r, runs))
    table = markdown_table(columns, rows)
    note = (f"Means (and, for the CPU, the maximum) over the instances that every engine "
            f"solved within {args.time_limit} s; "
            "seconds are the solver's own (no process start, no GPU context creation); speedup "
            "= mean CPU s / mean GPU s. Paper: Lalami & El Baz 2012, Table I (Tesla C2050, "
            "Xeon E5640 core).")
    print(table + "\n\n" + note)
    return table + "\n\n" + note + "\n", raw


def sweep(args):
    if args.no_gpu:
        sys.exit("--sweep-threshold measures the GPU: drop --no-gpu")
    specs = args.sweep_instances.split(";")
    bb = ["--without", args.without] if args.without else []
    rows, raw = [], []
    cpu_total = sum(knapsack(args.bin, s, ["--no-gpu", *bb], args.time_limit)["seconds"]
                    for s in specs)
    for threshold in [int(x) for x in args.thresholds.split(",")]:
        results = [knapsack(args.bin, s, ["--gpu", "--switch-threshold", str(threshold), *bb],
                            args.time_limit) for s in specs]
        total = sum(r["seconds"] for r in results)
        raw.append({"threshold": threshold, "results": results})
        rows.append([threshold, cell(total), cell(cpu_total / total if total else None, 2),
                     sum(r["levels_gpu"] for r in results), sum(r["switches"] for r in results)])
        print(f"  threshold {threshold}: {total:.3f} s", file=sys.stderr, flush=True)
    table = markdown_table(["threshold", "GPU run s", "speedup over CPU", "GPU levels",
                            "switches"], rows)
    best = min(raw, key=lambda r: sum(x["seconds"] for x in r["results"]))["threshold"]
    note = f"Instances: {', '.join(specs)}; CPU alone {cpu_total:.3f} s. Fastest threshold: {best}."
    print(table + "\n\n" + note)
    return table + "\n\n" + note + "\n", raw


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default="build/permbb", help="the permbb executable")
    parser.add_argument("--no-gpu", action="store_true", help="CPU and DP columns only")
    parser.add_argument("--sizes", default="100,200,300,400,500")
    parser.add_argument("--instances", type=int, default=10, help="seeds 1..N per size")
    parser.add_argument("--ranges", "--range", default="100", help="R, or several: 100,1000")
    parser.add_argument("--classes", default="strongly-correlated,uncorrelated")
    parser.add_argument("--without", default="",
                        help="techniques the branch-and-bound runs turn off (--without of "
                             "permbb knapsack)")
    parser.add_argument("--time-limit", type=float, default=60,
                        help="seconds per branch-and-bound run (0: none)")
    parser.add_argument("--json", help="write the raw runs here")
    parser.add_argument("--markdown", help="write the table here")
    parser.add_argument("--sweep-threshold", action="store_true",
                        help="measure the CPU/GPU switch threshold instead")
    parser.add_argument("--thresholds", default=DEFAULT_THRESHOLDS)
    parser.add_argument("--sweep-instances", default=DEFAULT_SWEEP,
                        help="generator specs separated by ';'")
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
