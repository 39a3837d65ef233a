#!/usr/bin/env python3
"""GPU explorer benchmark: Taillard ta021..ta030 (20 x 20) at a fixed upper bound (--ub opt,
LB1 + MinMin), so the tree does not depend on when good schedules are found. For each
instance: decomposed nodes, seconds and nodes/second on the GPU, then the multi-core engine on
all CPU cores in the same run, and the GPU/CPU ratio of nodes/second. Prints a Markdown table
(and writes the raw results as JSON with --json).

It drives `permbb solve ... --gpu --ivms K --json -` and `--no-gpu --threads N`; when the
permbb binary has no --gpu (or is missing), it falls back to the drivers built beside it,
permbb-gpu-check and permbb-cpu-check, which print the same fields.

With --baseline-bin OLD it compares two builds instead (no CPU column): each case runs on the
old and the new binary alternately (old, new, new, old, ... --repeat times each), both with
`permbb solve CASE --gpu --heuristic-threads 0`, and the table gives each one's median
seconds and nodes/s, the speed-up new/old, and whether the node counts agree (whole searches
at a fixed bound must decompose the same nodes). A case is INSTANCE[:UB[:SECONDS]]: UB a
number or opt (default opt), SECONDS a time limit for a rate over a fixed time (default: the
whole search). Extra engine options for the new binary only: --new-args "...".

Usage: bench/gpu.py [--bin build/permbb] [--instances ta021,...] [--ivms K] [--threads N]
                    [--cpu-budget SECONDS] [--gpu-budget SECONDS] [--json FILE]
       bench/gpu.py --bin NEW --baseline-bin OLD [--cases ta021,ta056:3674:12,...]
                    [--bound lb1] [--repeat 2] [--new-args "..."] [--json FILE]
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys

DEFAULT_INSTANCES = ",".join(f"ta{i:03d}" for i in range(21, 31))


def run_json(command, timeout):
    out = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    if out.returncode not in (0, 3):  # 3: the CLI stopped at its time limit
        raise RuntimeError(f"{' '.join(command)} failed ({out.returncode}): {out.stderr}")
    text = out.stdout.strip()
    try:
        result = json.loads(text)  # permbb solve: one (indented) object
    except json.JSONDecodeError:
        lines = [l for l in text.splitlines() if l.strip().startswith("{")]
        if not lines:
            raise RuntimeError(f"no JSON from {' '.join(command)}:\n{out.stdout}\n{out.stderr}")
        result = json.loads(lines[-1])  # the drivers: one line
    if "complete" not in result:  # permbb solve reports a status instead
        result["complete"] = out.returncode == 0 and result.get("status") != "incomplete"
    return result


def cli_has_gpu(binary):
    if not os.path.exists(binary):
        return False
    try:
        text = subprocess.run([binary, "solve", "--help"], capture_output=True, text=True,
                              timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "--gpu" in text and "--ivms" in text


class Runner:
    """Builds the commands for the CLI or for the fallback drivers."""

    def __init__(self, binary, use_cli):
        self.binary = binary
        self.use_cli = use_cli
        folder = os.path.dirname(binary) or "."
        self.gpu_check = os.path.join(folder, "permbb-gpu-check")
        self.cpu_check = os.path.join(folder, "permbb-cpu-check")

    def gpu(self, instance, ivms, budget):
        if self.use_cli:
            cmd = [self.binary, "solve", instance, "--ub", "opt", "--bound", "lb1", "--branch",
                   "minmin", "--gpu", "--quiet", "--json", "-"]
            if ivms:
                cmd += ["--ivms", str(ivms)]
            if budget:
                cmd += ["--time-limit", str(budget)]
        else:
            cmd = [self.gpu_check, instance, "--ub", "opt", "--branch", "minmin"]
            if ivms:
                cmd += ["--ivms", str(ivms)]
            if budget:
                cmd += ["--budget", str(budget)]
        return run_json(cmd, timeout=(budget or 3600) + 120)

    def cpu(self, instance, threads, budget):
        if self.use_cli:
            cmd = [self.binary, "solve", instance, "--ub", "opt", "--bound", "lb1", "--branch",
                   "minmin", "--no-gpu", "--threads", str(threads), "--quiet", "--json", "-"]
            if budget:
                cmd += ["--time-limit", str(budget)]
        else:
            cmd = [self.cpu_check, instance, "--ub", "opt", "--branch", "minmin", "--threads",
                   str(threads)]
            if budget:
                cmd += ["--budget", str(budget)]
        return run_json(cmd, timeout=(budget or 3600) + 120)


def device_name():
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=30)
        return out.stdout.strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        return "unknown"


def parse_case(text):
    """INSTANCE[:UB[:SECONDS]] -> (instance, ub, seconds or 0)."""
    parts = text.split(":")
    if not 1 <= len(parts) <= 3 or not parts[0]:
        raise ValueError(f"a case is INSTANCE[:UB[:SECONDS]], not {text!r}")
    ub = parts[1] if len(parts) > 1 and parts[1] else "opt"
    seconds = float(parts[2]) if len(parts) > 2 else 0.0
    return parts[0], ub, seconds


def solve_on_gpu(binary, case, bound, extra):
    instance, ub, seconds = case
    cmd = [binary, "solve", instance, "--ub", ub, "--bound", bound, "--branch", "minmin",
           "--gpu", "--heuristic-threads", "0", "--quiet", "--json", "-", *extra]
    if seconds:
        cmd += ["--time-limit", str(seconds)]
    return run_json(cmd, timeout=(seconds or 3600) + 120)


def compare_builds(args):
    """Old and new binaries alternated on every case; prints a Markdown table."""
    cases = [parse_case(c) for c in args.cases.split(",")]
    extra = shlex.split(args.new_args)
    print(f"device: {device_name()}; new: {args.bin} {args.new_args}; old: {args.baseline_bin};"
          f" bound {args.bound}; {args.repeat} runs each, alternated\n")
    print("| case | nodes (new) | same nodes | old s | new s | old nodes/s | new nodes/s | new/old |")
    print("|---|---:|---|---:|---:|---:|---:|---:|", flush=True)
    results = []
    totals = {"old": 0.0, "new": 0.0}
    for case in cases:
        runs = {"old": [], "new": []}
        for r in range(args.repeat):
            order = ("old", "new") if r % 2 == 0 else ("new", "old")
            for which in order:
                binary = args.baseline_bin if which == "old" else args.bin
                runs[which].append(solve_on_gpu(binary, case, args.bound,
                                                extra if which == "new" else []))
        seconds = {w: statistics.median(x["seconds"] for x in runs[w]) for w in runs}
        rate = {w: statistics.median(x["nodes_per_second"] for x in runs[w]) for w in runs}
        whole = not case[2]
        counts = {x["nodes_decomposed"] for w in runs for x in runs[w]}
        same = ("yes" if len(counts) == 1 else "NO") if whole else "(timed)"
        speedup = seconds["old"] / seconds["new"] if whole else rate["new"] / rate["old"]
        for w in totals:
            totals[w] += seconds[w] if whole else 0.0
        name = case[0] + (f" --ub {case[1]}") + (f", {case[2]:g} s" if case[2] else "")
        print(f"| {name} | {runs['new'][0]['nodes_decomposed']:,} | {same} | {seconds['old']:.2f} | "
              f"{seconds['new']:.2f} | {rate['old'] / 1e6:,.1f} M | {rate['new'] / 1e6:,.1f} M | "
              f"{speedup:.2f} |", flush=True)
        results.append({"case": name, "old": runs["old"], "new": runs["new"], "speedup": speedup,
                        "same_nodes": same})
    if totals["new"]:
        print(f"| whole searches, sum | | | {totals['old']:.2f} | {totals['new']:.2f} | | | "
              f"{totals['old'] / totals['new']:.2f} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0 if all(r["same_nodes"] != "NO" for r in results) else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline-bin", help="an older permbb: compare the two builds")
    parser.add_argument("--cases", default=DEFAULT_INSTANCES,
                        help="with --baseline-bin: INSTANCE[:UB[:SECONDS]],...")
    parser.add_argument("--bound", default="lb1", help="with --baseline-bin")
    parser.add_argument("--repeat", type=int, default=2, help="with --baseline-bin: runs each")
    parser.add_argument("--new-args", default="", help="with --baseline-bin: new binary only")
    parser.add_argument("--bin", default="build/permbb")
    parser.add_argument("--instances", default=DEFAULT_INSTANCES)
    parser.add_argument("--ivms", type=int, default=0, help="IVMs on the GPU (0: the engine's choice)")
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--gpu-budget", type=float, default=0, help="seconds per instance (0: solve)")
    parser.add_argument("--cpu-budget", type=float, default=0,
                        help="seconds per instance on the CPU (0: solve); the rate of a partial run")
    parser.add_argument("--json", help="write all results to this file")
    args = parser.parse_args()
    if args.baseline_bin:
        return compare_builds(args)

    runner = Runner(args.bin, cli_has_gpu(args.bin))
    print(f"device: {device_name()}; driver: {'permbb solve' if runner.use_cli else 'permbb-gpu-check'};"
          f" CPU threads: {args.threads}\n")
    print("| instance | K | GPU nodes | GPU s | GPU nodes/s | CPU nodes/s | GPU/CPU |")
    print("|---|---|---|---|---|---|---|")
    results = []
    for instance in args.instances.split(","):
        g = runner.gpu(instance, args.ivms, args.gpu_budget)
        c = runner.cpu(instance, args.threads, args.cpu_budget)
        ratio = g["nodes_per_second"] / c["nodes_per_second"] if c["nodes_per_second"] else 0
        same = g.get("complete") and c.get("complete")
        check = "" if not same else (" (= CPU)" if g["nodes_decomposed"] == c["nodes_decomposed"]
                                     else " (CPU: %d!)" % c["nodes_decomposed"])
        print(f"| {instance} | {g.get('ivms', args.ivms or 'auto')} | {g['nodes_decomposed']:,}{check} | "
              f"{g['seconds']:.2f} | {g['nodes_per_second']:,.0f} | {c['nodes_per_second']:,.0f} | "
              f"{ratio:.1f} |", flush=True)
        results.append({"instance": instance, "gpu": g, "cpu": c, "ratio": ratio})
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
