#!/usr/bin/env python3
"""One GPU, one process: the GPU explorer with 1, 2, 3 ... IVM pools side by side
(gpu/engine/engine_group.hpp), on the same device in the same run, so the ratios to one pool are
measured on one machine at one time.

Cases (docs/performance.md, "One engine per GPU"):
  ta021..ta030 at --ub opt: whole searches; nodes/s over the ten (total nodes / total
  seconds), and each instance's node count must be the same for every pool count;
  ta056 --ub 3674, ta090 --ub 6405, ta107 --ub 11338: nodes/s over a fixed time.
Rates are the exploration's alone (permbb-gpu-check: set_work to the end of explore(),
without CUDA start-up or the instance's set-up). Prints Markdown tables; --json keeps the runs.

Usage: bench/gpu_pools.py --check BIN/permbb-gpu-check [--pools 1,2,3,4] [--seconds 15]
                          [--skip-taillard20] [--json FILE]
Exits 1 when node counts differ between pool counts.
"""
import argparse
import json
import subprocess
import sys

SMALL = [f"ta{i:03d}" for i in range(21, 31)]
TIMED = [("ta056", 3674), ("ta090", 6405), ("ta107", 11338)]


def check_run(binary, instance, ub, pools, budget):
    command = [binary, instance, "--ub", str(ub), "--pools", str(pools), "--budget", str(budget)]
    out = subprocess.run(command, capture_output=True, text=True, timeout=budget + 120)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({out.returncode}): {out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def millions(rate):
    return f"{rate / 1e6:,.1f} M"


def whole_searches(binary, pool_counts, runs):
    """ta021..ta030 at the optimum, for every pool count. Returns False on a count mismatch."""
    consistent = True
    totals = {}
    for pools in pool_counts:
        nodes = seconds = 0.0
        for instance in SMALL:
            r = check_run(binary, instance, "opt", pools, 600)
            runs.append(r)
            if not r["complete"]:
                raise RuntimeError(f"{instance} with {pools} pools did not finish")
            first = next(x for x in runs if x["instance"] == instance and x["pools"] == pool_counts[0])
            if r["nodes_decomposed"] != first["nodes_decomposed"]:
                print(f"MISMATCH {instance}: {r['nodes_decomposed']} nodes with {pools} pools, "
                      f"{first['nodes_decomposed']} with {pool_counts[0]}")
                consistent = False
            nodes += r["nodes_decomposed"]
            seconds += r["seconds"]
        totals[pools] = (nodes, seconds)
    base = totals[pool_counts[0]][0] / totals[pool_counts[0]][1]
    print("\nta021-ta030 at --ub opt (LB1, MinMin), whole searches\n")
    print("| pools | nodes | seconds | nodes/s | vs 1 pool |")
    print("|---:|---:|---:|---:|---:|")
    for pools, (nodes, seconds) in totals.items():
        rate = nodes / seconds
        print(f"| {pools} | {int(nodes):,} | {seconds:.2f} | {millions(rate)} | {rate / base:.2f} |")
    return consistent


def timed_searches(binary, pool_counts, budget, runs):
    print(f"\nFixed time ({budget:g} s of exploration per run)\n")
    print("| instance | --ub | pools | nodes | nodes/s | vs 1 pool |")
    print("|---|---:|---:|---:|---:|---:|")
    for instance, ub in TIMED:
        base = None
        for pools in pool_counts:
            r = check_run(binary, instance, ub, pools, budget)
            runs.append(r)
            rate = r["nodes_per_second"]
            base = base or rate
            print(f"| {instance} | {ub} | {pools} | {r['nodes_decomposed']:,} | {millions(rate)} "
                  f"| {rate / base:.2f} |", flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--check", required=True, help="permbb-gpu-check binary")
    p.add_argument("--pools", default="1,2,3,4")
    p.add_argument("--seconds", type=float, default=15)
    p.add_argument("--skip-taillard20", action="store_true")
    p.add_argument("--json")
    args = p.parse_args()
    pool_counts = [int(x) for x in args.pools.split(",")]
    runs = []
    consistent = True
    try:
        if not args.skip_taillard20:
            consistent = whole_searches(args.check, pool_counts, runs)
        timed_searches(args.check, pool_counts, args.seconds, runs)
    finally:
        if args.json:
            with open(args.json, "w") as f:
                json.dump(runs, f, indent=1)
    return 0 if consistent else 1


if __name__ == "__main__":
    sys.exit(main())
