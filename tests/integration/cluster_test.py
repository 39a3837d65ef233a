"""The cluster level with real processes: `mpirun -np P permbb solve ...` (rank 0 coordinates,
the others work), oversubscribed on the CI machine's cores. Every run has a timeout.

Expected optima are independent facts: brute force (here, in Python) for tiny instances,
Taillard's published makespans for ta instances; node counts are compared with the
single-process solver, whose count is itself checked against cuts of the search space.
"""
import json
import os
import subprocess
import tempfile
import unittest

from flowshop_reference import brute_force, write_instance

BIN = os.environ["PERMBB_BIN"]
MPIRUN = os.environ.get("PERMBB_MPIRUN", "mpirun")
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1", OMPI_MCA_btl_vader_single_copy_mechanism="none")
TIMEOUT = 120


def mpirun(ranks, *args, timeout=TIMEOUT, engine="--no-gpu"):
    cmd = [MPIRUN, "--oversubscribe", "-np", str(ranks), BIN, "solve", *args,
           "--threads", "1", "--json", "-", "--quiet", engine]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=ENV)
    result = json.loads(proc.stdout) if proc.stdout.strip().startswith("{") else None
    return proc, result


def single(*args):
    cmd = [BIN, "solve", *args, "--threads", "1", "--json", "-", "--quiet", "--no-gpu"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
    return json.loads(proc.stdout)


class ClusterSolves(unittest.TestCase):
    def test_random_instances_reach_the_brute_force_optimum_for_every_rank_count(self):
        import random
        rng = random.Random(51)
        with tempfile.TemporaryDirectory() as folder:
            for trial, ranks in enumerate([2, 3, 5, 8]):
                times = [[rng.randint(1, 40) for _ in range(7)] for _ in range(4)]
                path = write_instance(folder, f"r{trial}.txt", times)
                proc, result = mpirun(ranks, path)
                self.assertEqual(proc.returncode, 0, proc.stderr)
                self.assertEqual(result["status"], "optimal")
                self.assertEqual(result["makespan"], brute_force(times), f"{ranks} ranks")
                self.assertEqual(result["engine"], "cluster")

    def test_one_and_two_jobs_reach_the_brute_force_optimum(self):
        # Fewer jobs than workers: some workers get no work at all.
        with tempfile.TemporaryDirectory() as folder:
            for name, times in [("n1", [[73], [98], [9]]), ("n2", [[58, 61], [84, 49], [27, 13]])]:
                for ranks in [2, 3, 5]:
                    proc, result = mpirun(ranks, write_instance(folder, name + ".txt", times))
                    self.assertEqual(proc.returncode, 0, f"{name} {ranks}: {proc.stderr}")
                    self.assertEqual(result["status"], "optimal")
                    self.assertEqual(result["makespan"], brute_force(times), f"{name} {ranks}")
                    self.assertEqual(result["engine"], "cluster")
                    if name == "n1":
                        # NEH's schedule, the only one, sets the upper bound to its makespan:
                        # the bound prunes the only leaf, and the root is not counted.
                        self.assertEqual((result["nodes_decomposed"], result["leaves"]), (0, 0))

    def test_a_node_limit_ends_the_job_incomplete_with_exit_3(self):
        # ta021 at its optimum takes minutes; the limit stops it after about 10^5 nodes.
        proc, result = mpirun(3, "ta021", "--ub", "opt", "--node-limit", "100000", timeout=60)
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertEqual(result["status"], "incomplete")
        self.assertGreaterEqual(result["nodes_decomposed"], 100000)
        self.assertTrue(result["cluster"]["coverage_holds"])

    def test_taillard_optima_from_neh(self):
        # ta002 and ta005 (20 x 5): 1359 and 1235 (Taillard's table, shared/notes).
        for name, optimum in [("ta002", 1359), ("ta005", 1235)]:
            proc, result = mpirun(3, name)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(result["makespan"], optimum)

    def test_node_count_at_a_fixed_bound_equals_the_single_process_count(self):
        expected = single("ta011", "--ub", "opt")["nodes_decomposed"]
        splits = 0
        for ranks in [2, 3, 5, 8]:
            proc, result = mpirun(ranks, "ta011", "--ub", "opt",
                                  "--worker-checkpoint-interval", "0.05")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(result["status"], "no-better-than-ub")
            self.assertEqual(result["nodes_decomposed"], expected, f"{ranks} ranks")
            self.assertTrue(result["cluster"]["coverage_holds"])
            splits += result["cluster"]["splits"]
        self.assertGreater(splits, 0)  # the exactness above held across splits

    def test_time_limit_ends_the_job_incomplete_with_exit_3(self):
        proc, result = mpirun(3, "ta021", "--ub", "opt", "--time-limit", "1")
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertEqual(result["status"], "incomplete")
        self.assertTrue(result["cluster"]["coverage_holds"])

    def test_the_coordinator_writes_the_progress_log_with_its_load(self):
        with tempfile.TemporaryDirectory() as folder:
            log = os.path.join(folder, "progress.jsonl")
            # About 6 million nodes (two seconds here), so that several ticks come before the end.
            proc, result = mpirun(3, "ta011", "--ub", "opt", "--branch", "bwd", "--progress",
                                  "0.1", "--worker-checkpoint-interval", "0.05",
                                  "--progress-log", log)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            with open(log) as f:
                lines = [json.loads(line) for line in f]
            self.assertEqual(lines[0]["event"], "start")
            self.assertEqual(lines[0]["ranks"], 3)
            self.assertEqual(lines[-1]["event"], "end")
            self.assertTrue(lines[-1]["complete"])
            self.assertEqual(lines[-1]["run_remaining"], 0)
            self.assertIsNone(lines[-1]["space_remaining_log10"])
            self.assertEqual(lines[-1]["nodes_total"], result["nodes_decomposed"])
            ticks = [line for line in lines if line["event"] == "progress"]
            self.assertGreater(len(ticks), 2)
            for tick in ticks:
                for key in ("coordinator_busy", "checkpoints", "splits", "idle_workers"):
                    self.assertIn(key, tick)
                self.assertTrue(0 <= tick["coordinator_busy"] <= 1)
            shares = [tick["run_remaining"] for tick in ticks]
            self.assertEqual(shares, sorted(shares, reverse=True), "the remaining work never grows")

    def test_the_global_best_reaches_every_worker(self):
        # From an upper bound above the optimum (1484 for ta017, shared/notes), improvements
        # found by one worker reach the others: each reports pruning with the optimum.
        proc, result = mpirun(4, "ta017", "--ub", "1520", "--worker-checkpoint-interval", "0.05")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(result["makespan"], 1484)
        self.assertEqual(result["cluster"]["worker_lowest_bounds"], [1484, 1484, 1484])

    def test_heuristic_threads_in_the_workers_keep_the_optimum_global(self):
        # ta012 (20 x 10): 1659 (shared/notes). Each worker runs a heuristic thread and
        # promotes its subproblems; the coordinator's incumbent is the best of all: the
        # optimum. No worker prunes below it; one found it or learnt it before its last
        # report (a worker already idle when a heuristic finds it late reports no more: its
        # last report may name an earlier bound; test_the_global_best_reaches_every_worker
        # checks the broadcast where the search outlasts the improvement).
        proc, result = mpirun(3, "ta012", "--heuristic-threads", "1", "--heuristic-seconds",
                              "0.5", "--worker-checkpoint-interval", "0.05")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(result["status"], "optimal")
        self.assertEqual(result["makespan"], 1659)
        self.assertEqual(sorted(result["permutation"]), list(range(1, 21)))
        bounds = result["cluster"]["worker_lowest_bounds"]
        self.assertEqual(len(bounds), 2)
        self.assertTrue(all(b is None or b >= 1659 for b in bounds), bounds)
        self.assertIn(1659, bounds)
        self.assertTrue(result["cluster"]["coverage_holds"])

    def test_workers_summarize_their_heuristics_at_log_level_debug_only(self):
        base = [MPIRUN, "--oversubscribe", "-np", "3", BIN, "solve", "ta012", "--threads", "1",
                "--no-gpu", "--heuristic-threads", "1", "--heuristic-seconds", "0.2"]
        for level, lines in (("info", 0), ("debug", 2)):
            proc = subprocess.run(base + ["--log-level", level], capture_output=True, text=True,
                                  timeout=TIMEOUT, env=ENV)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            summaries = [l for l in proc.stderr.splitlines() if "heuristic runs (" in l]
            self.assertEqual(len(summaries), lines, proc.stderr)
            # The root beam search is deterministic: the second worker does not repeat it.
            if lines:
                self.assertGreaterEqual(sum("root beam none)" in l for l in summaries), 1,
                                        proc.stderr)

    def test_a_failing_worker_aborts_the_job_with_a_message(self):
        proc, _ = mpirun(3, "ta017", "--ub", "opt", "--fault-injection", "worker-exception",
                         timeout=60)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("rank 1: internal error: injected fault", proc.stderr)

    def test_bad_input_exits_2_on_every_rank_without_hanging(self):
        proc, _ = mpirun(3, "/nonexistent/instance.txt")
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn("cannot open", proc.stderr)

    def test_bad_input_that_one_rank_alone_sees_ends_every_rank(self):
        # Rank 0 alone reads the restart file and writes checkpoints; the workers alone build
        # their explorers. Each case used to leave the other ranks waiting forever.
        with tempfile.TemporaryDirectory() as folder:
            bad = os.path.join(folder, "bad.ckpt")
            with open(bad, "wb") as f:
                f.write(b"not a checkpoint at all")
            proc, _ = mpirun(3, "ta001", "--restart", bad, timeout=60)
            self.assertEqual(proc.returncode, 2, proc.stderr)
            self.assertIn("not a permbb checkpoint", proc.stderr)

            missing = os.path.join(folder, "no-such-folder", "run.ckpt")
            proc, _ = mpirun(3, "ta001", "--checkpoint", missing, timeout=60)
            self.assertEqual(proc.returncode, 2, proc.stderr)
            self.assertIn("cannot save checkpoint", proc.stderr)

            # 65 machines: the workers refuse --gpu with LB2 whether or not a GPU is there
            # (more machines than the GPU's LB2 holds, or no device).
            wide = os.path.join(folder, "wide.txt")
            with open(wide, "w") as f:
                f.write("4 65\n" + "".join(f"{k + 1} 2 3 4\n" for k in range(65)))
            proc, _ = mpirun(3, wide, "--bound", "lb2", timeout=60, engine="--gpu")
            self.assertEqual(proc.returncode, 2, proc.stderr)
            self.assertIn("rank 1: --gpu", proc.stderr)


if __name__ == "__main__":
    unittest.main()
