#!/usr/bin/env python3
"""Which bound is fastest for which Taillard class: every instance of a class at its optimum
(--ub opt, MinMin), so that the tree depends only on the bound, solved with each bound; the
bounds alternate within a repetition (machines are noisy), and each cell is the sum over the
class of the instances' median seconds. Runs cut by --time-limit count as "> limit" and make
their class's sum a lower bound; an instance cut under every bound is reported and left out
of the sums. Feeds docs/performance.md, "Which bound for which class (--bound auto)".

The engine is whatever the options say: `--engine="--no-gpu --threads 1"` (the default), or
`--engine=--gpu` with a CUDA build for the GPU explorer (write it with "=": the value starts
with a dash).

Usage: bench/bound_choice.py [--bin build/permbb] [--classes 50x10,100x10] [--instances ta083,...]
                             [--bounds lb1,lb2,lb1+lb2] [--engine=OPTIONS] [--repeat 3]
                             [--time-limit SECONDS] [--json FILE]
       bench/bound_choice.py --from FILE.json   (the class table of recorded results)
"""
import argparse
import json
import shlex
import statistics

from bench_common import solve, table_header, table_row

# Taillard's classes: (first instance number, jobs x machines); ten instances each.
CLASSES = {"20x5": 1, "20x10": 11, "20x20": 21, "50x5": 31, "50x10": 41, "50x20": 51,
           "100x5": 61, "100x10": 71, "100x20": 81, "200x10": 91, "200x20": 101, "500x20": 111}
# Open instances (../shared/notes/taillard.md): --ub opt cannot be proved there.
OPEN = {51, 54, 55, 59, 60, 81, 85, 86, 87, 88, 89, 102}


def class_of(number):
    return next(name for name, first in CLASSES.items() if first <= number < first + 10)


def instances_of(args):
    """The classes' instances (less the open ones), then --instances."""
    classes = [c for c in args.classes.split(",") if c]
    numbers = [CLASSES[c] + k for c in classes for k in range(10)]
    named = [i for i in args.instances.split(",") if i]
    return [f"ta{n:03d}" for n in numbers if n not in OPEN] + named


def measure(args, instance, bounds):
    """Median seconds per bound (None where a run was cut) and the nodes of the last run."""
    options = ["--ub", "opt", *shlex.split(args.engine)]
    if args.time_limit:
        options += ["--time-limit", str(args.time_limit)]
    runs = {bound: [] for bound in bounds}
    for _ in range(args.repeat):
        for bound in bounds:
            runs[bound].append(solve(args.bin, instance, [*options, "--bound", bound]))
    result = {}
    for bound, rs in runs.items():
        finished = all(r["status"] != "incomplete" for r in rs)
        result[bound] = {"seconds": statistics.median(r["seconds"] for r in rs) if finished
                         else None,
                         "nodes": rs[-1]["nodes_decomposed"], "finished": finished}
    return result


def class_rows(results, bounds, time_limit):
    """One row per class: the sum of median seconds per bound and the fastest bound."""
    by_class = {}
    for instance, per_bound in results.items():
        by_class.setdefault(class_of(int(instance[2:])), {})[instance] = per_bound
    for name, members in by_class.items():
        counted = {i: r for i, r in members.items() if any(b["finished"] for b in r.values())}
        cells, totals = [], {}
        for bound in bounds:
            cut = any(not r[bound]["finished"] for r in counted.values())
            total = sum(r[bound]["seconds"] or time_limit for r in counted.values())
            nodes = sum(r[bound]["nodes"] for r in counted.values())
            totals[bound] = (cut, total)
            cells.append(f"{'> ' if cut else ''}{total:.3f} s ({nodes:,})")
        finished = {b: t for b, (cut, t) in totals.items() if not cut}
        fastest = min(finished, key=finished.get) if finished and counted else "-"
        left_out = sorted(set(members) - set(counted))
        table_row([name, len(counted), *cells, fastest, ",".join(left_out) or "-"])


def print_class_table(recorded):
    bounds = list(next(iter(recorded["results"].values())))
    print(f"\nengine: {recorded['engine']}; sums of median seconds (nodes decomposed)\n")
    table_header(["class", "instances", *bounds, "fastest", "cut under every bound"])
    class_rows(recorded["results"], bounds, recorded["time_limit"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="build/permbb")
    parser.add_argument("--classes", default="", help="50x10,100x10,...")
    parser.add_argument("--instances", default="", help="more instances: ta083,ta084,...")
    parser.add_argument("--bounds", default="lb1,lb2,lb1+lb2")
    parser.add_argument("--engine", default="--no-gpu --threads 1")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=0.0)
    parser.add_argument("--json", help="write the per-instance results here")
    parser.add_argument("--from", dest="recorded", help="only the class table of a --json file")
    args = parser.parse_args()
    if args.recorded:
        with open(args.recorded) as f:
            print_class_table(json.load(f))
        return
    bounds = args.bounds.split(",")
    if not instances_of(args):
        parser.error("name --classes or --instances")

    table_header(["instance", *bounds])
    recorded = {"engine": args.engine, "time_limit": args.time_limit, "repeat": args.repeat,
                "results": {}}
    for instance in instances_of(args):
        per_bound = recorded["results"][instance] = measure(args, instance, bounds)
        table_row([instance, *(f"{r['seconds']:.3f} s ({r['nodes']:,})" if r["finished"]
                               else f"> {args.time_limit:g} s ({r['nodes']:,})"
                               for r in per_bound.values())])
        if args.json:  # after every instance: a run cut short keeps what it measured
            with open(args.json, "w") as f:
                json.dump(recorded, f, indent=1)
    print_class_table(recorded)


if __name__ == "__main__":
    main()
