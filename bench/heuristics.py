#!/usr/bin/env python3
"""Quality of a heuristic at the literature's time budget: for each instance and seed, runs
`permbb heuristic INSTANCE --method M --time-limit T --threads N --seed S --json -` with
T = n * m / 2 * 60 ms (Ruiz & Stützle 2007) times a budget factor, and reports the relative
deviation from the best-known makespan, 100 * (C - C_best) / C_best, per instance (mean over
seeds) and per group. Prints Markdown tables.

Two reference tables: the best-known makespans of today (after the 2022 GPU-cluster results),
and, for ta051-ta060 and ta081-ta090, the upper bounds on Taillard's website in 2015, against
which the literature's figures for these classes were measured (Libralesso et al.'s re-run of
the best-of-breed iterated greedy among them). Today's 100 x 20 bounds are 0.41 % lower on
average, so a deviation is comparable with a published one only on the same table.

Defaults: ILS on ta051-ta060 (50x20) and ta081-ta090 (100x20), 5 seeds, one core per run,
one run at a time: about 75 minutes. Quick runs: --seeds 1 --budget-factor 0.1, fewer
--instances, or --parallel P runs at once on a machine with P free cores.

Variants: each --variant NAME=ARGS (repeatable) runs the same instances and seeds with the
extra `permbb heuristic` arguments ARGS (e.g. --variant "tight=--ig-ties tightest"); runs of
all variants are interleaved, so they share the machine's noise, and a last table puts the
variants' group means side by side. --raw FILE writes every run as JSON lines. --cpu-time
counts the budget in each run's CPU time: on a machine shared with other work the wall
clock gives a run a varying fraction of a core. --threads N runs each with N copies
(`permbb heuristic --threads`; default 1): with --parallel 1, one run has the machine's N
cores for the same wall time as a one-core run.

Usage: bench/heuristics.py [--bin build/permbb] [--method ils] [--instances ta051,ta081-ta090]
                           [--seeds 5] [--budget-factor 1.0] [--parallel 1]
                           [--variant NAME=ARGS ...] [--raw FILE] [--cpu-time]
"""
import argparse
import concurrent.futures
import json
import shlex
import subprocess
import sys

from bench_common import table_header, table_row

# Best-known makespans of ta001..ta120 (rows of 10): the state of the literature after the
# 2022 GPU-cluster results; optimal except ta051 ta054 ta055 ta059 ta060 ta081 ta085-ta089 ta102.
BEST_KNOWN = [
    1278, 1359, 1081, 1293, 1235, 1195, 1234, 1206, 1230, 1108,
    1582, 1659, 1496, 1377, 1419, 1397, 1484, 1538, 1593, 1591,
    2297, 2099, 2326, 2223, 2291, 2226, 2273, 2200, 2237, 2178,
    2724, 2834, 2621, 2751, 2863, 2829, 2725, 2683, 2552, 2782,
    2991, 2867, 2839, 3063, 2976, 3006, 3093, 3037, 2897, 3065,
    3846, 3699, 3640, 3719, 3610, 3679, 3704, 3691, 3741, 3755,
    5493, 5268, 5175, 5014, 5250, 5135, 5246, 5094, 5448, 5322,
    5770, 5349, 5676, 5781, 5467, 5303, 5595, 5617, 5871, 5845,
    6173, 6183, 6252, 6254, 6285, 6331, 6223, 6372, 6247, 6404,
    10862, 10480, 10922, 10889, 10524, 10329, 10854, 10730, 10438, 10675,
    11158, 11160, 11281, 11275, 11259, 11176, 11337, 11301, 11146, 11284,
    26040, 26500, 26371, 26456, 26334, 26469, 26389, 26560, 26005, 26457,
]

# The upper bounds on Taillard's website in 2015 for the classes the literature's iterated
# greedy figures are given on (50 x 20 and 100 x 20): the reference of Libralesso et al.'s
# 2021 experiments (their best-known table), and the "old UB" of the 2022 paper's Tables 3-4.
REFERENCE_2015 = {
    51: 3850, 52: 3704, 53: 3640, 54: 3723, 55: 3611,
    56: 3681, 57: 3704, 58: 3691, 59: 3743, 60: 3756,
    81: 6202, 82: 6183, 83: 6271, 84: 6269, 85: 6314,
    86: 6364, 87: 6268, 88: 6401, 89: 6275, 90: 6434,
}

# (jobs, machines) of each group of ten instances, ta001-010 first.
GROUP_SIZES = [(20, 5), (20, 10), (20, 20), (50, 5), (50, 10), (50, 20),
               (100, 5), (100, 10), (100, 20), (200, 10), (200, 20), (500, 20)]

DEFAULT_INSTANCES = "ta051-ta060,ta081-ta090"


def parse_instances(spec):
    """'ta051-ta060,ta083' -> [51, ..., 60, 83]."""
    out = []
    for part in spec.split(","):
        ends = [int(name.strip().lower().removeprefix("ta")) for name in part.split("-")]
        first, last = ends[0], ends[-1]
        if not 1 <= first <= last <= 120:
            sys.exit(f"bad instance range '{part}'")
        out.extend(range(first, last + 1))
    return out


def size_of(index):
    return GROUP_SIZES[(index - 1) // 10]


def budget_seconds(index, factor):
    jobs, machines = size_of(index)
    return jobs * machines / 2 * 60 / 1000 * factor


def run_one(binary, method, index, seed, seconds, extra, cpu_time, threads):
    cmd = [binary, "heuristic", f"ta{index:03d}", "--method", method, "--time-limit",
           f"{seconds:g}", "--threads", str(threads), "--seed", str(seed), "--json", "-",
           "--quiet"]
    if cpu_time:
        cmd.append("--cpu-time")
    cmd += extra
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr}")
    result = json.loads(proc.stdout)
    best = BEST_KNOWN[index - 1]
    return result["makespan"], 100.0 * (result["makespan"] - best) / best, result.get("iterations")


def deviation_2015(index, makespan):
    """Deviation from REFERENCE_2015, None where it has no entry."""
    reference = REFERENCE_2015.get(index)
    return None if reference is None else 100.0 * (makespan - reference) / reference


def mean_or_none(values):
    return None if any(v is None for v in values) else sum(values) / len(values)


def shown(value):
    return "—" if value is None else f"{value:.3f}"


def parse_variants(specs):
    """['base=', 'tight=--ig-ties tightest'] -> [('base', []), ('tight', [...])]."""
    if not specs:
        return [("default", [])]
    variants = []
    for spec in specs:
        name, _, args = spec.partition("=")
        if not name:
            sys.exit(f"bad --variant '{spec}' (expected NAME=ARGS)")
        variants.append((name, shlex.split(args)))
    return variants


def print_variant_table(indices, variants, results, factor):
    """One table per variant: makespans per instance, mean deviation per instance and group,
    against today's best-known makespans and against the 2015 reference."""
    group_means = {}
    for name, args in variants:
        print(f"### {name}: {' '.join(args) or '(defaults)'}\n")
        table_header(["instance", "n x m", "seconds", "best known", "makespans", "mean dev %",
                      "2015 ref", "mean dev % (2015)"])
        groups = {}
        for index in indices:
            runs = results[(name, index)]
            mean = sum(d for _, d in runs) / len(runs)
            mean_2015 = mean_or_none([deviation_2015(index, span) for span, _ in runs])
            jobs, machines = size_of(index)
            groups.setdefault((jobs, machines), []).append((mean, mean_2015))
            table_row([f"ta{index:03d}", f"{jobs}x{machines}",
                       f"{budget_seconds(index, factor):.1f}", BEST_KNOWN[index - 1],
                       " ".join(str(s) for s, _ in runs), f"{mean:.3f}",
                       REFERENCE_2015.get(index, "—"), shown(mean_2015)])
        print()
        for size, means in groups.items():
            group_means[(name, size)] = (sum(m for m, _ in means) / len(means),
                                         mean_or_none([m for _, m in means]))
    sizes = sorted({size for _, size in group_means})
    table_header(["variant"] + [f"{j}x{m} mean dev % (today; 2015)" for j, m in sizes])
    for name, _ in variants:
        table_row([name] + [f"{group_means[(name, size)][0]:.3f}; "
                            f"{shown(group_means[(name, size)][1])}" for size in sizes])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="build/permbb")
    parser.add_argument("--method", default="ils")
    parser.add_argument("--instances", default=DEFAULT_INSTANCES,
                        help="comma-separated names or ranges, e.g. ta051-ta060,ta081")
    parser.add_argument("--seeds", type=int, default=5, help="seeds 1..N per instance")
    parser.add_argument("--budget-factor", type=float, default=1.0,
                        help="multiplies the n*m/2*60 ms budget")
    parser.add_argument("--parallel", type=int, default=1,
                        help="runs at once; keep runs x threads <= free cores")
    parser.add_argument("--threads", type=int, default=1,
                        help="copies per run (permbb heuristic --threads)")
    parser.add_argument("--variant", action="append", default=[],
                        help="NAME=ARGS: extra permbb heuristic arguments (repeatable)")
    parser.add_argument("--raw", help="write every run as a JSON line to this file")
    parser.add_argument("--cpu-time", action="store_true",
                        help="the budget counts each run's CPU time, not the wall clock "
                             "(ils; for a machine shared with other work)")
    args = parser.parse_args()

    indices = parse_instances(args.instances)
    variants = parse_variants(args.variant)
    tasks = [(v, i, s) for i in indices for s in range(1, args.seeds + 1) for v in variants]
    print(f"method {args.method}, budget n*m/2*60 ms x {args.budget_factor:g}"
          f"{' of CPU time' if args.cpu_time else ''}, "
          f"{args.seeds} seed(s), {args.parallel} run(s) at once, {args.threads} thread(s) "
          f"each\n", flush=True)
    results = {}
    raw = open(args.raw, "w") if args.raw else None
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.parallel)) as pool:
        futures = [(v, i, s, pool.submit(run_one, args.bin, args.method, i, s,
                                         budget_seconds(i, args.budget_factor), v[1],
                                         args.cpu_time, args.threads))
                   for v, i, s in tasks]
        for (name, extra), index, seed, future in futures:
            span, deviation, iterations = future.result()
            results.setdefault((name, index), []).append((span, deviation))
            if raw:
                raw.write(json.dumps({"variant": name, "args": extra, "threads": args.threads,
                                      "instance": index,
                                      "seed": seed, "makespan": span,
                                      "deviation_percent": deviation,
                                      "deviation_2015_percent": deviation_2015(index, span),
                                      "iterations": iterations}) + "\n")
                raw.flush()
    if raw:
        raw.close()
    print_variant_table(indices, variants, results, args.budget_factor)


if __name__ == "__main__":
    main()
