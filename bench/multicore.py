#!/usr/bin/env python3
"""Multi-core scaling at a fixed upper bound (--ub opt, LB1 + MinMin): for each instance,
nodes/second with 1, 2, ... threads and the speedup over 1 thread measured in the same run;
the node counts must equal the 1-thread count (checked: the script fails otherwise).
Also compares the work-stealing victim policies. Prints Markdown tables.

Usage: bench/multicore.py [--bin build/permbb] [--instances ta017,...] [--threads 1,2,4]
                          [--policies ring,random,largest]
"""
import argparse
import sys

from bench_common import solve, table_header, table_row


def run(binary, instance, threads, policy):
    return solve(binary, instance, ["--ub", "opt", "--threads", str(threads), "--steal-policy",
                                    policy, "--no-gpu"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="build/permbb")
    parser.add_argument("--instances", default="ta011,ta013,ta017,ta019,ta020")
    parser.add_argument("--threads", default="1,2,4")
    parser.add_argument("--policies", default="ring,random,largest")
    parser.add_argument("--policy-threads", type=int, default=2)
    args = parser.parse_args()
    thread_counts = [int(t) for t in args.threads.split(",")]

    table_header(["instance", "threads", "nodes decomposed", "seconds", "nodes/s",
                  "speedup vs 1", "steals"])
    for instance in args.instances.split(","):
        base = None
        for threads in thread_counts:
            r = run(args.bin, instance, threads, "largest")
            if base is None:
                base = r
            elif r["nodes_decomposed"] != base["nodes_decomposed"]:
                sys.exit(f"{instance}: {threads} threads decomposed {r['nodes_decomposed']} "
                         f"nodes, 1 thread {base['nodes_decomposed']}")
            table_row([instance, threads, f"{r['nodes_decomposed']:,}", f"{r['seconds']:.2f}",
                       f"{r['nodes_per_second']:,.0f}",
                       f"{base['seconds'] / r['seconds']:.2f}" if r["seconds"] > 0 else "-",
                       r["steals"]])

    print()
    table_header(["instance", "policy", "threads", "seconds", "steals"])
    for instance in args.instances.split(","):
        for policy in args.policies.split(","):
            r = run(args.bin, instance, args.policy_threads, policy)
            table_row([instance, policy, args.policy_threads, f"{r['seconds']:.2f}", r["steals"]])


if __name__ == "__main__":
    main()
