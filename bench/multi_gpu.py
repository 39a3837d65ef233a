#!/usr/bin/env python3
"""Parallel efficiency of the cluster on the GPUs of one host (2022 Figure 10): for each
instance, `mpirun -np 1+g*r permbb solve ...` with g = 1..G GPUs (G read off the machine) and
r ranks per GPU (1 by default; 2 and 4 oversubscribe the GPUs), the coordinator sharing the
node. Reports wall time, decomposed nodes (checked identical at a fixed upper bound), nodes/s,
parallel efficiency T1 / (g * Tg) against one rank on one GPU, the coordinator's busy fraction,
worker checkpoints, splits and when the first and the last worker ran out of work.

Usage: bench/multi_gpu.py --case "ta056 --ub 3676" [--case ...] [--ranks-per-gpu 1,2,4]
                          [--bin build/permbb] [--mpirun mpirun] [--json FILE]
"""
import argparse
import json
import os
import subprocess
import sys

from bench_common import table_header, table_row

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")


def gpu_count():
    out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout
    return len([line for line in out.splitlines() if line.startswith("GPU ")])


def run(args, case, ranks):
    cmd = [args.mpirun, "--oversubscribe", "-np", str(ranks), args.bin, "solve", *case.split(),
           "--gpu", "--json", "-", "--quiet"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=ENV)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return json.loads(proc.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", required=True,
                        help='instance and solve options, e.g. "ta056 --ub 3676"')
    parser.add_argument("--ranks-per-gpu", default="1")
    parser.add_argument("--max-gpus-oversubscribed", type=int, default=2,
                        help="with 2 or more ranks per GPU, only up to this many GPUs")
    parser.add_argument("--bin", default="build/permbb")
    parser.add_argument("--mpirun", default="mpirun")
    parser.add_argument("--json", help="write every result to this file")
    args = parser.parse_args()
    gpus = gpu_count()
    print(f"GPUs: {gpus}", flush=True)
    results = []
    table_header(["case", "GPUs x ranks", "seconds", "nodes decomposed", "nodes/s",
                  "efficiency", "coordinator busy", "checkpoints", "splits",
                  "first / last idle (s)"])
    for case in args.case:
        base = None
        for per_gpu in [int(r) for r in args.ranks_per_gpu.split(",")]:
            top = gpus if per_gpu == 1 else min(gpus, args.max_gpus_oversubscribed)
            for g in range(1, top + 1):
                r = run(args, case, 1 + g * per_gpu)
                results.append({"case": case, "gpus": g, "ranks_per_gpu": per_gpu, **r})
                if base is None:
                    base = r
                elif r["nodes_decomposed"] != base["nodes_decomposed"]:
                    print(f"WARNING: {case}: {r['nodes_decomposed']} nodes vs "
                          f"{base['nodes_decomposed']} on 1 GPU", flush=True)
                c = r["cluster"]
                table_row([case, f"{g} x {per_gpu}", f"{r['seconds']:.2f}",
                           f"{r['nodes_decomposed']:,}", f"{r['nodes_per_second'] / 1e6:,.0f} M",
                           f"{100 * base['seconds'] / (g * r['seconds']):.1f}%",
                           f"{100 * c['coordinator_busy_fraction']:.3f}%", c["work_messages"],
                           c["splits"],
                           f"{c['first_idle_seconds']:.2f} / {c['last_idle_seconds']:.2f}"])
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
