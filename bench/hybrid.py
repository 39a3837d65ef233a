#!/usr/bin/env python3
"""How close the hybridization (2022 §4.2.3: heuristic threads beside the GPU search) comes to
the hard 100 x 20 optima: each instance is searched from an initial upper bound (the optimum
plus one: only a better schedule ends the search early) through the cluster (`mpirun -np 1+G`),
once per variant of the heuristic threads, the variants side by side on disjoint GPUs so that
they share the host's noise. A run ends at its time limit or when its search completes.

Per run it reports what the workers' closing log line says: the best schedule the
hybridization saw (the pool's best: even above the bound, which the incumbent never shows),
the best of its iterated greedy runs and of its subproblem dives, with the search's status and
nodes (docs/records.md, "The hard optima").

Usage: bench/hybrid.py --instances ta090:6405,ta084:6255 [--seconds 560]
                       [--variants "greedy=--no-heuristic-dives;dives=--heuristic-dives"]
                       [--gpus-per-run 1]
                       [--threads-per-run T] [--bin build/permbb] [--mpirun mpirun]
                       [--out-dir DIR] [--json FILE]
"""
import argparse
import json
import os
import re
import shlex
import subprocess

from bench_common import table_header, table_row

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")

SUMMARY = re.compile(r"hybridization: (\d+) heuristic runs \((\d+) subproblem dives\), (\d+) "
                     r"improved the incumbent, (\d+) promotions; best schedule seen (\w+) "
                     r"\(iterated greedy (\w+), dives (\w+)\)")


def parse_variants(text):
    variants = []
    for part in text.split(";"):
        name, _, flags = part.partition("=")
        variants.append((name.strip(), shlex.split(flags)))
    return variants


def parse_instances(text):
    return [(name, int(ub)) for name, ub in (item.split(":") for item in text.split(","))]


def number(text):
    return int(text) if text.isdigit() else None


def summaries(log_text):
    """The closing hybridization line of every worker, as dicts."""
    out = []
    for match in SUMMARY.finditer(log_text):
        runs, dives, improved, promotions, best, greedy, dive_best = match.groups()
        out.append({"runs": int(runs), "dives": int(dives), "improved": int(improved),
                    "promotions": int(promotions), "best_seen": number(best),
                    "best_greedy": number(greedy), "best_dives": number(dive_best)})
    return out


def start_run(args, instance, ub, name, flags, gpus):
    stem = os.path.join(args.out_dir, f"{instance}-{name}")
    cmd = [args.mpirun, "--bind-to", "none", "-np", str(1 + len(gpus)), args.bin, "solve",
           instance, "--ub", str(ub), "--gpu", "--time-limit", str(args.seconds),
           "--heuristic-threads", str(args.threads_per_run), "--log-level", "debug",
           "--json", stem + ".json"] + flags
    env = dict(ENV, CUDA_VISIBLE_DEVICES=",".join(str(g) for g in gpus))
    print(f"# {instance} {name} on GPU {env['CUDA_VISIBLE_DEVICES']}: {shlex.join(cmd)}",
          flush=True)
    log = open(stem + ".log", "w")
    return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env), stem, log


def finish_run(process, stem, log):
    process.wait()
    log.close()
    with open(stem + ".log") as f:
        workers = summaries(f.read())
    try:
        with open(stem + ".json") as f:
            result = json.load(f)
    except (OSError, ValueError):
        result = {}
    seen = [w["best_seen"] for w in workers if w["best_seen"] is not None]
    greedy = [w["best_greedy"] for w in workers if w["best_greedy"] is not None]
    dives = [w["best_dives"] for w in workers if w["best_dives"] is not None]
    return {"exit": process.returncode, "status": result.get("status"),
            "makespan": result.get("makespan"), "seconds": result.get("seconds"),
            "nodes": result.get("nodes_decomposed"),
            "best_seen": min(seen, default=None), "best_greedy": min(greedy, default=None),
            "best_dives": min(dives, default=None),
            "heuristic_runs": sum(w["runs"] for w in workers),
            "dives": sum(w["dives"] for w in workers)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", required=True, help="NAME:UB,... (e.g. ta090:6405)")
    parser.add_argument("--variants",
                        default="greedy=--no-heuristic-dives;dives=--heuristic-dives",
                        help="NAME=FLAGS;... run side by side on disjoint GPUs")
    parser.add_argument("--seconds", type=float, default=560)
    parser.add_argument("--gpus-per-run", type=int, default=1)
    parser.add_argument("--threads-per-run", type=int,
                        help="heuristic threads of each run's worker (default: the host's "
                             "cores shared by the runs, less a feeder and MPI per GPU)")
    parser.add_argument("--bin", default="build/permbb")
    parser.add_argument("--mpirun", default="mpirun")
    parser.add_argument("--out-dir", default="hybrid-runs")
    parser.add_argument("--json")
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    variants = parse_variants(args.variants)
    if args.threads_per_run is None:
        share = (os.cpu_count() or 2) // len(variants)
        args.threads_per_run = max(1, share - 2 * args.gpus_per_run - 1)

    rows = []
    table_header(["instance", "UB", "variant", "status", "best seen", "iterated greedy",
                  "dives", "runs (dives)", "nodes", "seconds"])
    for instance, ub in parse_instances(args.instances):
        started = []
        for i, (name, flags) in enumerate(variants):
            gpus = list(range(i * args.gpus_per_run, (i + 1) * args.gpus_per_run))
            started.append((name, flags, start_run(args, instance, ub, name, flags, gpus)))
        for name, flags, (process, stem, log) in started:
            row = dict(instance=instance, ub=ub, variant=name, flags=flags,
                       gpus=args.gpus_per_run, threads=args.threads_per_run,
                       **finish_run(process, stem, log))
            rows.append(row)
            found = row["makespan"] if row["status"] == "optimal" else row["status"]
            shown = [("-" if v is None else v)
                     for v in (row["best_seen"], row["best_greedy"], row["best_dives"])]
            table_row([instance, ub, name, found, *shown,
                       f"{row['heuristic_runs']} ({row['dives']})",
                       f"{(row['nodes'] or 0) / 1e9:.1f} G", f"{row['seconds'] or 0:.0f}"])
        if args.json:
            with open(args.json, "w") as f:
                json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
