#!/usr/bin/env python3
"""The 2022 records on the GPUs of one host: the open Taillard instances that PBB@Cluster
proved with 32 to 128 V100s (Gmys 2022, §5.4, Tables 3-5), re-proved through permbb's
cluster (`mpirun -np 1+G`, one worker per GPU).

Each row runs from an initial upper bound: C*+1 (the search must find an optimal schedule and
prove it) or C* (the proof alone: no schedule below C*). C* are the paper's optima. A row runs
in links, as a Slurm chain does: each link is one `permbb solve` with a time limit that
ends resumable (exit 3) with a checkpoint, and the next link continues with `--restart`; the
solver's result after a restart counts nodes, seconds and restarts over all links. Links and
results live in RUN_DIR/<row>, so running the script again continues where a sitting ended.
Rows marked hard (100 x 20: finding the optimum is the hard part, §5.4.2) run under their own
time limit; one that does not finish reports how far it got.

The paper's scalability proofs (§5.3, Table 2: VFR30_15_2, _5 and _9, "small", "medium" and
"large", each from its optimum C*, the proof alone) are rows too (small-proof, medium-proof,
large-proof), read from --vrf-dir; the paper's figures beside them are one V100's.

Prints, per row, permbb's nodes, seconds and GPU-seconds beside the paper's GPUs, time, nodes
and GPU-hours (docs/records.md).

Usage: bench/records.py [--only NAME]... [--dry-run] [--run-dir DIR] [--budget SECONDS]
                        [--link-seconds S] [--hard-seconds S] [--gpus G] [--bin build/permbb]
                        [--mpirun mpirun] [--json FILE] [--vrf-dir DIR]
                        [--solve-options "OPTIONS"]

Each link's output (its ranks' log lines) is kept in RUN_DIR/<row>/link-N.log.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import time

from bench_common import table_header, table_row

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")

# The paper's runs (2022 Tables 3-5): optimum, GPUs, elapsed seconds, decomposed nodes, GPU
# hours. ta056 was re-solved in the paper's Online Supplement: no figures here.
PAPER = {
    "ta108": (11301, 32, 28, 2e9, "<1"),
    "ta109": (11146, 32, 100, 10e9, "1"),
    "ta107": (11337, 32, 6 * 60, 41e9, "3"),
    "ta101": (11158, 32, 18 * 60, 225e9, "9.6"),
    "ta056": (3679, None, None, None, None),
    "ta090": (6404, 128, 78, 168e9, "3"),
    "ta084": (6254, 32, 16 * 60, 427e9, "8.5"),
    # Table 2: one V100 (T1-GPU).
    "VFR30_15_2": (2317, 1, 54 * 60, 122e9, "0.9"),
    "VFR30_15_5": (2421, 1, (4 * 60 + 22) * 60, 564e9, "4.4"),
    "VFR30_15_9": (2259, 1, (27 * 60 + 23) * 60, 3660e9, "27.4"),
}
TABLE2 = {"small": "VFR30_15_2", "medium": "VFR30_15_5", "large": "VFR30_15_9"}
HARD = {"ta090", "ta084"}
# A link shorter than this spends most of it starting (GPU context, NEH) and checkpointing.
MIN_LINK_SECONDS = 30
PROOF_ALONE = ("ta108", "ta109", "ta107", "ta056")


def rows(vrf_dir):
    """(name, instance, initial UB, the paper's row), in the order of the GPU plan: 200 x 20
    and 50 x 20 first (finding and proving, then the proof alone), the hard 100 x 20, then the
    scalability proofs of Table 2."""
    found = [(f"{i}-find", i, PAPER[i][0] + 1, i)
             for i in ("ta108", "ta109", "ta107", "ta101", "ta056")]
    proof = [(f"{i}-proof", i, PAPER[i][0], i) for i in PROOF_ALONE]
    hard = [(f"{i}-find", i, PAPER[i][0] + 1, i) for i in ("ta090", "ta084")]
    table2 = [(f"{short}-proof", os.path.join(vrf_dir, f"{key}_Gap.txt"), PAPER[key][0], key)
              for short, key in TABLE2.items()]
    return found + proof + hard + table2


def gpu_count():
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout
    except OSError:
        return 0
    return len([line for line in out.splitlines() if line.startswith("GPU ")])


def link_command(args, row_dir, instance, ub, link, seconds):
    ckpt = os.path.join(row_dir, "permbb.ckpt")
    cmd = [args.mpirun, "--oversubscribe", "--bind-to", "none", "-np", str(1 + args.gpus),
           args.bin, "solve", instance, "--ub", str(ub), "--gpu",
           "--time-limit", str(seconds), "--checkpoint", ckpt,
           "--json", os.path.join(row_dir, f"link-{link}.json"),
           # One log over the chain (a restart continues it), for `permbb report`.
           "--progress-log", os.path.join(row_dir, "progress.jsonl")]
    cmd += shlex.split(args.solve_options)
    if os.path.exists(ckpt) or os.path.exists(ckpt + ".prev"):
        cmd += ["--restart", ckpt, "--restart-fallback"]
    return cmd


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def last_result(row_dir):
    """The newest link's result (totals over all links), and the number of links run."""
    link = 1
    while os.path.exists(os.path.join(row_dir, f"link-{link}.json")):
        link += 1
    return load(os.path.join(row_dir, f"link-{link - 1}.json")), link - 1


def remaining_fraction(args, row_dir):
    out = subprocess.run([args.bin, "checkpoint", os.path.join(row_dir, "permbb.ckpt"), "--json"],
                         capture_output=True, text=True)
    return json.loads(out.stdout).get("remaining_fraction") if out.returncode == 0 else None


def run_row(args, name, instance, ub, deadline):
    """Runs links of one row until it completes, its time is up or the sitting ends."""
    row_dir = os.path.join(args.run_dir, name)
    os.makedirs(row_dir, exist_ok=True)
    limit = args.hard_seconds if instance in HARD else None
    while True:
        result, links = last_result(row_dir)
        if result and result["status"] != "incomplete":
            return result, links
        spent = result["seconds"] if result else 0.0
        left = deadline - time.time()
        if limit is not None:
            left = min(left, limit - spent)
        if left < MIN_LINK_SECONDS:
            return result, links
        cmd = link_command(args, row_dir, instance, ub, links + 1, round(min(left, args.link_seconds)))
        print(f"# {name}, link {links + 1}: {shlex.join(cmd)}", flush=True)
        proc = subprocess.run(cmd, capture_output=True, text=True, env=ENV)
        # Every link's log stays beside its result (what --log-level shows of each rank).
        with open(os.path.join(row_dir, f"link-{links + 1}.log"), "w") as log:
            log.write(proc.stdout + proc.stderr)
        if proc.returncode not in (0, 3):
            sys.exit(f"{name}: exit {proc.returncode}: {proc.stderr[-2000:]}")


def describe(result, args, row_dir, optimum):
    if result is None:
        return "not run"
    if result["status"] == "optimal":
        verdict = "optimal" if result["makespan"] == optimum else f"WRONG: {result['makespan']}"
        return f"{verdict} {result['makespan']}"
    if result["status"] == "no-better-than-ub":
        return f"C* >= {result['initial_ub']} proved"
    best = result.get("makespan")
    left = remaining_fraction(args, row_dir)
    return (f"unfinished: best {best if best is not None else 'none'}, "
            f"{left:.3g} of the work left" if left is not None else "unfinished")


def paper_cells(instance):
    optimum, gpus, seconds, nodes, gpu_hours = PAPER[instance]
    if gpus is None:
        return ["(supplement)", "", "", ""]
    return [str(gpus), f"{seconds:,} s", f"{nodes / 1e9:,.0f} G", gpu_hours]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="run only this row (e.g. ta108-find)")
    parser.add_argument("--dry-run", action="store_true", help="print the first link of each row")
    parser.add_argument("--run-dir", default="records-runs")
    parser.add_argument("--budget", type=float, default=540,
                        help="seconds this sitting may run (rows continue in the next)")
    parser.add_argument("--link-seconds", type=float, default=240,
                        help="time limit of one link (then a restart from its checkpoint)")
    parser.add_argument("--hard-seconds", type=float, default=120,
                        help="total time of a hard (100 x 20) row over all its links")
    parser.add_argument("--gpus", type=int, help="GPUs to use (default: all, from nvidia-smi)")
    parser.add_argument("--bin", default="build/permbb")
    parser.add_argument("--mpirun", default="mpirun")
    parser.add_argument("--json", help="write the rows' results to this file")
    parser.add_argument("--solve-options", default="",
                        help="more options for every link's permbb solve (e.g. \"--log-level debug\")")
    parser.add_argument("--vrf-dir", default=".",
                        help="the folder of the VRF files (VFR30_15_*_Gap.txt) of Table 2's rows")
    args = parser.parse_args()
    known = {name for name, _, _, _ in rows(args.vrf_dir)}
    for name in args.only or []:
        if name not in known:
            parser.error(f"--only {name}: not a row ({', '.join(sorted(known))})")
    selected = [r for r in rows(args.vrf_dir) if not args.only or r[0] in args.only]
    if args.gpus is None:
        args.gpus = gpu_count()
    if args.gpus < 1 and not args.dry_run:
        sys.exit("records.py: no GPU found (nvidia-smi -L); give --gpus for a dry run")
    if args.dry_run:
        for name, instance, ub, _ in selected:
            row_dir = os.path.join(args.run_dir, name)
            seconds = min(args.link_seconds, args.hard_seconds if instance in HARD else args.budget)
            print(shlex.join(link_command(args, row_dir, instance, ub, 1, round(seconds))))
        return
    deadline = time.time() + args.budget
    print(f"GPUs: {args.gpus}", flush=True)
    results = []
    for name, instance, ub, paper in selected:
        result, links = run_row(args, name, instance, ub, deadline)
        results.append({"row": name, "instance": instance, "initial_ub": ub, "links": links,
                        "gpus": args.gpus, "paper": paper, "result": result})
    table_header(["row", "start", "result", "nodes", "seconds", "GPU-s", "links",
                  "paper GPUs", "paper time", "paper nodes", "paper GPU-h"])
    for r in results:
        res, paper = r["result"], r["paper"]
        row_dir = os.path.join(args.run_dir, r["row"])
        cells = [r["row"], f"--ub {r['initial_ub']}", describe(res, args, row_dir, PAPER[paper][0])]
        if res:
            cells += [f"{res['nodes_decomposed'] / 1e9:,.2f} G", f"{res['seconds']:,.1f}",
                      f"{res['seconds'] * args.gpus:,.0f}", r["links"]]
        else:
            cells += ["", "", "", 0]
        table_row(cells + paper_cells(paper))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
