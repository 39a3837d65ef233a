#!/usr/bin/env python3
"""Calibrates the scale simulator (tools/scale, docs/scale.md) on real multi-GPU runs: the
results of bench/multi_gpu.py (--json), each run with its build's policy. The worker-side
costs are read off the runs' own breakdowns (cluster.worker_times): the pause per checkpoint
and per handover. The simulated workers give their real IVM count as K_max (--report-ivms),
as worker_process.cpp does, so that a GiveRequest asks for H real intervals. Efficiencies are relative to each file's fastest one-GPU run on the real
side, to the same seed's one worker on the simulated side. The work model's shape (--sigma,
--cascade, --inner-spread), the refill time after a new unit and the share of a halved
interval's nodes a handover moves, per handover policy, are fitted: the grid point whose
simulated efficiencies (mean over seeds) come closest to every real run, by the largest
difference. Prints every run beside its simulation and writes the fitted options (--out, and
a table beside it as .md), which `permbb-scale-sim` and bench/scale.py take as they are.

A run's policy has two parts.
- Handovers: "old" (the build before the handovers were sized by the worker count: H = 256,
  a request waits for the slice's end) or "new" (H by the worker count, requests end the
  slice); the build's name in the JSON (old, oldpolicy -> old; others -> new).
- The GPU's own steal rule: "mean" (the paper's, every build before ac4b6b2) or "largest"
  (the largest neighbour): `--gpu-steal-rule RULE` in the run's case, else a build named
  "largest", else the rule given with the file (--measured FILE:RULE), else "mean".
With --worker-model rounds the simulated workers explore in rounds under the run's rule
(permbb-scale-sim --steal-rule); with "ideal" (the default) every piece stays busy whatever
the rule, as in the fits before. --cascade-gaps and --inner-gaps put ranges without nodes
in the work model (subtrees pruned near their root), which the mean rule needs to starve.

Usage: bench/scale_calibration.py --measured FILE[:RULE] [--measured ...]
           [--sim build/permbb-scale-sim] [--seeds 6] [--out calibration.json]
           [--worker-model ideal|rounds] [--sigmas 1.5,2] [--cascades 0] [--inner-spreads 0]
           [--refills 0.2] [--handover-shares 0.5] [--old-handover-shares 0.5]
           [--cascade-gaps 0] [--inner-gaps 0] [--pieces 1024] [--round 0.05]
"""
import argparse
import itertools
import json
import subprocess
import sys
from collections import defaultdict

HANDOVER_OPTIONS = {
    "old": ["--interrupt", "-1", "--handover-intervals", "256"],
    "new": ["--interrupt", "0.03", "--handover-intervals", "0"],
}
STEAL_RULES = ("mean", "largest")
GRID = {"sigma": [1.0, 1.5, 2.0], "cascade": [0.05, 0.1, 0.15], "inner_spread": [0.0],
        "cascade_gaps": [0.0], "inner_gaps": [0.0],
        "refill": [0.05, 0.2], "handover_share": [0.5], "old_handover_share": [0.5, 0.0]}


def grid_flag(name):
    """The option that gives a grid's values: the name in the plural (--sigmas)."""
    return name if name.endswith("s") else name + "s"


def handovers_of(build):
    return "old" if build.startswith("old") else "new"


def steal_rule_of(run, file_rule):
    case = run.get("case") or ""
    words = case.split()
    if "--gpu-steal-rule" in words:
        return words[words.index("--gpu-steal-rule") + 1]
    if run["build"] in STEAL_RULES:
        return run["build"]
    return file_rule


def measured_file(spec):
    """FILE or FILE:RULE -> (path, the rule of its runs that name none)."""
    path, colon, rule = spec.rpartition(":")
    if not colon or rule not in STEAL_RULES:
        return spec, "mean"
    return path, rule


def measured_runs(specs):
    """Every multi-GPU run (file, build, case, gpus, policy, real efficiency, handovers), the
    worker costs per handover policy and the workload's shape; the fastest one-GPU run of
    each file is its T1."""
    runs = []
    pauses = defaultdict(lambda: {"checkpoint": [], "handover": []})
    shape = {}
    for spec in specs:
        path, file_rule = measured_file(spec)
        file_runs = json.load(open(path))["runs"]
        one = [r for r in file_runs if r["gpus"] == 1]
        if not one:
            sys.exit(f"{path}: no one-GPU run to measure efficiency against")
        t1 = min(r["seconds"] for r in one)
        shape = {"nodes": one[0]["nodes_decomposed"], "rate": one[0]["nodes_decomposed"] / t1}
        for r in file_runs:
            handovers = handovers_of(r["build"])
            if r["gpus"] > 1:
                runs.append({"file": path.rsplit("/", 1)[-1], "build": r["build"],
                             "gpus": r["gpus"], "handovers": r["cluster"]["handovers"],
                             "policy": (handovers, steal_rule_of(r, file_rule)),
                             "real": t1 / (r["gpus"] * r["seconds"])})
            times = r["cluster"].get("worker_times") or []
            checkpoints = sum(t["checkpoints"] for t in times)
            if checkpoints:
                pauses[handovers]["checkpoint"].append(
                    sum(t["checkpoint_seconds"] for t in times) / checkpoints)
            if times and r["cluster"]["handovers"]:
                pauses[handovers]["handover"].append(
                    sum(t["handover_seconds"] for t in times) / r["cluster"]["handovers"])
    mean = lambda values, default: sum(values) / len(values) if values else default
    costs = {p: {"checkpoint_pause": mean(v["checkpoint"], 0.0),
                 "handover_pause": mean(v["handover"], 0.0)} for p, v in pauses.items()}
    for policy in HANDOVER_OPTIONS:  # a policy measured without breakdown takes the other's
        costs.setdefault(policy, next(iter(costs.values())))
    return runs, costs, shape


def policy_options(args, policy, costs, params):
    """The simulator's options for a run's policy at a grid point."""
    handovers, rule = policy
    share = params["old_handover_share" if handovers == "old" else "handover_share"]
    worker = (["--steal-rule", rule, "--round", str(args.round)]
              if args.worker_model == "rounds" else ["--steal-rule", "ideal"])
    return ["--sigma", str(params["sigma"]), "--cascade", str(params["cascade"]),
            "--inner-spread", str(params["inner_spread"]), "--refill", str(params["refill"]),
            *gap_options(params),
            "--handover-share", str(share), "--pieces", str(args.pieces),
            "--host-loss", str(args.host_loss), "--report-ivms",
            "--checkpoint-pause", f"{costs[handovers]['checkpoint_pause']:.4g}",
            "--handover-pause", f"{costs[handovers]['handover_pause']:.4g}",
            *worker, *HANDOVER_OPTIONS[handovers]]


def gap_options(params):
    """The work model's gaps (ranges without nodes), named only when asked for, so that the
    options of the fits made before them read as they were."""
    names = {"cascade_gaps": "--cascade-gaps", "inner_gaps": "--inner-gaps"}
    return [word for name, flag in names.items() if params[name] > 0
            for word in (flag, str(params[name]))]


def simulate(args, shape, options, workers):
    """Mean simulated efficiency and handovers per worker count over the seeds, each against
    the same seed's one worker (as a real run's is against its one GPU, whose time holds the
    same worker-side costs)."""
    efficiency = defaultdict(float)
    handovers = defaultdict(float)
    workers = sorted(set(workers) | {1})
    for seed in range(1, args.seeds + 1):
        cmd = ["nice", args.sim, "--jobs", "30", "--nodes", str(shape["nodes"]),
               "--rate", f"{shape['rate']:.6g}", "--ivms", str(args.ivms), "--slice", "0.2",
               "--checkpoint", "5", "--service", "0,3e-7,1.5e-4", "--seed", str(seed),
               "--workers", ",".join(map(str, workers)), *options]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed: {proc.stderr}")
        runs = {r["workers"]: r for r in map(json.loads, proc.stdout.splitlines())}
        for w, r in runs.items():
            efficiency[w] += runs[1]["wall_seconds"] / (w * r["wall_seconds"]) / args.seeds
            handovers[w] += r["handovers"] / args.seeds
    return {"efficiency": efficiency, "handovers": handovers}


def table(runs, sims):
    lines = ["| file | build | policy (handovers, steal rule) | GPUs | real | simulated | "
             "difference | handovers real / simulated |", "|---|---|---|---:|---:|---:|---:|---:|"]
    for run in runs:
        sim = sims[run["policy"]]
        simulated = 100 * sim["efficiency"][run["gpus"]]
        real = 100 * run["real"]
        lines.append(f"| {run['file']} | {run['build']} | {', '.join(run['policy'])} | "
                     f"{run['gpus']} | {real:.1f} % | {simulated:.1f} % | "
                     f"{simulated - real:+.1f} | {run['handovers']} / "
                     f"{sim['handovers'][run['gpus']]:.0f} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--measured", action="append", required=True,
                        help="a bench/multi_gpu.py --json file, FILE:RULE to give the steal "
                             "rule of its runs that name none")
    parser.add_argument("--sim", default="build/permbb-scale-sim")
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--ivms", type=int, default=16384)
    parser.add_argument("--pieces", type=int, default=1024)
    parser.add_argument("--worker-model", choices=["ideal", "rounds"], default="ideal",
                        help="ideal: every piece busy; rounds: the run's steal rule")
    parser.add_argument("--round", type=float, default=0.05,
                        help="seconds between steal phases (--worker-model rounds)")
    parser.add_argument("--host-loss", type=float, default=0.01,
                        help="each GPU's rate lost when four share the host (the runs' "
                             "explore rates at four GPUs against one)")
    parser.add_argument("--predict-workers", default="2,3,4",
                        help="worker counts of the prediction for this build's policy")
    parser.add_argument("--out", help="write the fitted options and the prediction here, "
                                      "and the table of every run beside it (.md)")
    for name, values in GRID.items():
        parser.add_argument("--" + grid_flag(name).replace("_", "-"), default=None,
                            help=f"the grid's values of {name}, comma-separated (default: "
                                 f"{','.join(map(str, values))})")
    args = parser.parse_args()
    given = {name: getattr(args, grid_flag(name)) for name in GRID}
    grid = {name: [float(v) for v in given[name].split(",")] if given[name] else values
            for name, values in GRID.items()}
    runs, costs, shape = measured_runs(args.measured)
    workers = sorted({r["gpus"] for r in runs} |
                     {int(w) for w in args.predict_workers.split(",")})
    current = ("new", "largest")  # this build's policy, for the prediction
    policies = sorted({current} | {r["policy"] for r in runs})
    log = []
    best = None
    for values in itertools.product(*grid.values()):
        params = dict(zip(grid, values))
        cache = {}  # policies the worker model does not tell apart share their simulations
        sims = {}
        for p in policies:
            options = policy_options(args, p, costs, params)
            key = tuple(options)
            if key not in cache:
                cache[key] = simulate(args, shape, options, workers)
            sims[p] = cache[key]
        worst = max(abs(100 * (sims[r["policy"]]["efficiency"][r["gpus"]] - r["real"]))
                    for r in runs)
        log.append(f"{params}: largest difference {worst:.1f} points")
        print(log[-1], flush=True)
        if best is None or worst < best[0]:
            best = (worst, params, sims)
    worst, params, sims = best
    summary = (f"fitted: {params}, worker model {args.worker_model}, worker costs {costs}; "
               f"largest difference {worst:.1f} points")
    rows = table(runs, sims)
    print(f"\n{summary}\n\n{rows}")
    prediction = {g: sims[current]["efficiency"][g] for g in workers}
    print("\nprediction, new policy and largest rule: " +
          ", ".join(f"{g} GPUs {100 * e:.1f} %" for g, e in prediction.items()))
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"params": params, "worker_model": args.worker_model,
                       "worker_costs": costs, "shape": shape,
                       "largest_difference_points": worst,
                       "runs": [{**r, "policy": list(r["policy"]),
                                 "simulated": sims[r["policy"]]["efficiency"][r["gpus"]]}
                                for r in runs],
                       "options": policy_options(args, current, costs, params),
                       "prediction_new": prediction}, f, indent=1)
        with open(args.out.rsplit(".", 1)[0] + ".md", "w") as f:
            f.write(f"Command: {' '.join(sys.argv)}\n\n" + "\n".join(log) +
                    f"\n\n{summary}\n\n{rows}\n")


if __name__ == "__main__":
    main()
