#!/usr/bin/env python3
"""Single-thread benchmark of the IVM explorer at a fixed upper bound (--ub opt), so the tree
does not depend on when good schedules are found: nodes, seconds and nodes/second per instance
for LB1 + MinMin and LB2 + MaxSum. Prints a Markdown table.

Usage: bench/sequential.py [--bin build/permbb] [--instances ta011,...] [--configs lb1:minmin,...]
"""
import argparse

from bench_common import solve, table_header, table_row

DEFAULT_INSTANCES = "ta011,ta012,ta013,ta014,ta015,ta016,ta017,ta018,ta019,ta020"
DEFAULT_CONFIGS = "lb1:minmin,lb2:maxsum"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="build/permbb")
    parser.add_argument("--instances", default=DEFAULT_INSTANCES)
    parser.add_argument("--configs", default=DEFAULT_CONFIGS,
                        help="comma-separated bound:branching pairs")
    args = parser.parse_args()
    table_header(["instance", "bound", "branching", "nodes decomposed", "seconds", "nodes/s"])
    for instance in args.instances.split(","):
        for config in args.configs.split(","):
            bound, branching = config.split(":")
            r = solve(args.bin, instance, ["--ub", "opt", "--bound", bound, "--branch", branching,
                                           "--threads", "1", "--no-gpu"])
            table_row([instance, bound, branching, f"{r['nodes_decomposed']:,}",
                       f"{r['seconds']:.2f}", f"{r['nodes_per_second']:,.0f}"])


if __name__ == "__main__":
    main()
