"""The cluster through the real executable against brute force: `mpirun -np K permbb solve`
(K = 2 to 5, oversubscribed) on random instances of 1 to 8 jobs and 1 to 6 machines whose
shapes provoke ties and degenerate cases (as tests/differential_cases.hpp: zero times, few
distinct values, identical jobs or machines, times up to 10^6), every bound and branching
rule in turn. From no bound and from just above the optimum the result is optimal with the
brute-force makespan and a schedule that has it; from the optimum and below it the result is
no-better-than-ub, and at the optimum the node count is the single-process solver's for every
rank count. Seeded: a failure names the seed, the settings and the instance file's content.
"""
import json
import random
import subprocess
import tempfile
import unittest

from cluster_test import BIN, ENV, MPIRUN
from flowshop_reference import brute_force, makespan, write_instance

SEED = 20240611
TIMEOUT = 60
BOUNDS = ["lb1", "lb2", "lb2-adjacent", "lb1+lb2"]
RULES = ["minmin", "minmin-fwd-ties", "maxsum", "fwd", "bwd"]
SHAPES = ["uniform", "mostly-zero", "few-values", "equal-jobs", "equal-machines", "constant",
          "near-maximum"]


def random_times(rng, n, m):
    """times[k][j], machine-major, of one of the SHAPES."""
    shape = rng.choice(SHAPES)
    high = rng.choice([1, 3, 10, 100, 1000000])
    times = [[rng.randint(0, high) for _ in range(n)] for _ in range(m)]
    if shape == "mostly-zero":
        times = [[t if rng.random() < 0.25 else 0 for t in row] for row in times]
    elif shape == "few-values":
        times = [[(high // 2) * rng.randint(0, 2) for _ in row] for row in times]
    elif shape == "equal-jobs":
        for j in range(1, n):
            if rng.random() < 0.5:
                copied = rng.randrange(j)
                for row in times:
                    row[j] = row[copied]
    elif shape == "equal-machines":
        for k in range(1, m):
            if rng.random() < 0.5:
                times[k] = list(times[rng.randrange(k)])
    elif shape == "constant":
        value = rng.randint(0, high)
        times = [[value] * n for _ in range(m)]
    elif shape == "near-maximum":
        times = [[rng.randint(max(0, high - 16), high) for _ in range(n)] for _ in range(m)]
    return shape, times


def solve(path, settings, ub, ranks=None, threads=1):
    """`permbb solve` under mpirun with `ranks` ranks, or alone; its exit code and JSON."""
    cmd = [BIN, "solve", path, "--bound", settings[0], "--branch", settings[1], "--ub", str(ub),
           "--threads", str(threads), "--json", "-", "--quiet", "--no-gpu",
           "--worker-checkpoint-interval", "0.01"]
    if ranks is not None:
        cmd = [MPIRUN, "--allow-run-as-root", "--oversubscribe", "-np", str(ranks)] + cmd
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, env=ENV)
    result = json.loads(proc.stdout) if proc.stdout.strip().startswith("{") else None
    return proc, result


class DifferentialCluster(unittest.TestCase):
    def check(self, context, proc, result):
        self.assertEqual(proc.returncode, 0, f"{context}\n{proc.stderr}")
        self.assertIsNotNone(result, context)

    def test_every_bound_and_rule_matches_brute_force_for_any_rank_count(self):
        rng = random.Random(SEED)
        # Jobs per case: one and two jobs often (the special sizes), then up to 8.
        jobs = [1, 2, 1, 2, 3, 4, 5, 6, 7, 3, 4, 5, 6, 7, 8, 2, 3, 4, 5, 6]
        with tempfile.TemporaryDirectory() as folder:
            for case, n in enumerate(jobs):
                m = rng.randint(1, 6)
                shape, times = random_times(rng, n, m)
                path = write_instance(folder, f"case{case}.txt", times)
                with open(path) as f:
                    content = f.read()
                settings = (BOUNDS[case % 4], RULES[(case // 4) % 5])
                optimum = brute_force(times)
                ranks = 2 + case % 4
                context = (f"seed {SEED} case {case} ({shape}), {settings[0]} + {settings[1]}, "
                           f"{ranks} ranks, instance:\n{content}")
                self.check_optimal(path, settings, "inf", ranks, times, optimum, context)
                if optimum >= 1:  # --ub takes positive bounds
                    self.check_fixed_bound(path, settings, optimum, ranks, context)
                # Just above or just below the optimum, in turn (about 80 runs in all).
                other_ranks = 2 + (case + 1) % 4
                if case % 2 == 0:
                    self.check_optimal(path, settings, optimum + 1, other_ranks, times, optimum,
                                       context)
                elif optimum >= 2:
                    proc, result = solve(path, settings, optimum - 1, other_ranks)
                    self.check(f"--ub {optimum - 1}: {context}", proc, result)
                    self.assertEqual(result["status"], "no-better-than-ub", context)

    def check_optimal(self, path, settings, ub, ranks, times, optimum, context):
        proc, result = solve(path, settings, ub, ranks, threads=1 + ranks % 2)
        context = f"--ub {ub}: {context}"
        self.check(context, proc, result)
        self.assertEqual(result["status"], "optimal", context)
        self.assertEqual(result["makespan"], optimum, context)
        order = [j - 1 for j in result["permutation"]]
        self.assertEqual(sorted(order), list(range(len(times[0]))), context)
        self.assertEqual(makespan(times, order), optimum, context)

    def check_fixed_bound(self, path, settings, optimum, ranks, context):
        """At the optimum the bound never improves: the tree, hence the node count, is fixed."""
        context = f"--ub {optimum}: {context}"
        proc, alone = solve(path, settings, optimum, threads=2)
        self.check(context, proc, alone)
        self.assertEqual(alone["status"], "no-better-than-ub", context)
        proc, result = solve(path, settings, optimum, ranks, threads=1 + ranks % 2)
        self.check(context, proc, result)
        self.assertEqual(result["status"], "no-better-than-ub", context)
        self.assertEqual(result["nodes_decomposed"], alone["nodes_decomposed"], context)
        if "cluster" in result:  # (one job: rank 0 may answer alone, as a single process)
            self.assertTrue(result["cluster"]["coverage_holds"], context)


if __name__ == "__main__":
    unittest.main()
