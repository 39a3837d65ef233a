#!/usr/bin/env python3
"""What recording a certificate costs the GPU explorer (docs/audit.md, "Measured").

Runs one instance on one GPU per run, side by side on the host's GPUs: the build before
without a certificate (`--baseline-bin`, optional), this build without and with
`--certificate`. Each round gives every variant a GPU; the next round rotates them, so every
variant meets every GPU. Prints each run's search seconds and nodes, and the medians.

    bench/certificate_overhead.py --bin build/permbb --baseline-bin old/permbb \\
        --case "VFR30_15_2_Gap.txt --ub 2317" --gpus 4 --rounds 2 --json overhead.json
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor


def run_one(variant, binary, gpu, case, options, folder, index):
    result = os.path.join(folder, f"{variant}-{index}.json")
    command = [binary, "solve", *shlex.split(case), "--gpu", "--quiet", "--json", result,
               *shlex.split(options)]
    if variant == "certificate":
        command += ["--certificate", os.path.join(folder, f"{variant}-{index}.cert")]
    env = dict(os.environ, CUDA_VISIBLE_DEVICES=str(gpu))
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"certificate_overhead: {variant} on GPU {gpu} failed: {done.stderr.strip()}")
    with open(result) as f:
        solved = json.load(f)
    row = {"variant": variant, "gpu": gpu, "seconds": solved["seconds"],
           "nodes": solved["nodes_decomposed"]}
    if variant == "certificate":
        row["certificate_bytes"] = os.path.getsize(command[-1])
        os.remove(command[-1])
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="this build's permbb")
    parser.add_argument("--baseline-bin", help="the build before (runs without a certificate)")
    parser.add_argument("--case", required=True, help='instance and options, e.g. "ta021 --ub opt"')
    parser.add_argument("--options", default="--heuristic-threads 4",
                        help="options of every run (default: %(default)s)")
    parser.add_argument("--gpus", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--json", help="write the runs and medians here")
    args = parser.parse_args()
    variants = [("plain", args.bin), ("certificate", args.bin)]
    if args.baseline_bin:
        variants.append(("baseline", args.baseline_bin))
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for r in range(args.rounds):
            # A round: every GPU runs a variant, rotated by the round.
            jobs = [(variants[(g + r) % len(variants)], g) for g in range(args.gpus)]
            with ThreadPoolExecutor(len(jobs)) as pool:
                futures = [pool.submit(run_one, name, binary, g, args.case, args.options, folder,
                                       f"{r}-{g}") for (name, binary), g in jobs]
                rows += [f.result() for f in futures]
    medians = {name: statistics.median(x["seconds"] for x in rows if x["variant"] == name)
               for name, _ in variants if any(x["variant"] == name for x in rows)}
    for row in rows:
        print(f"{row['variant']:12s} GPU {row['gpu']}  {row['seconds']:9.2f} s  {row['nodes']:,} nodes")
    for name, seconds in medians.items():
        print(f"median {name:12s} {seconds:9.2f} s")
    if "plain" in medians and "certificate" in medians:
        print(f"recording costs {100 * (medians['certificate'] / medians['plain'] - 1):.1f} %")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"case": args.case, "runs": rows, "medians": medians}, f, indent=1)


if __name__ == "__main__":
    main()
