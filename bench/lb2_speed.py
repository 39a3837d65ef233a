#!/usr/bin/env python3
"""LB2 on one CPU thread: a baseline binary against this one at a fixed upper bound (--ub opt),
runs alternated, median of --repeat, for lb2, lb2-adjacent and lb1+lb2 (MinMin). The node
counts must be equal (the script fails otherwise): a faster bound must prune the same nodes.
Whole searches by default; --node-limit N cuts each run after about N nodes (20x20 instances
take hours with LB2 on one core), where the ratio is taken on nodes/second instead.

Usage: bench/lb2_speed.py --baseline-bin OLD [--bin build/permbb] [--instances ta020,...]
                          [--bounds lb2,lb1+lb2] [--repeat 3] [--node-limit N]
"""
import argparse
import statistics
import sys

from bench_common import solve, table_header, table_row


def run(binary, instance, bound, node_limit):
    options = ["--ub", "opt", "--no-gpu", "--threads", "1", "--bound", bound]
    if node_limit:
        options += ["--node-limit", str(node_limit)]
    return solve(binary, instance, options)


def compare(args, instance, bound):
    """One table row: median seconds (or nodes/s under a node limit) of both binaries."""
    runs = {args.baseline_bin: [], args.bin: []}
    for _ in range(args.repeat):
        for binary in runs:
            runs[binary].append(run(binary, instance, bound, args.node_limit))
    nodes = {r["nodes_decomposed"] for rs in runs.values() for r in rs}
    if not args.node_limit and len(nodes) != 1:
        sys.exit(f"{instance} {bound}: node counts differ: {sorted(nodes)}")
    old, new = runs[args.baseline_bin], runs[args.bin]
    if args.node_limit:
        old_rate = statistics.median(r["nodes_per_second"] for r in old)
        new_rate = statistics.median(r["nodes_per_second"] for r in new)
        table_row([instance, bound, f"{min(nodes):,}-{max(nodes):,}", f"{old_rate:,.0f}/s",
                   f"{new_rate:,.0f}/s", f"{new_rate / old_rate:.2f}"])
        return
    old_s = statistics.median(r["seconds"] for r in old)
    new_s = statistics.median(r["seconds"] for r in new)
    table_row([instance, bound, f"{nodes.pop():,}", f"{old_s:.2f}", f"{new_s:.2f}",
               f"{old_s / new_s:.2f}" if new_s > 0 else "-"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="build/permbb")
    parser.add_argument("--baseline-bin", required=True)
    parser.add_argument("--instances", default="ta020")
    parser.add_argument("--bounds", default="lb2,lb2-adjacent,lb1+lb2")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--node-limit", type=int, default=0)
    args = parser.parse_args()
    unit = "nodes/s" if args.node_limit else "s"
    table_header(["instance", "bound", "nodes decomposed", f"baseline {unit}", f"this {unit}",
                  "speedup"])
    for instance in args.instances.split(","):
        for bound in args.bounds.split(","):
            compare(args, instance, bound)


if __name__ == "__main__":
    main()
