#!/usr/bin/env python3
"""What recording a certificate costs the GPU explorer (docs/audit.md, "Measured").

Runs one instance on one GPU per run, side by side on the host's GPUs: the build before
without a certificate (`--baseline-bin`, optional), this build without and with
`--certificate` (and with the certificate options of each `--certificate-variant`). Each
round gives every variant a GPU; the next round rotates them, so every variant meets every
GPU. Prints each run's search seconds and nodes, and the medians.

    bench/certificate_overhead.py --bin build/permbb --baseline-bin old/permbb \\
        --case "VFR30_15_2_Gap.txt --ub 2317" --gpus 4 --rounds 2 --json overhead.json

With `--time-limit S` every run stops after S seconds (exit status 3, expected) and the
variants compare by nodes per second: a shorter measure of the kernels' speed, on the part
of the search those seconds reach. For example, what the nested subproblems cost:

    bench/certificate_overhead.py --bin build/permbb --case "VFR30_15_2_Gap.txt --ub 2317" \\
        --options "--heuristic-threads 0" --gpus 1 --rounds 6 --time-limit 25 \\
        --certificate-variant "split0=--certificate-split 0"
"""
import argparse
import json
import os
import shlex
import statistics
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from bench_common import solve

PLAIN, CERTIFICATE, BASELINE = "plain", "certificate", "baseline"

# The statuses of a search that completed (README, "Exit status").
COMPLETE = ("optimal", "no-better-than-ub")


def run_one(variant, gpu, case, options, time_limit, folder, index):
    """One run of `variant` (its name, binary, and certificate options; None: no
    certificate) on GPU `gpu`: its row."""
    name, binary, certificate_options = variant
    instance, *case_options = shlex.split(case)
    run_options = [*case_options, "--gpu", *shlex.split(options)]
    if time_limit:
        run_options += ["--time-limit", str(time_limit)]
    certificate = os.path.join(folder, f"{name}-{index}.cert")
    if certificate_options is not None:
        run_options += ["--certificate", certificate, *shlex.split(certificate_options)]
    solved = solve(binary, instance, run_options,
                   env=dict(os.environ, CUDA_VISIBLE_DEVICES=str(gpu)))
    if not time_limit and solved["status"] not in COMPLETE:
        sys.exit(f"certificate_overhead: {name} on GPU {gpu} did not complete "
                 f"({solved['status']}): compare such runs with --time-limit")
    row = {"variant": name, "gpu": gpu, "seconds": solved["seconds"],
           "nodes": solved["nodes_decomposed"], "status": solved["status"],
           "nodes_per_second": solved["nodes_decomposed"] / max(solved["seconds"], 1e-9)}
    if os.path.exists(certificate):  # written only when the search completed
        row["certificate_bytes"] = os.path.getsize(certificate)
        os.remove(certificate)
    return row


def certificate_variant(text):
    name, separator, options = text.partition("=")
    if not separator or not name or name in (PLAIN, CERTIFICATE, BASELINE):
        raise argparse.ArgumentTypeError(f"expected NAME=OPTIONS with a new name: {text!r}")
    return name, options


def report(rows, variants, time_limit):
    """Prints the runs and the medians; returns the medians (seconds, or nodes per second
    with a time limit)."""
    measure = "nodes_per_second" if time_limit else "seconds"
    medians = {name: statistics.median(x[measure] for x in rows if x["variant"] == name)
               for name, _, _ in variants if any(x["variant"] == name for x in rows)}
    for row in rows:
        print(f"{row['variant']:12s} GPU {row['gpu']}  {row['seconds']:9.2f} s  "
              f"{row['nodes']:,} nodes  {row['nodes_per_second']:.4g} nodes/s")
    for name, value in medians.items():
        print(f"median {name:12s} {value:.6g} {'nodes/s' if time_limit else 's'}")
    if PLAIN not in medians:
        return medians
    for name, value in medians.items():
        if name == PLAIN or name == BASELINE:
            continue
        ratio = medians[PLAIN] / value if time_limit else value / medians[PLAIN]
        print(f"{name} costs {100 * (ratio - 1):.1f} %")
    return medians


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="this build's permbb")
    parser.add_argument("--baseline-bin", help="the build before (runs without a certificate)")
    parser.add_argument("--case", required=True, help='instance and options, e.g. "ta021 --ub opt"')
    parser.add_argument("--options", default="--heuristic-threads 4",
                        help="options of every run (default: %(default)s)")
    parser.add_argument("--gpus", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=0,
                        help="stop every run after this many seconds and compare nodes per "
                             "second (0: every run completes; default: %(default)s)")
    parser.add_argument("--certificate-variant", type=certificate_variant, action="append",
                        default=[], metavar="NAME=OPTIONS",
                        help="also run with --certificate and these options, as NAME")
    parser.add_argument("--json", help="write the runs and medians here")
    args = parser.parse_args()
    variants = [(PLAIN, args.bin, None), (CERTIFICATE, args.bin, "")]
    variants += [(name, args.bin, options) for name, options in args.certificate_variant]
    if args.baseline_bin:
        variants.append((BASELINE, args.baseline_bin, None))
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for r in range(args.rounds):
            # A round: every GPU runs a variant, rotated by the round.
            jobs = [(variants[(g + r) % len(variants)], g) for g in range(args.gpus)]
            with ThreadPoolExecutor(len(jobs)) as pool:
                futures = [pool.submit(run_one, variant, g, args.case, args.options,
                                       args.time_limit, folder, f"{r}-{g}")
                           for variant, g in jobs]
                rows += [f.result() for f in futures]
    medians = report(rows, variants, args.time_limit)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"case": args.case, "options": args.options,
                       "time_limit": args.time_limit, "runs": rows, "medians": medians}, f,
                      indent=1)


if __name__ == "__main__":
    main()
