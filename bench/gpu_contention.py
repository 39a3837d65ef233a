#!/usr/bin/env python3
"""Does anything beside the GPU explorer starve it? On the GPU machine, each process layout
is run with the heuristic threads at their default and with none, `--repeat` times each, for
`--seconds` of search on an instance that outlasts them:

  one process      permbb solve CASE --gpu                      (GPU 0)
  cluster          mpirun -np 1+G permbb solve CASE --gpu       (one worker per GPU)
  two per GPU      mpirun -np 1+2G permbb solve CASE --gpu      (two workers per GPU)

mpirun runs with its default process binding (Open MPI binds each rank to one core when it
starts at most two ranks): that is the layout users get. Prints min / median / max nodes/s
per layout and setting. Exits 1 when a median with heuristic threads is below 90 % of its
twin's without them, or when any run is below 50 % of its layout's median.

Usage: bench/gpu_contention.py [--case "ta056 --ub 3674"] [--seconds 10] [--repeat 5]
                               [--bin build/permbb] [--mpirun mpirun] [--json FILE]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

from bench_common import table_header, table_row

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def gpu_count():
    out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout
    return len([line for line in out.splitlines() if line.startswith("GPU ")])


def layouts(gpus):
    """(name, launcher prefix) for each layout on a machine of `gpus` GPUs."""
    return [("one process", []),
            ("cluster, 1 worker/GPU", ["-np", str(1 + gpus)]),
            ("cluster, 2 workers/GPU", ["-np", str(1 + 2 * gpus)])]


def run_once(args, launcher, heuristics):
    solve = [args.bin, "solve", *args.case.split(), "--gpu", "--time-limit", str(args.seconds),
             "--json", "-", "--quiet"]
    if not heuristics:
        solve += ["--heuristic-threads", "0"]
    cmd = [args.mpirun, *launcher, *solve] if launcher else solve
    proc = subprocess.run(cmd, capture_output=True, text=True, env=ENV)
    if proc.returncode not in (0, 3):
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    result = json.loads(proc.stdout)
    # The search's own rate: the set-up (GPU contexts) is logged apart and not counted.
    return result["nodes_decomposed"] / max(result["run_seconds"], 1e-9)


def check(rows):
    """The failures: (what, value, bound) for each broken rule."""
    failures = []
    medians = {(r["layout"], r["heuristics"]): statistics.median(r["rates"]) for r in rows}
    for (layout, heuristics), median in medians.items():
        if heuristics and median < 0.9 * medians[(layout, False)]:
            failures.append((f"{layout}: median with heuristic threads", median,
                             0.9 * medians[(layout, False)]))
    for r in rows:
        median = medians[(r["layout"], r["heuristics"])]
        for rate in r["rates"]:
            if rate < 0.5 * median:
                failures.append((f"{r['layout']} (heuristics {r['heuristics']}): a run", rate,
                                 0.5 * median))
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", default="ta056 --ub 3674",
                        help="instance and solve options; the search must outlast --seconds")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--bin", default="build/permbb")
    parser.add_argument("--mpirun", default="mpirun")
    parser.add_argument("--json", help="write every rate to this file")
    args = parser.parse_args()
    gpus = gpu_count()
    if gpus == 0:
        sys.exit("gpu_contention.py: no GPU (nvidia-smi -L lists none)")
    print(f"GPUs: {gpus}; case: {args.case}; {args.seconds} s per run", flush=True)
    rows = []
    for name, launcher in layouts(gpus):
        for heuristics in (True, False):
            rates = [run_once(args, launcher, heuristics) for _ in range(args.repeat)]
            rows.append({"layout": name, "heuristics": heuristics, "rates": rates})
    table_header(["layout", "heuristic threads", "min nodes/s", "median", "max"])
    for r in rows:
        table_row([r["layout"], "default" if r["heuristics"] else "0",
                   f"{min(r['rates']) / 1e6:.1f} M", f"{statistics.median(r['rates']) / 1e6:.1f} M",
                   f"{max(r['rates']) / 1e6:.1f} M"])
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"gpus": gpus, "case": args.case, "rows": rows}, f, indent=2)
    failures = check(rows)
    for what, value, bound in failures:
        print(f"FAIL: {what}: {value / 1e6:.1f} M nodes/s < {bound / 1e6:.1f} M")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
