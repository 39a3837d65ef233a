#!/usr/bin/env python3
"""Cluster solve rate at a fixed upper bound (--ub opt, LB1 + MinMin): `mpirun -np P` for
P = 2..8 ranks (P-1 workers, each --threads T) against the single-process multi-core solver
with the same total number of explorer threads, measured in the same run. Node counts must
equal the single-process count (checked). Prints a Markdown table with the coordinator's
busy fraction, checkpoints and splits.

Usage: bench/cluster.py [--bin build/permbb] [--instance ta017] [--ranks 2,3,5,8]
                        [--threads-per-worker 1] [--mpirun mpirun]
"""
import argparse
import json
import os
import subprocess
import sys

from bench_common import solve, table_header, table_row

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")


def cluster(args, ranks):
    cmd = [args.mpirun, "--oversubscribe", "-np", str(ranks), args.bin, "solve", args.instance,
           "--ub", "opt", "--threads", str(args.threads_per_worker), "--json", "-", "--quiet",
           *args.extra.split()]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=ENV)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr}")
    return json.loads(proc.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="build/permbb")
    parser.add_argument("--instance", default="ta017")
    parser.add_argument("--ranks", default="2,3,5,8")
    parser.add_argument("--threads-per-worker", type=int, default=1)
    parser.add_argument("--mpirun", default="mpirun")
    parser.add_argument("--extra", default="--no-gpu", help="extra solve options")
    args = parser.parse_args()
    table_header(["run", "workers x threads", "nodes decomposed", "seconds", "nodes/s",
                  "vs single process", "coordinator busy", "checkpoints", "splits"])
    for ranks in [int(r) for r in args.ranks.split(",")]:
        workers = ranks - 1
        threads = workers * args.threads_per_worker
        base = solve(args.bin, args.instance, ["--ub", "opt", "--threads", str(threads),
                                               *args.extra.split()])
        table_row([f"single process", f"1 x {threads}", f"{base['nodes_decomposed']:,}",
                   f"{base['seconds']:.2f}", f"{base['nodes_per_second']:,.0f}", "1.00", "-",
                   "-", "-"])
        r = cluster(args, ranks)
        if r["nodes_decomposed"] != base["nodes_decomposed"]:
            sys.exit(f"{ranks} ranks decomposed {r['nodes_decomposed']} nodes, "
                     f"single process {base['nodes_decomposed']}")
        c = r["cluster"]
        table_row([f"mpirun -np {ranks}", f"{workers} x {args.threads_per_worker}",
                   f"{r['nodes_decomposed']:,}", f"{r['seconds']:.2f}",
                   f"{r['nodes_per_second']:,.0f}",
                   f"{r['nodes_per_second'] / base['nodes_per_second']:.2f}",
                   f"{100 * c['coordinator_busy_fraction']:.2f}%", c["work_messages"],
                   c["splits"]])


if __name__ == "__main__":
    main()
