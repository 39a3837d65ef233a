#!/usr/bin/env python3
"""Single-thread benchmark of the IVM explorer at a fixed upper bound (--ub opt), so the tree
does not depend on when good schedules are found: nodes, seconds and nodes/second per instance
for LB1 + MinMin and LB2 + MaxSum. Prints a Markdown table.

Usage: bench/sequential.py [--bin build/permbb] [--instances ta011,ta017,...] [--configs ...]
"""
import argparse
import json
import subprocess
import sys

DEFAULT_INSTANCES = "ta011,ta012,ta013,ta014,ta015,ta016,ta017,ta018,ta019,ta020"
DEFAULT_CONFIGS = "lb1:minmin,lb2:maxsum"


def solve(binary, instance, bound, branching, extra):
    cmd = [binary, "solve", instance, "--ub", "opt", "--bound", bound, "--branch", branching,
           "--json", "-", "--quiet", *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode not in (0, 3):
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr}")
    return json.loads(proc.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="build/permbb")
    parser.add_argument("--instances", default=DEFAULT_INSTANCES)
    parser.add_argument("--configs", default=DEFAULT_CONFIGS,
                        help="comma-separated bound:branching pairs")
    parser.add_argument("--extra", default="", help="extra solve options, space-separated")
    args = parser.parse_args()
    extra = args.extra.split()
    print("| instance | bound | branching | nodes decomposed | seconds | nodes/s |")
    print("|---|---|---|---:|---:|---:|")
    for instance in args.instances.split(","):
        for config in args.configs.split(","):
            bound, branching = config.split(":")
            r = solve(args.bin, instance, bound, branching, extra)
            print(f"| {instance} | {bound} | {branching} | {r['nodes_decomposed']:,} | "
                  f"{r['seconds']:.2f} | {r['nodes_per_second']:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
