"""End-to-end tests of `permbb pcmax`: real processes, real files.

Run by ctest with PERMBB_BIN (the executable) in the environment. Expected values are
computed here from the instance (loads, lower bound, optimum by enumeration), never taken
from the solver's output.
"""
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import unittest

BIN = os.environ["PERMBB_BIN"]


def run(*args, timeout=120):
    return subprocess.run([BIN, "pcmax", *args], capture_output=True, text=True, timeout=timeout)


def gpu_visible():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    proc = subprocess.run([smi, "-L"], capture_output=True, text=True)
    return proc.returncode == 0 and "GPU " in proc.stdout


class PcmaxCli(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="pcmax_cli_")

    def tearDown(self):
        shutil.rmtree(self.folder, ignore_errors=True)

    def write(self, name, text):
        path = os.path.join(self.folder, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_json_schedule_is_valid_and_within_the_guarantee(self):
        times = [17, 5, 23, 9, 11, 30, 4, 8, 21]
        machines = 3
        path = self.write("small.txt", f"{len(times)} {machines}\n" + " ".join(map(str, times)))
        proc = run(path, "--epsilon", "0.3", "--no-gpu", "--json", "-", "--quiet")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        result = json.loads(proc.stdout)
        for key in ["instance", "jobs", "machines", "epsilon", "k", "guarantee", "makespan",
                    "lower_bound", "initial_upper_bound", "final_target", "machine_of_job",
                    "jobs_of_machine", "loads", "engine", "threads", "split", "dp", "seconds"]:
            self.assertIn(key, result)
        for key in ["tables", "targets", "entries", "largest_table", "bisection_rounds",
                    "seconds", "per_table"]:
            self.assertIn(key, result["dp"])
        self.assertEqual((result["jobs"], result["machines"], result["k"]), (9, 3, 4))
        self.assertEqual(result["engine"], "cpu")
        machine_of_job = result["machine_of_job"]
        self.assertEqual(len(machine_of_job), len(times))
        loads = [0] * machines
        for job, machine in enumerate(machine_of_job):
            self.assertIn(machine, range(1, machines + 1))
            loads[machine - 1] += times[job]
        self.assertEqual(loads, result["loads"])
        self.assertEqual(max(loads), result["makespan"])
        self.assertEqual(result["lower_bound"], max(-(-sum(times) // machines), max(times)))
        optimum = min(max(sum(t for t, a in zip(times, assign) if a == i) for i in range(machines))
                      for assign in itertools.product(range(machines), repeat=len(times)))
        self.assertLessEqual(result["final_target"], optimum)
        self.assertLess(result["makespan"] * 4, 5 * result["final_target"])
        self.assertLessEqual(result["makespan"], 1.3 * optimum)
        for table in result["dp"]["per_table"]:
            for key in ["target", "round", "entries", "classes", "long_jobs", "feasible",
                        "machines_needed", "seconds", "device", "blocks", "window"]:
                self.assertIn(key, table)

    def test_human_output(self):
        proc = run("--generate", "uniform,12,3,1,50,4", "--epsilon", "0.5", "--no-gpu", "--quiet")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for line in ["makespan", "lower bound", "guarantee", "schedule", "dp", "seconds"]:
            self.assertIn(line, proc.stdout)

    def test_generated_instances_and_splits_agree(self):
        results = []
        for split in ["2", "4"]:
            proc = run("--generate", "pareto,20,4,5,200,1.5,7", "--epsilon", "0.3", "--no-gpu",
                       "--split", split, "--json", "-", "--quiet")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            results.append(json.loads(proc.stdout))
        self.assertEqual(results[0]["machine_of_job"], results[1]["machine_of_job"])
        self.assertEqual(results[0]["final_target"], results[1]["final_target"])

    def test_bad_files_exit_2_naming_file_and_line(self):
        cases = {"bad_token.txt": ("3 2\n4 5\nseven\n", ":3:"),
                 "bad_zero.txt": ("2 1\n0 3\n", ":2:"),
                 "bad_short.txt": ("4 2\n1 2\n3\n", ":3:"),
                 "bad_extra.txt": ("1 1\n5\n6\n", ":3:")}
        for name, (text, line) in cases.items():
            proc = run(self.write(name, text), "--epsilon", "0.3", "--no-gpu")
            self.assertEqual(proc.returncode, 2, name)
            lines = proc.stderr.strip().splitlines()
            self.assertEqual(len(lines), 1, proc.stderr)
            self.assertIn(name + line, lines[0])

    def test_bad_options_exit_2(self):
        path = self.write("ok.txt", "2 1\n3 4\n")
        self.assertEqual(run(path).returncode, 2)  # --epsilon is required
        self.assertEqual(run(path, "--epsilon", "0").returncode, 2)
        self.assertEqual(run(path, "--epsilon", "abc").returncode, 2)
        self.assertEqual(run(path, "--epsilon", "0.3", "--split", "3").returncode, 2)
        self.assertEqual(run("--epsilon", "0.3").returncode, 2)  # no instance
        self.assertEqual(run(path, "--generate", "uniform,5,2,1,9,1", "--epsilon", "0.3")
                         .returncode, 2)
        self.assertEqual(run("--generate", "uniform,5,2,9,1,1", "--epsilon", "0.3").returncode, 2)
        self.assertEqual(run("/nonexistent/jobs.txt", "--epsilon", "0.3").returncode, 2)
        self.assertEqual(run(path, "--epsilon", "0.3", "--gpu", "--no-gpu").returncode, 2)

    def test_a_table_beyond_memory_is_refused_with_its_size(self):
        proc = run("--generate", "uniform,200,20,1,1000,1", "--epsilon", "0.01", "--no-gpu")
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn("entries", proc.stderr)
        self.assertIn("--epsilon 0.01", proc.stderr)

    def test_gpu_flag_without_a_gpu_exits_2(self):
        proc = run("--generate", "uniform,10,3,1,50,2", "--epsilon", "0.5", "--gpu", "--quiet")
        if gpu_visible():
            self.assertEqual(proc.returncode, 0, proc.stderr)
        else:
            self.assertEqual(proc.returncode, 2, proc.stderr)
            self.assertIn("--gpu", proc.stderr)


if __name__ == "__main__":
    unittest.main()
