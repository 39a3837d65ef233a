#!/usr/bin/env python3
"""LB2 on the GPU: Taillard ta021..ta030 (20 x 20) at their optima (--ub opt, MinMin), so the
tree depends only on the bound. For each instance and each configuration: decomposed nodes,
seconds and nodes/second, and the total time per configuration. Configurations:

  lb1             LB1 (the baseline, measured in the same run)
  lb2             LB2 over all machine pairs, remapped lanes (the default)
  lb2-static      the same with the static thread-to-child mapping (2016 Algorithm 4)
  lb2-global      LB2 with Johnson's tables read from global memory instead of shared
  lb2-adjacent    LB2 over adjacent machine pairs only
  lb1+lb2         LB1 for both children sets, LB2 for the kept set's survivors (remapped)
  lb1+lb2-static  the same, static mapping
  lb2-blocks-W, lb1+lb2-blocks-W
                  the exploration kernel in blocks of W warps (the default: 16 with Johnson's
                  tables in shared memory, 4 otherwise)
  lb2-screen-N, lb1+lb2-screen-N
                  LB2 in two phases (warp_lb2.cuh, bound_items_lb2): each lane screens its
                  child with the first N pairs, then the warp finishes the uncut ones together

A configuration may add permbb-gpu-check options: lb2@steps=32@warps-per-block=4 runs lb2 with
--steps 32 --warps-per-block 4.

With --baseline-bin OLD, each configuration also runs with OLD (named base:CONFIG), right after
the same configuration with --bin, so that speed ratios come from one run on one device.

Tree sizes are set beside the 2016 paper's Table 1 (LB2 at the optimum, millions of nodes).
Drives permbb-gpu-check (built with the CUDA explorer, beside permbb). Prints a Markdown
table; --json writes the raw results.

Usage: bench/gpu_lb2.py [--bin build/permbb-gpu-check] [--baseline-bin OLD]
                        [--instances ta021,...] [--configs lb1,lb2,...] [--budget SECONDS]
                        [--json FILE]
       bench/gpu_lb2.py --from RESULTS.jsonl|RESULTS.json   (the table of recorded results)
"""
import argparse
import json
import subprocess
import sys

DEFAULT_INSTANCES = ",".join(f"ta{i:03d}" for i in range(21, 31))
CONFIGS = {
    "lb1": ["--bound", "lb1"],
    "lb2": ["--bound", "lb2"],
    "lb2-static": ["--bound", "lb2", "--static-map"],
    "lb2-global": ["--bound", "lb2", "--johnson-placement", "2"],
    "lb2-shared": ["--bound", "lb2", "--johnson-placement", "1"],
    "lb2-adjacent": ["--bound", "lb2-adjacent"],
    "lb1+lb2": ["--bound", "lb1+lb2"],
    "lb1+lb2-static": ["--bound", "lb1+lb2", "--static-map"],
}
for warps in (4, 16):
    CONFIGS[f"lb2-blocks-{warps}"] = ["--bound", "lb2", "--warps-per-block", str(warps)]
    CONFIGS[f"lb1+lb2-blocks-{warps}"] = ["--bound", "lb1+lb2", "--warps-per-block", str(warps)]
for screen in (0, 1, 2, 4, 8):
    CONFIGS[f"lb2-screen-{screen}"] = ["--bound", "lb2", "--lb2-screen", str(screen)]
    CONFIGS[f"lb1+lb2-screen-{screen}"] = ["--bound", "lb1+lb2", "--lb2-screen", str(screen)]
DEFAULT_CONFIGS = "lb1,lb2,lb2-static,lb2-adjacent,lb1+lb2,lb1+lb2-static"
# 2016 paper, Table 1: decomposed nodes (millions) with LB2 at the optimum, ta021..ta030.
PAPER_TABLE1_MILLIONS = {21: 41.4, 22: 22.1, 23: 140.8, 24: 40.1, 25: 41.4, 26: 71.4,
                         27: 57.1, 28: 8.1, 29: 6.8, 30: 1.6}


BASELINE = "base:"


def config_flags(config):
    """The permbb-gpu-check options of a configuration: its base's, then its @option=value."""
    base, *extras = config.removeprefix(BASELINE).split("@")
    flags = list(CONFIGS[base])
    for extra in extras:
        option, _, value = extra.partition("=")
        flags += [f"--{option}"] + ([value] if value else [])
    return flags


def run_one(binary, instance, config, budget):
    command = [binary, instance, "--ub", "opt", "--budget", str(budget)] + config_flags(config)
    out = subprocess.run(command, capture_output=True, text=True, timeout=budget + 120)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({out.returncode}): {out.stderr}")
    lines = [l for l in out.stdout.splitlines() if l.strip().startswith("{")]
    result = json.loads(lines[-1])
    result["config"] = config
    return result


def table(results, configs, instances):
    rows = ["| instance | paper LB2 (M) | " +
            " | ".join(f"{c} nodes (M) | {c} s | {c} M nodes/s" for c in configs) + " |",
            "|---|---|" + "---|---|---|" * len(configs)]
    by_key = {(r["instance"], r["config"]): r for r in results}
    totals = {c: 0.0 for c in configs}
    for instance in instances:
        number = int(instance[2:])
        cells = [instance, f"{PAPER_TABLE1_MILLIONS.get(number, float('nan')):.1f}"]
        for c in configs:
            r = by_key.get((instance, c))
            if r is None:
                cells += ["-", "-", "-"]
                continue
            mark = "" if r["complete"] else " (cut)"
            cells += [f"{r['nodes_decomposed'] / 1e6:.2f}{mark}", f"{r['seconds']:.2f}",
                      f"{r['nodes_per_second'] / 1e6:.2f}"]
            totals[c] += r["seconds"]
        rows.append("| " + " | ".join(cells) + " |")
    cells = ["total seconds", ""]
    for c in configs:
        cells += ["", f"{totals[c]:.1f}", ""]
    rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def count_mismatches(results):
    """Complete runs of one instance and bound whose node counts differ (mapping, placement and
    screen change the speed only): lines naming them, empty when all agree."""
    counts = {}
    for r in results:
        if r["complete"]:
            counts.setdefault((r["instance"], r["bound"]), {})[r["config"]] = r["nodes_decomposed"]
    return [f"COUNT MISMATCH {instance} {bound}: {by_config}"
            for (instance, bound), by_config in counts.items()
            if len(set(by_config.values())) > 1]


def config_of(result):
    """The configuration name a recorded driver line was run with."""
    name = result["bound"]
    if result.get("mapping") == "static":
        name += "-static"
    return name


def print_recorded(path):
    """The table of recorded results: driver lines (JSON Lines) or a --json file of this script."""
    with open(path) as f:
        text = f.read()
    if text.lstrip().startswith("["):
        results = json.loads(text)
    else:
        results = [json.loads(line) for line in text.splitlines() if line.strip().startswith("{")]
    for r in results:
        r.setdefault("config", config_of(r))
    configs = list(dict.fromkeys(r["config"] for r in results))
    instances = list(dict.fromkeys(r["instance"] for r in results))
    print(f"device: {results[0].get('device', '?')}")
    print(table(results, configs, instances))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default="build/permbb-gpu-check")
    parser.add_argument("--baseline-bin",
                        help="an older permbb-gpu-check run beside --bin (configs base:NAME)")
    parser.add_argument("--instances", default=DEFAULT_INSTANCES)
    parser.add_argument("--configs", default=DEFAULT_CONFIGS)
    parser.add_argument("--budget", type=float, default=120.0,
                        help="seconds per run before it is cut (marked '(cut)')")
    parser.add_argument("--json", help="write the raw results here")
    parser.add_argument("--from", dest="recorded",
                        help="print the table of recorded permbb-gpu-check lines instead")
    args = parser.parse_args()
    if args.recorded:
        print_recorded(args.recorded)
        return
    instances = args.instances.split(",")
    configs = args.configs.split(",")
    unknown = [c for c in configs if c.split("@")[0] not in CONFIGS]
    if unknown:
        sys.exit(f"unknown configuration(s) {unknown}; known: {', '.join(CONFIGS)}")
    runs = [(args.bin, c) for c in configs]
    if args.baseline_bin:
        runs = [run for c in configs
                for run in ((args.baseline_bin, BASELINE + c), (args.bin, c))]
    results = []
    for instance in instances:
        for binary, config in runs:
            r = run_one(binary, instance, config, args.budget)
            results.append(r)
            print(json.dumps(r), file=sys.stderr, flush=True)
    configs = [config for _, config in runs]
    if results:
        print(f"device: {results[0].get('device', '?')}, IVMs: {results[0].get('ivms', '?')}")
    print(table(results, configs, instances))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    mismatches = count_mismatches(results)
    if mismatches:
        sys.exit("\n".join(mismatches))


if __name__ == "__main__":
    main()
