#!/usr/bin/env python3
"""The scale simulator over worker counts 1, 2, 4, ..., for the 2022 paper's workloads
(tools/scale, docs/scale.md), for today's coordinator (handovers) and the flat one before it:
a Markdown table of wall time, efficiency, rank 0's busy fraction, messages and bytes per
second and idle time per worker, and a figure of efficiency and rank 0's load against the GPU
count, the flat design dashed, the paper's Figure 10 points beside them.

With --calibration FILE (bench/scale_calibration.py --out) the simulator takes the options
fitted on real runs; --measured FILE (bench/multi_gpu.py --json, repeatable) puts the real
runs' efficiencies on the figure beside the simulated curves.

Usage: bench/scale.py [--sim build/permbb-scale-sim] [--workload vfr30_15_2 ...]
                      [--design handovers|flat ...] [--max-workers 4096] [--cpu-scale 1]
                      [--calibration FILE] [--measured FILE ...] [--point LABEL=GPUS:EFF ...]
                      [--figure scale.png] [--json FILE] [-- EXTRA permbb-scale-sim OPTIONS]
"""
import argparse
import json
import os
import re
import subprocess
import sys

from bench_common import table_header, table_row

# 2022 §5.3, Figure 10 (VFR30_15 workloads on V100s): efficiency at 32, 64 and 128 GPUs, and
# the 215x speed-up on 384 (56 %).
PAPER_EFFICIENCY = {32: 0.84, 64: 0.89, 128: 0.89, 384: 215 / 384}


def simulate(args, workload, design, counts, extra):
    cmd = [args.sim, "--workload", workload, "--design", design,
           "--workers", ",".join(map(str, counts)), "--cpu-scale", str(args.cpu_scale), *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr}")
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


def print_table(name, rows):
    print(f"\n{name}\n")
    table_header(["GPUs", "wall s", "efficiency", "rank 0 busy", "messages/s", "MB/s",
                  "mean idle s", "splits (handovers)", "report period s", "nodes exact"])
    for r in rows:
        table_row([r["workers"], f"{r['wall_seconds']:.1f}", f"{100 * r['efficiency']:.1f} %",
                   f"{100 * r['coordinator_busy']:.1f} %", f"{r['messages_per_second']:.0f}",
                   f"{r['bytes_per_second'] / 1e6:.1f}", f"{r['mean_idle_seconds']:.2f}",
                   f"{r['splits']} ({r['handovers']})", f"{r['checkpoint_period_seconds']:.0f}",
                   "yes" if r["nodes_exact"] and r["coverage_holds"] else "NO"])


def measured_efficiencies(paths):
    """(label, [(GPUs, efficiency)]) per case and build of bench/multi_gpu.py results, each
    against the one-GPU run of its file."""
    series = {}
    for path in paths:
        runs = json.load(open(path))["runs"]
        # The machine, where the file's name says it (multi_gpu_h200x4_...: 4 x H200).
        machine = re.search(r"h(\d00)x(\d+)", os.path.basename(path))
        where = f", {machine.group(2)} x H{machine.group(1)}" if machine else ""
        by_case = {}
        for r in runs:
            by_case.setdefault(os.path.basename(r["case"].split()[0]), []).append(r)
        for case, rows in by_case.items():
            one = [r for r in rows if r["gpus"] == 1]
            if not one:
                continue
            t1 = min(r["seconds"] for r in one)
            for r in rows:
                label = f"{case.removesuffix('_Gap.txt')} measured ({r['build']}{where})"
                series.setdefault(label, []).append((r["gpus"], t1 / (r["gpus"] * r["seconds"])))
    return {k: sorted(v) for k, v in series.items()}


def parse_point(text):
    """--point "LABEL=GPUS:EFFICIENCY": one real run measured outside bench/multi_gpu.py (a
    restart chain), drawn as a filled marker with its label."""
    label, _, value = text.rpartition("=")
    gpus, _, efficiency = value.partition(":")
    try:
        return label, (int(gpus), float(efficiency))
    except ValueError:
        sys.exit(f"--point {text}: expected LABEL=GPUS:EFFICIENCY, e.g. \"large=4:0.98\"")


def draw(path, results, measured, points=()):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (eff, busy) = plt.subplots(1, 2, figsize=(11, 4))
    for name, rows in results.items():
        gpus = [r["workers"] for r in rows]
        style = "--" if name.endswith("flat") else "-"
        eff.plot(gpus, [r["efficiency"] for r in rows], style, marker="o", label=f"{name} (simulated)")
        busy.plot(gpus, [r["coordinator_busy"] for r in rows], style, marker="o", label=name)
    eff.plot(list(PAPER_EFFICIENCY), list(PAPER_EFFICIENCY.values()), "k^",
             label="2022 Figure 10 (V100s)")
    for label, series in measured.items():
        eff.plot([g for g, _ in series], [e for _, e in series], "s", markersize=7,
                 markerfacecolor="none", label=label)
    for label, (gpus, efficiency) in points:
        eff.plot([gpus], [efficiency], "D", markersize=7, label=label)
    for axis, title in ((eff, "parallel efficiency"), (busy, "rank 0 busy fraction")):
        axis.set_xscale("log", base=2)
        axis.set_xlabel("GPUs")
        axis.set_ylim(0, 1.05)
        axis.set_title(title)
        axis.grid(True, alpha=0.3)
    eff.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sim", default="build/permbb-scale-sim")
    parser.add_argument("--workload", action="append",
                        help="vfr30_15_2, vfr30_15_5, vfr30_15_9, ta058 (default: all)")
    parser.add_argument("--design", action="append", choices=["handovers", "flat"],
                        help="today's coordinator (handovers) or the flat one (default: both)")
    parser.add_argument("--max-workers", type=int, default=4096)
    parser.add_argument("--cpu-scale", type=float, default=1.0)
    parser.add_argument("--calibration", help="bench/scale_calibration.py --out: its options")
    parser.add_argument("--measured", action="append", default=[],
                        help="bench/multi_gpu.py --json results to draw beside the curves")
    parser.add_argument("--point", action="append", default=[],
                        help="LABEL=GPUS:EFFICIENCY, a real run from elsewhere (repeatable)")
    parser.add_argument("--figure")
    parser.add_argument("--json")
    args, extra = parser.parse_known_args()
    extra = [e for e in extra if e != "--"]
    if args.calibration:
        extra = json.load(open(args.calibration))["options"] + extra
    counts = [1 << k for k in range(args.max_workers.bit_length()) if 1 << k <= args.max_workers]
    workloads = args.workload or ["vfr30_15_2", "vfr30_15_5", "vfr30_15_9", "ta058"]
    designs = args.design or ["handovers", "flat"]
    results = {f"{w} {d}": simulate(args, w, d, counts, extra) for w in workloads for d in designs}
    for name, rows in results.items():
        print_table(name, rows)
    # The results first: a figure that fails (no matplotlib) loses no simulation.
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=1)
    if args.figure:
        draw(args.figure, results, measured_efficiencies(args.measured),
             [parse_point(p) for p in args.point])


if __name__ == "__main__":
    main()
