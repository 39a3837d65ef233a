#!/usr/bin/env python3
"""Multi-core scaling at a fixed upper bound (--ub opt, MinMin): for each instance,
nodes/second with 1, 2, ... threads and the speedup over 1 thread measured in the same run;
the node counts must equal the 1-thread count (checked: the script fails otherwise).
Also compares the work-stealing victim policies. Prints Markdown tables.

With --baseline-bin, instead: the same runs by two binaries, alternated --repeat times, and the
ratio of their median times (an engine change measured against the build before it).

Usage: bench/multicore.py [--bin build/permbb] [--instances ta017,...] [--threads 1,2,4]
                          [--policies ring,random,largest] [--bound lb1]
                          [--baseline-bin OLD --repeat 3]
"""
import argparse
import statistics
import sys

from bench_common import solve, table_header, table_row


def run(binary, instance, threads, policy, bound="lb1"):
    return solve(binary, instance, ["--ub", "opt", "--threads", str(threads), "--steal-policy",
                                    policy, "--no-gpu", "--bound", bound])


def compare_binaries(args, thread_counts):
    """Median seconds of the baseline and of --bin, runs alternated so that both see the same
    machine load; the node counts must agree."""
    table_header(["instance", "bound", "threads", "nodes decomposed", "baseline s", "this s",
                  "baseline / this"])
    for instance in args.instances.split(","):
        for threads in thread_counts:
            times = {args.baseline_bin: [], args.bin: []}
            nodes = set()
            for _ in range(args.repeat):
                for binary in times:
                    r = run(binary, instance, threads, "largest", args.bound)
                    times[binary].append(r["seconds"])
                    nodes.add(r["nodes_decomposed"])
            if len(nodes) != 1:
                sys.exit(f"{instance}, {threads} threads: node counts differ: {sorted(nodes)}")
            old = statistics.median(times[args.baseline_bin])
            new = statistics.median(times[args.bin])
            table_row([instance, args.bound, threads, f"{nodes.pop():,}", f"{old:.2f}",
                       f"{new:.2f}", f"{old / new:.2f}" if new > 0 else "-"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="build/permbb")
    parser.add_argument("--instances", default="ta011,ta013,ta017,ta019,ta020")
    parser.add_argument("--threads", default="1,2,4")
    parser.add_argument("--policies", default="ring,random,largest")
    parser.add_argument("--policy-threads", type=int, default=2)
    parser.add_argument("--bound", default="lb1")
    parser.add_argument("--baseline-bin", help="compare --bin with this binary instead")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    thread_counts = [int(t) for t in args.threads.split(",")]
    if args.baseline_bin:
        compare_binaries(args, thread_counts)
        return

    table_header(["instance", "threads", "nodes decomposed", "seconds", "nodes/s",
                  "speedup vs 1", "steals"])
    for instance in args.instances.split(","):
        base = None
        for threads in thread_counts:
            r = run(args.bin, instance, threads, "largest", args.bound)
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
            r = run(args.bin, instance, args.policy_threads, policy, args.bound)
            table_row([instance, policy, args.policy_threads, f"{r['seconds']:.2f}", r["steals"]])


if __name__ == "__main__":
    main()
