#!/usr/bin/env python3
"""Parallel efficiency of the cluster on the GPUs of one host (2022 Figure 10): for each
instance, `mpirun -np 1+g*r permbb solve ...` with g GPUs (1..G read off the machine, or
--gpus) and r ranks per GPU (1 by default; 2 and 4 oversubscribe the GPUs), the coordinator
sharing the node. Reports wall time, decomposed nodes (checked identical at a fixed upper
bound), nodes/s, parallel efficiency T1 / (g * Tg) against one rank on one GPU of the same
binary and variant, the coordinator's busy fraction, handovers, and where the workers' time
went (`cluster.worker_times`: explored, of which thin, i.e. fewer than half the IVMs busy;
checkpoints; handovers; waiting for work; heuristics between slices; the rest), summed over
the workers as shares of their wall time, and where a wait for work went (the worker's wait
and rank 0's view of it per unit received; the victims' answers per GiveRequest).

Old and new binaries (--baseline-bin) and variants (--variant NAME=OPTIONS, extra solve
options) are alternated at each GPU count, so that they meet the machine in the same state.
--control SECONDS adds the host-sharing control: one solve per GPU at once
(CUDA_VISIBLE_DEVICES), each against one solve alone, for SECONDS each.

Usage: bench/multi_gpu.py --case "VFR30_15_2_Gap.txt --ub 2317" [--case ...]
           [--bin build/permbb] [--baseline-bin OLD] [--variant NAME=OPTIONS]...
           [--gpus 1,2,3,4] [--gpus-of NAME=COUNTS] [--ranks-per-gpu 1,2,4]
           [--mpirun-args "..."]
           [--control SECONDS] [--json FILE]
"""
import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

from bench_common import table_header, table_row

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")
PARTS = ["explore", "thin", "checkpoint", "handover", "work_wait", "hybrid", "other"]


def gpu_count():
    out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout
    return len([line for line in out.splitlines() if line.startswith("GPU ")])


def run_cluster(args, binary, case, extra, ranks):
    cmd = [args.mpirun, "--oversubscribe", *shlex.split(args.mpirun_args), "-np", str(ranks),
           binary, "solve", *shlex.split(case), *extra, "--gpu", "--json", "-", "--quiet"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=ENV)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return json.loads(proc.stdout)


def breakdown(result):
    """Shares of the workers' summed wall time by part (None for a binary without them)."""
    times = result.get("cluster", {}).get("worker_times")
    if not times:
        return None
    wall = sum(t["wall_seconds"] for t in times) or 1.0
    shares = {p: sum(t[f"{p}_seconds"] for t in times) / wall for p in PARTS}
    shares["busy_ivms"] = sum(t["busy_explorer_share"] * t["explore_seconds"] for t in times) / (
        sum(t["explore_seconds"] for t in times) or 1.0)
    return shares


def breakdown_text(shares):
    if shares is None:
        return "—"
    return " ".join(f"{p} {100 * shares[p]:.1f}" for p in PARTS) + \
        f" (IVMs busy {100 * shares['busy_ivms']:.0f}%)"


def waits_text(result):
    """Where a wait for work went, in mean milliseconds: the waiting worker's own wait and
    rank 0's spell per unit it received; per GiveRequest answered, rank 0's round trip, the
    victim's pause before its handover and the handover's build; per unit, the thief's
    setting of its engine ("—" for a binary without these readings)."""
    times = result.get("cluster", {}).get("worker_times") or []
    if not times or "idle_spells" not in times[0]:
        return "—"

    def mean_ms(key, count_key):
        count = sum(t[count_key] for t in times)
        return f"{1000 * sum(t[key] for t in times) / count:.0f}" if count else "-"

    return (f"wait {mean_ms('work_wait_seconds', 'idle_spells')} / rank 0 "
            f"{mean_ms('idle_seconds', 'idle_spells')} ({sum(t['idle_spells'] for t in times)}); "
            f"give {mean_ms('give_seconds', 'gives_answered')}: pause "
            f"{mean_ms('give_latency_seconds', 'gives_answered')}, build "
            f"{mean_ms('handover_seconds', 'gives_answered')}; assign "
            f"{mean_ms('assign_seconds', 'idle_spells')}")


def selected_gpus(args, name, gpus):
    """The GPU counts a build runs at: --gpus-of NAME=1,4 narrows them."""
    for spec in args.gpus_of:
        build, _, counts = spec.partition("=")
        if build == name:
            return [int(g) for g in counts.split(",")]
    return gpus


def sweep(args, gpus, builds):
    results = []
    table_header(["case", "build", "GPUs x ranks", "seconds", "nodes decomposed", "nodes/s",
                  "efficiency", "coordinator busy", "handovers (H)", "worker time, % (explore, "
                  "of which thin; checkpoint; handover; work wait; hybrid; other)",
                  "waits, ms (per unit received: worker, rank 0 (units); per give: rank 0's "
                  "round trip, victim's pause, build; per unit: assign)"])
    for case in args.case:
        base = {}
        nodes = None
        for per_gpu in [int(r) for r in args.ranks_per_gpu.split(",")]:
            counts = gpus if per_gpu == 1 else \
                [g for g in gpus if g <= args.max_gpus_oversubscribed]
            for g in counts:
                for name, binary, extra in builds:
                    if g not in selected_gpus(args, name, gpus):
                        continue
                    r = run_cluster(args, binary, case, extra, 1 + g * per_gpu)
                    shares = breakdown(r)
                    results.append({"case": case, "build": name, "gpus": g,
                                    "ranks_per_gpu": per_gpu, "breakdown": shares, **r})
                    if g == 1 and per_gpu == 1:
                        base.setdefault(name, r)
                    # A build or variant run without one GPU of its own is set against the
                    # one-GPU run of another build of the same call.
                    one = base.get(name) or next(iter(base.values()), r)
                    nodes = nodes or r["nodes_decomposed"]
                    if r["nodes_decomposed"] != nodes:
                        print(f"WARNING: {case} {name}: {r['nodes_decomposed']} nodes vs "
                              f"{nodes}", flush=True)
                    c = r["cluster"]
                    table_row([case, name, f"{g} x {per_gpu}", f"{r['seconds']:.2f}",
                               f"{r['nodes_decomposed']:,}",
                               f"{r['nodes_per_second'] / 1e6:,.0f} M",
                               f"{100 * one['seconds'] / (g * r['seconds']):.1f}%",
                               f"{100 * c['coordinator_busy_fraction']:.2f}%",
                               f"{c['handovers']} ({c.get('handover_intervals', 256)})",
                               breakdown_text(shares), waits_text(r)])
    return results


def steady_rate(log_path, warmup):
    """Nodes/s between the first progress tick at or after `warmup` seconds and the run's end
    (the result's own rate counts the set-up too); None without two such points."""
    ticks = []
    with open(log_path) as f:
        for line in f:
            entry = json.loads(line)
            if entry.get("event") in ("progress", "end") and entry["seconds"] >= warmup:
                ticks.append((entry["seconds"], entry["nodes"]))
    if len(ticks) < 2 or ticks[-1][0] <= ticks[0][0]:
        return None
    return (ticks[-1][1] - ticks[0][1]) / (ticks[-1][0] - ticks[0][0])


def control(args, binary, present, seconds):
    """One solve alone, then one per GPU at once: each one's nodes/s against the one alone,
    over the whole run (set-up included) and over its steady part (after --control-warmup)."""
    case = shlex.split(args.case[0])
    folder = tempfile.mkdtemp(prefix="permbb-control-")

    def start(gpu, name):
        log = os.path.join(folder, f"{name}.jsonl")
        cmd = [binary, "solve", *case, "--gpu", "--time-limit", str(seconds), "--progress", "1",
               "--progress-log", log, "--json", "-", "--quiet"]
        env = dict(ENV, CUDA_VISIBLE_DEVICES=str(gpu))
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=env)
        return proc, cmd, log

    def rates(started):
        proc, cmd, log = started
        out, err = proc.communicate()
        if proc.returncode not in (0, 3):
            sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}): {err[-2000:]}")
        return json.loads(out)["nodes_per_second"], steady_rate(log, args.control_warmup)

    alone = rates(start(0, "alone"))
    together = [rates(s) for s in [start(g, f"gpu{g}") for g in range(present)]]
    shutil.rmtree(folder, ignore_errors=True)
    for i, label in enumerate(["whole run", f"after {args.control_warmup:g} s"]):
        if alone[i] is None:
            continue
        shares = ["—" if t[i] is None else f"{t[i] / 1e6:,.0f} M ({100 * t[i] / alone[i]:.1f}%)"
                  for t in together]
        print(f"control ({args.case[0]}, {seconds} s, {label}): one alone "
              f"{alone[i] / 1e6:,.0f} M nodes/s; {len(together)} at once " + ", ".join(shares),
              flush=True)
    return {"alone": alone[0], "together": [t[0] for t in together],
            "steady_alone": alone[1], "steady_together": [t[1] for t in together]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", required=True,
                        help='instance and solve options, e.g. "ta056 --ub 3676"')
    parser.add_argument("--bin", default="build/permbb")
    parser.add_argument("--baseline-bin", help="an older permbb, alternated with --bin")
    parser.add_argument("--variant", action="append", default=[],
                        help="NAME=OPTIONS: --bin with extra solve options, e.g. "
                             "'h256=--handover-intervals 256'")
    parser.add_argument("--gpus", help="GPU counts, e.g. 1,2,4 (default: 1..all; 0: none, "
                                       "for --control alone)")
    parser.add_argument("--gpus-of", action="append", default=[],
                        help="NAME=COUNTS: the GPU counts of one build or variant, e.g. old=2,4")
    parser.add_argument("--ranks-per-gpu", default="1")
    parser.add_argument("--max-gpus-oversubscribed", type=int, default=2,
                        help="with 2 or more ranks per GPU, only up to this many GPUs")
    parser.add_argument("--mpirun", default="mpirun")
    parser.add_argument("--mpirun-args", default="", help="extra mpirun options")
    parser.add_argument("--control", type=float, default=0,
                        help="also the host-sharing control, SECONDS per solve")
    parser.add_argument("--control-warmup", type=float, default=5,
                        help="the control's steady rate counts from this many seconds on")
    parser.add_argument("--json", help="write every result to this file")
    args = parser.parse_args()
    present = gpu_count()
    gpus = [int(g) for g in args.gpus.split(",") if int(g) > 0] if args.gpus else \
        list(range(1, present + 1))
    print(f"GPUs: {present}", flush=True)
    builds = [("new", args.bin, [])]
    if args.baseline_bin:
        builds.append(("old", args.baseline_bin, []))
    for variant in args.variant:
        name, _, options = variant.partition("=")
        builds.append((name, args.bin, shlex.split(options)))
    output = {"runs": sweep(args, gpus, builds)} if gpus else {"runs": []}
    if args.control > 0:
        output["control"] = control(args, args.bin, present, args.control)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(output, f, indent=1)


if __name__ == "__main__":
    main()
