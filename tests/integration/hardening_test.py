"""Inputs at the edges, as a new user meets them: every one gives a right answer or one line
and exit status 2, at once, and never loses the result.

Run by ctest with PERMBB_BIN and PERMBB_TEST_DATA (tests/data) in the environment. Expected
optima come from a brute force written here, or from the same solver run without the edge
(a restart must reach what an uninterrupted run reaches), never from a tabled output.
"""
import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest

from flowshop_reference import brute_force, makespan, read_instance, write_instance

BIN = os.environ["PERMBB_BIN"]
TEST_DATA = os.environ["PERMBB_TEST_DATA"]
INSTANCES = os.path.join(TEST_DATA, "instances")
CHECKPOINTS = os.path.join(TEST_DATA, "checkpoints")


def run(*args, timeout=60, **kwargs):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=timeout,
                          **kwargs)


class OneLineError(unittest.TestCase):
    def assert_one_line_exit_2(self, proc):
        self.assertEqual(proc.returncode, 2, proc.stderr)
        lines = proc.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertTrue(lines[0].startswith("permbb: error:"), proc.stderr)
        self.assertLess(len(lines[0]), 300, proc.stderr)


class TinyInstances(unittest.TestCase):
    def test_one_and_two_jobs_reach_the_brute_force_optimum_on_every_engine_setting(self):
        cases = {"n1m5": [[73], [98], [9], [33], [16]], "n2m3": [[58, 61], [84, 49], [27, 13]],
                 "n2m1": [[5, 7]], "n2zeros": [[0, 0], [0, 0]]}
        with tempfile.TemporaryDirectory() as folder:
            for name, times in cases.items():
                path = write_instance(folder, name + ".txt", times)
                for threads in ["1", "2", "3"]:
                    for bound in ["lb1", "lb2", "lb1+lb2"]:
                        proc = run("solve", path, "--no-gpu", "--threads", threads, "--bound",
                                   bound, "--quiet", "--json", "-")
                        self.assertEqual(proc.returncode, 0, f"{name} {threads} {proc.stderr}")
                        result = json.loads(proc.stdout)
                        self.assertEqual(result["status"], "optimal", name)
                        self.assertEqual(result["makespan"], brute_force(times), name)
                        order = [j - 1 for j in result["permutation"]]
                        self.assertEqual(makespan(times, order), result["makespan"], name)


class NumericOptions(OneLineError):
    def test_nan_infinite_and_out_of_range_values_are_refused_in_one_line(self):
        path = os.path.join(INSTANCES, "plain_3x2.txt")
        cases = [
            ["solve", path, "--progress", "nan"], ["solve", path, "--progress", "inf"],
            ["solve", path, "--time-limit", "nan"], ["solve", path, "--time-limit", "-inf"],
            ["solve", path, "--checkpoint-interval", "nan"],
            ["solve", path, "--heuristic-seconds", "nan"],
            ["solve", path, "--rank-timeout", "nan"], ["solve", path, "--rank-timeout", "0"],
            # Not above --worker-checkpoint-interval (30 s by default): it would fire in a
            # healthy run.
            ["solve", path, "--rank-timeout", "30"],
            ["solve", path, "--rank-timeout", "2", "--worker-checkpoint-interval", "5"],
            ["solve", path, "--worker-steal-checkpoint-interval", "0"],
            ["solve", path, "--worker-steal-checkpoint-interval", "nan"],
            ["solve", path, "--node-limit", "18446744073709551616"],
            ["solve", path, "--node-limit", "-1"], ["solve", path, "--threads", "4097"],
            ["solve", path, "--threads", "abc"], ["solve", path, "--threads", "2.5"],
            ["solve", path, "--seed", "1e3"], ["heuristic", path, "--time-limit", "nan"],
            ["heuristic", path, "--iterations", "99999999999999999999999"],
            ["knapsack", "--generate", "sc,10,100,1", "--time-limit", "nan"],
            ["knapsack", "--generate", "sc,10,100,1", "--capacity", "99999999999999999999999"],
            ["pcmax", "--generate", "uniform,5,2,1,9,1", "--epsilon", "nan"],
        ]
        for args in cases:
            start = time.monotonic()
            self.assert_one_line_exit_2(run(*args, timeout=20))
            self.assertLess(time.monotonic() - start, 5, args)


class FileNames(unittest.TestCase):
    def test_a_name_that_is_not_utf8_is_escaped_in_every_json_result(self):
        with tempfile.TemporaryDirectory() as folder:
            times = [[3, 1, 4], [1, 5, 9]]
            path = write_instance(folder, "plain.txt", times)
            odd = os.path.join(folder.encode(), b"bad\xffname.txt")
            os.rename(path, odd)
            checkpoint = os.path.join(folder, "odd.ckpt")
            proc = subprocess.run([BIN.encode(), b"solve", odd, b"--no-gpu", b"--quiet", b"--json",
                                   b"-", b"--checkpoint", checkpoint.encode()],
                                  capture_output=True, timeout=60)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            result = json.loads(proc.stdout)
            self.assertEqual(result["makespan"], brute_force(times))
            self.assertIn("\\xFF", result["instance"])
            proc = subprocess.run([BIN.encode(), b"heuristic", odd, b"--method", b"neh", b"--json",
                                   b"-"], capture_output=True, timeout=60)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertIn("\\xFF", json.loads(proc.stdout)["instance"])
            for args in [["checkpoint", checkpoint], ["checkpoint", checkpoint, "--json"]]:
                proc = run(*args)
                self.assertEqual(proc.returncode, 0, proc.stderr)
                self.assertIn("\\xFF", proc.stdout)

    def test_a_checkpoint_holding_such_a_name_prints(self):
        proc = run("checkpoint", os.path.join(CHECKPOINTS, "ta021_name_not_utf8.ckpt"), "--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("\\x", json.loads(proc.stdout)["instance"])


class SpecialFiles(OneLineError):
    def test_fifo_and_devices_are_refused_at_once(self):
        with tempfile.TemporaryDirectory() as folder:
            fifo = os.path.join(folder, "fifo")
            os.mkfifo(fifo)
            plain = os.path.join(INSTANCES, "plain_3x2.txt")
            for args in [["solve", fifo], ["solve", "ta020", "--restart", fifo],
                         ["solve", plain, "--json", fifo], ["checkpoint", fifo],
                         ["instance", fifo], ["instance", "/dev/zero"], ["solve", "/dev/null"],
                         ["knapsack", fifo], ["pcmax", fifo, "--epsilon", "0.5"],
                         ["heuristic", plain, "--json", fifo], ["solve", plain, "--json", folder]]:
                start = time.monotonic()
                self.assert_one_line_exit_2(run(*args, timeout=20))
                self.assertLess(time.monotonic() - start, 5, args)

    def test_an_output_that_would_overwrite_the_instance_is_refused(self):
        with tempfile.TemporaryDirectory() as folder:
            path = write_instance(folder, "mine.txt", [[3, 1, 4], [1, 5, 9]])
            with open(path) as f:
                before = f.read()
            for option in ["--checkpoint", "--json"]:
                self.assert_one_line_exit_2(run("solve", path, option, path, "--no-gpu"))
            with open(path) as f:
                self.assertEqual(f.read(), before)

    def test_ub_opt_needs_taillard_data_not_only_a_taillard_name(self):
        with tempfile.TemporaryDirectory() as folder:
            fake = write_instance(folder, "ta005.txt", [[3, 1, 4], [1, 5, 9]])
            self.assert_one_line_exit_2(run("solve", fake, "--ub", "opt", "--no-gpu"))
            real = os.path.join(folder, "ta020.txt")
            with open(real, "w") as f:
                f.write(run("instance", "ta020").stdout)
            proc = run("solve", real, "--ub", "opt", "--no-gpu", "--node-limit", "1000",
                       "--quiet", "--json", "-")
            self.assertEqual(proc.returncode, 3, proc.stderr)
            self.assertEqual(json.loads(proc.stdout)["initial_ub_origin"], "best-known")


class Restarts(OneLineError):
    def test_a_restart_keeps_a_best_schedule_equal_to_the_initial_bound(self):
        # NEH's schedule is optimal on this instance: the first incumbent is the answer, and a
        # restart must report it, as the uninterrupted run does.
        path = os.path.join(INSTANCES, "neh_optimal_10x5.txt")
        times = read_instance(path)
        common = [path, "--no-gpu", "--threads", "1", "--quiet", "--json", "-"]
        whole = json.loads(run("solve", *common).stdout)
        self.assertEqual(whole["status"], "optimal")
        with tempfile.TemporaryDirectory() as folder:
            ckpt = os.path.join(folder, "r.ckpt")
            proc = run("solve", *common, "--node-limit", "200", "--checkpoint", ckpt)
            self.assertEqual(proc.returncode, 3, proc.stderr)
            proc = run("solve", *common, "--restart", ckpt)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            restarted = json.loads(proc.stdout)
        self.assertEqual(restarted["status"], "optimal")
        self.assertEqual(restarted["makespan"], whole["makespan"])
        self.assertEqual(restarted["nodes_decomposed"], whole["nodes_decomposed"])
        order = [j - 1 for j in restarted["permutation"]]
        self.assertEqual(makespan(times, order), restarted["makespan"])

    def test_a_finished_one_job_checkpoint_restarts_to_the_same_optimum(self):
        with tempfile.TemporaryDirectory() as folder:
            times = [[73], [98], [9]]
            path = write_instance(folder, "one.txt", times)
            ckpt = os.path.join(folder, "one.ckpt")
            first = run("solve", path, "--no-gpu", "--quiet", "--checkpoint", ckpt)
            self.assertEqual(first.returncode, 0, first.stderr)
            proc = run("solve", path, "--no-gpu", "--quiet", "--restart", ckpt, "--json", "-")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            result = json.loads(proc.stdout)
            self.assertEqual((result["status"], result["makespan"]), ("optimal", 180))
            # NEH's schedule (180) is the bound: the only leaf's bound reaches it and is pruned,
            # as any node's would be; the optimum is NEH's schedule.
            self.assertEqual(result["leaves"], 0)

    def test_checkpoints_with_a_valid_checksum_and_inconsistent_content_are_refused(self):
        # A restart saves to its own file (and locks it): copies, never the repository's data.
        for name in ["ta021_best_inconsistent.ckpt", "ta021_units_overlap.ckpt"]:
            with tempfile.TemporaryDirectory() as folder:
                copy = shutil.copy(os.path.join(CHECKPOINTS, name), folder)
                proc = run("solve", "ta021", "--no-gpu", "--threads", "1", "--quiet",
                           "--restart", copy, "--time-limit", "5")
                self.assert_one_line_exit_2(proc)


class Limits(unittest.TestCase):
    def test_a_node_limit_stops_near_the_limit(self):
        # --help: a run passes the limit by about a millisecond of search. Allowed here: what
        # 10 ms explore at the rate of a whole run (the CI machine is shared and noisy).
        path = os.path.join(INSTANCES, "neh_optimal_10x5.txt")
        common = [path, "--no-gpu", "--threads", "1", "--quiet", "--json", "-", "--ub", "807"]
        whole = json.loads(run("solve", *common).stdout)
        rate = whole["nodes_decomposed"] / max(whole["seconds"], 1e-3)
        for limit in [5, 2000]:
            proc = run("solve", *common, "--node-limit", str(limit))
            self.assertEqual(proc.returncode, 3, proc.stderr)
            nodes = json.loads(proc.stdout)["nodes_decomposed"]
            self.assertGreaterEqual(nodes, limit)
            self.assertLess(nodes, limit + 0.01 * rate, f"limit {limit}, {rate:.0f} nodes/s")

    def test_a_time_limit_and_sigterm_act_within_seconds_on_a_large_instance(self):
        # 1500 x 400: NEH alone takes many seconds; the limit counts from the start.
        with tempfile.TemporaryDirectory() as folder:
            import random
            rng = random.Random(7)
            times = [[rng.randint(1, 99) for _ in range(1500)] for _ in range(400)]
            path = write_instance(folder, "large.txt", times)
            start = time.monotonic()
            proc = run("solve", path, "--no-gpu", "--threads", "2", "--time-limit", "2",
                       "--quiet", "--json", "-", timeout=120)
            took = time.monotonic() - start
            self.assertEqual(proc.returncode, 3, proc.stderr)
            result = json.loads(proc.stdout)
            self.assertEqual(result["status"], "incomplete")
            order = [j - 1 for j in result["permutation"]]
            self.assertEqual(sorted(order), list(range(1500)))
            self.assertEqual(makespan(times, order), result["makespan"])
            self.assertLess(took, 8)
            ckpt = os.path.join(folder, "large.ckpt")
            child = subprocess.Popen([BIN, "solve", path, "--no-gpu", "--threads", "2", "--quiet",
                                      "--checkpoint", ckpt], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)
            time.sleep(1.5)
            sent = time.monotonic()
            child.terminate()
            child.wait(timeout=60)
            self.assertEqual(child.returncode, 3, child.stderr.read())
            self.assertLess(time.monotonic() - sent, 4)
            self.assertEqual(run("checkpoint", ckpt).returncode, 0)

    def test_many_heuristic_threads_on_a_tiny_instance_end_at_once(self):
        path = os.path.join(INSTANCES, "plain_3x2.txt")
        start = time.monotonic()
        proc = run("solve", path, "--no-gpu", "--quiet", "--heuristic-threads", "4096")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertLess(time.monotonic() - start, 5)


if __name__ == "__main__":
    unittest.main()
