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
import time
import unittest
from fractions import Fraction

BIN = os.environ["PERMBB_BIN"]


def run(*args, timeout=120):
    return subprocess.run([BIN, "pcmax", *args], capture_output=True, text=True, timeout=timeout)


def exact_makespan(times, machines):
    """OPT by enumerating every assignment of jobs to machines (tiny instances only)."""
    return min(max(sum(t for t, a in zip(times, assign) if a == i) for i in range(machines))
               for assign in itertools.product(range(machines), repeat=len(times)))


def uniform_times(n, lo, hi, seed):
    """The times of --generate uniform,n,m,lo,hi,seed as docs/pcmax.md specifies them:
    SplitMix64 seeded with seed, lo + below(hi - lo + 1) per job."""
    mask = (1 << 64) - 1
    state = seed

    def next_output():
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    span = hi - lo + 1
    rejected = (1 << 64) % span
    times = []
    for _ in range(n):
        x = next_output()
        while x < rejected:
            x = next_output()
        times.append(lo + x % span)
    return times


def lpt_makespan(times, machines):
    """Longest first, each job onto a least-loaded machine."""
    loads = [0] * machines
    for t in sorted(times, reverse=True):
        loads[loads.index(min(loads))] += t
    return max(loads)


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
        for key in ["instance", "jobs", "machines", "status", "epsilon", "k", "guarantee",
                    "makespan", "lower_bound", "initial_upper_bound", "final_target",
                    "targets_left", "machine_of_job", "jobs_of_machine", "loads", "engine",
                    "threads", "split", "dp", "seconds", "time_limit"]:
            self.assertIn(key, result)
        self.assertEqual(result["status"], "complete")
        self.assertEqual(result["targets_left"], [result["final_target"]] * 2)
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

    def test_default_engine_is_chosen_by_the_table_at_the_lower_bound(self):
        # The estimate computed here from the rounding rules (docs/pcmax.md, "The algorithm"):
        # T = LB, k from epsilon, long jobs t k > T, units floor(t / delta), one dimension per
        # distinct unit count. Tables this small stay on the CPU, with or without a GPU.
        for times, machines, epsilon in [([17, 5, 23, 9, 11, 30, 4, 8, 21], 3, 0.3),
                                         ([4, 4, 4, 4], 8, 0.3), ([9, 9, 9, 9, 9, 1], 2, 0.5)]:
            path = self.write("auto.txt", f"{len(times)} {machines}\n" + " ".join(map(str, times)))
            proc = run(path, "--epsilon", str(epsilon), "--json", "-", "--quiet")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            result = json.loads(proc.stdout)
            target = max(-(-sum(times) // machines), max(times))
            k = next(k for k in itertools.count(1) if k * Fraction(str(epsilon)) >= 1)
            delta = max(1, target // (k * k))
            long_units = [t // delta for t in times if t * k > target]
            entries = 0
            if len(long_units) > machines:
                entries = 1
                for units in set(long_units):
                    entries *= long_units.count(units) + 1
            self.assertEqual(result["engine_choice"], "auto")
            self.assertEqual(result["table_entries_at_lower_bound"], entries, times)
            self.assertEqual(result["engine"], "cpu")
        proc = run(path, "--epsilon", "0.5", "--no-gpu", "--json", "-", "--quiet")
        result = json.loads(proc.stdout)
        self.assertEqual(result["engine_choice"], "cpu")
        self.assertNotIn("table_entries_at_lower_bound", result)

    def test_gpu_flag_without_a_gpu_exits_2(self):
        proc = run("--generate", "uniform,10,3,1,50,2", "--epsilon", "0.5", "--gpu", "--quiet")
        if gpu_visible():
            self.assertEqual(proc.returncode, 0, proc.stderr)
        else:
            self.assertEqual(proc.returncode, 2, proc.stderr)
            self.assertIn("--gpu", proc.stderr)


class PcmaxEdges(unittest.TestCase):
    """Edge instances against an exact optimum, and every numeric option past its limits."""

    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="pcmax_edges_")

    def tearDown(self):
        shutil.rmtree(self.folder, ignore_errors=True)

    def write(self, name, text):
        path = os.path.join(self.folder, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def assert_refused(self, args, *fragments):
        proc = run(*args)
        self.assertEqual(proc.returncode, 2, f"{args}: {proc.stdout} {proc.stderr}")
        lines = proc.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, f"{args}: {proc.stderr}")
        for fragment in fragments:
            self.assertIn(fragment, lines[0], args)

    def assert_within_guarantee(self, name, times, machines, epsilon):
        path = self.write(name + ".txt", f"{len(times)} {machines}\n" + " ".join(map(str, times)))
        proc = run(path, "--epsilon", epsilon, "--no-gpu", "--json", "-", "--quiet")
        self.assertEqual(proc.returncode, 0, f"{name}: {proc.stderr}")
        result = json.loads(proc.stdout)
        loads = [0] * machines
        for job, machine in enumerate(result["machine_of_job"]):
            self.assertIn(machine, range(1, machines + 1), name)
            loads[machine - 1] += times[job]
        self.assertEqual(len(result["machine_of_job"]), len(times), name)
        self.assertEqual(max(loads), result["makespan"], name)
        optimum = exact_makespan(times, machines)
        k = result["k"]
        self.assertGreaterEqual(k * Fraction(epsilon), 1, name)
        self.assertLessEqual(result["final_target"], optimum, name)
        self.assertLess(k * result["makespan"], (k + 1) * result["final_target"], name)
        self.assertLessEqual(result["makespan"], (1 + Fraction(epsilon)) * optimum, name)

    def test_edge_instances_within_the_guarantee_of_the_exact_optimum(self):
        top = 10**11
        cases = {"one_job": ([7], 1), "one_job_many_machines": ([7], 5),
                 "two_on_one": ([7, 3], 1), "two_on_two": ([7, 3], 2), "two_on_four": ([7, 3], 4),
                 "equal": ([5] * 6, 4), "equal_m_equals_n": ([5] * 4, 4),
                 "longest_times": ([top, top, top - 1, top - 2, 1], 2),
                 "longest_one_machine": ([top] * 5, 1)}
        for name, (times, machines) in cases.items():
            for epsilon in ["0.001", "0.3", "1", "1e9"]:
                self.assert_within_guarantee(f"{name}_{epsilon}", times, machines, epsilon)

    def test_bad_instances_exit_2_naming_file_and_line(self):
        cases = {"no_jobs.txt": ("0 3\n", ":1:"), "no_machines.txt": ("2 0\n3 4\n", ":1:"),
                 "zero_time.txt": ("2 1\n0 3\n", ":2:"),
                 "too_long.txt": ("2 1\n3\n100000000001\n", ":3:"),
                 "overflow.txt": ("2 1\n3 99999999999999999999\n", ":2:"),
                 "many_machines.txt": ("1 10000001\n3\n", ":1:"),
                 "negative.txt": ("1 1\n-3\n", ":2:")}
        for name, (text, line) in cases.items():
            path = self.write(name, text)
            self.assert_refused([path, "--epsilon", "0.3", "--no-gpu"], path + line)

    def test_numeric_options_out_of_range_exit_2_naming_the_option(self):
        path = self.write("ok.txt", "3 2\n4 5 6\n")
        cases = {"--epsilon": ["0", "0.000999", "1.1e9", "nan", "inf", "-0.5", "1e-400", "x"],
                 "--threads": ["-1", "4097", "99999999999"],
                 "--split": ["1", "3", "16"],
                 "--memory-limit": ["-1", "nan", "inf", "1.1e9"],
                 "--gpu-memory-limit": ["-1", "nan", "1.1e12"],
                 "--time-limit": ["nan", "inf", "-1", "-0.5", "1e400", "x", ""],
                 "--progress": ["0", "-1", "nan", "inf", "x"]}
        for option, values in cases.items():
            for value in values:
                args = [path, "--no-gpu"] + ([] if option == "--epsilon" else ["--epsilon", "0.3"])
                self.assert_refused(args + [option, value], option)

    def test_generate_fields_past_their_limits(self):
        for spec in ["uniform,0,2,1,9,1", "uniform,10000001,2,1,9,1", "uniform,5,0,1,9,1",
                     "uniform,5,2,0,9,1", "uniform,5,2,1,100000000001,1", "uniform,5,2,9,1,1",
                     "uniform,5,2,1,9,-1", "uniform,5,2,1,9,18446744073709551616",
                     "uniform,99999999999999999999,2,1,9,1", "pareto,5,2,1,9,nan,1",
                     "pareto,5,2,1,9,0,1", "pareto,5,2,1,9,1e-310,1", "uniform,5,2,1,9"]:
            self.assert_refused(["--generate", spec, "--epsilon", "0.3", "--no-gpu"],
                                "--generate " + spec)

    def test_a_memory_limit_below_one_byte_is_not_the_default(self):
        proc = run("--generate", "uniform,12,3,1,50,4", "--epsilon", "0.3", "--no-gpu",
                   "--memory-limit", "1e-10")
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn("the memory limit is 1 B", proc.stderr)

    def test_guarantee_bound_past_63_bits(self):
        # One machine, 92234 jobs of 10^11 and one of 500: T* = OPT = sum t, and
        # T* (k + 1) with k = 1000 passes 2^63.
        times = [10**11] * 92234 + [500]
        path = self.write("long.txt", f"{len(times)} 1\n" + "\n".join(map(str, times)))
        proc = run(path, "--epsilon", "0.001", "--no-gpu", "--quiet")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        total = sum(times)
        self.assertGreater(total * 1001, 2**63)
        line = next(l for l in proc.stdout.splitlines() if l.startswith("guarantee"))
        printed = line.split("T* = ")[1].split()[0]
        self.assertLessEqual(abs(Fraction(printed) - Fraction(total * 1001, 1000)),
                             Fraction(1, 200), line)
        self.assertIn(f"with T* = {total} ", line)


class PcmaxExactAndBounds(unittest.TestCase):
    """--exact against enumeration, the lower bounds and the gap, the candidates, and an exact
    run cut short by --time-limit."""

    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="pcmax_exact_")

    def tearDown(self):
        shutil.rmtree(self.folder, ignore_errors=True)

    def solve(self, times, machines, *args):
        path = os.path.join(self.folder, "jobs.txt")
        with open(path, "w") as f:
            f.write(f"{len(times)} {machines}\n" + " ".join(map(str, times)))
        proc = run(path, "--no-gpu", *args, "--json", "-", "--quiet")
        self.assertIn(proc.returncode, (0, 3), proc.stderr)
        return proc.returncode, json.loads(proc.stdout)

    def assert_valid(self, times, machines, result):
        loads = [0] * machines
        self.assertEqual(len(result["machine_of_job"]), len(times))
        for job, machine in enumerate(result["machine_of_job"]):
            self.assertIn(machine, range(1, machines + 1))
            loads[machine - 1] += times[job]
        self.assertEqual(loads, result["loads"])
        self.assertEqual(max(loads), result["makespan"])

    def test_exact_proves_the_optimum_found_by_enumeration(self):
        cases = [([17, 5, 23, 9, 11, 30, 4, 8], 3), ([7, 7, 6, 6, 5, 5, 4], 3),
                 ([9, 8, 7, 6, 5, 4, 3, 2], 2), ([13, 11, 10, 9, 9, 8, 2], 3)]
        for times, machines in cases:
            optimum = exact_makespan(times, machines)
            for extra in [[], ["--epsilon", "0.5"]]:
                code, result = self.solve(times, machines, "--exact", *extra)
                self.assertEqual(code, 0)
                self.assertEqual(result["status"], "complete")
                self.assertTrue(result["optimal"])
                self.assertTrue(result["exact"]["proven"])
                self.assertEqual(result["makespan"], optimum, times)
                self.assertEqual(result["best_lower_bound"], optimum)
                self.assertEqual(result["gap"], 0)
                self.assert_valid(times, machines, result)
            self.assertIsNone(self.solve(times, machines, "--exact")[1]["k"])

    def test_bounds_gap_and_candidates_in_the_json(self):
        times, machines = [17, 5, 23, 9, 11, 30, 4, 8, 21, 6], 3
        optimum = exact_makespan(times, machines)
        _, result = self.solve(times, machines, "--epsilon", "0.3")
        for name, bound in result["lower_bounds"].items():
            if bound is not None:
                self.assertLessEqual(bound, optimum, name)
        self.assertEqual(result["lower_bounds"]["simple"], result["lower_bound"])
        self.assertLessEqual(result["best_lower_bound"], optimum)
        self.assertAlmostEqual(result["gap"],
                               result["makespan"] / result["best_lower_bound"] - 1)
        names = [c["name"] for c in result["candidates"]]
        self.assertEqual(names[:3], ["lpt", "multifit", "ptas k=4"])
        self.assertEqual(result["candidates"][0]["makespan"], lpt_makespan(times, machines))
        self.assertLessEqual(result["makespan"], min(c["improved"] for c in result["candidates"]))
        self.assert_valid(times, machines, result)

    def test_neither_epsilon_nor_exact_is_one_line_exit_2(self):
        proc = run("--generate", "uniform,5,2,1,9,1", "--no-gpu")
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        self.assertIn("--exact", proc.stderr)

    def test_time_limit_leaves_the_exact_mode_incomplete_with_bounds(self):
        # An instance of the class [1,10000] whose proof takes the exact mode far longer than 1 s.
        start = time.monotonic()
        proc = run("--generate", "uniform,60,20,1,10000,5", "--no-gpu", "--exact",
                   "--time-limit", "1", "--json", "-", "--quiet", timeout=60)
        self.assertLess(time.monotonic() - start, 10)
        self.assertEqual(proc.returncode, 3, proc.stderr)
        result = json.loads(proc.stdout)
        self.assertEqual(result["status"], "incomplete")
        self.assertFalse(result["optimal"])
        self.assertFalse(result["exact"]["proven"])
        self.assertEqual(result["exact"]["stopped_because"], "time limit")
        self.assertLessEqual(result["exact"]["lower"], result["exact"]["upper"])
        self.assertEqual(result["exact"]["upper"], result["makespan"])
        times = uniform_times(60, 1, 10000, 5)
        self.assertGreaterEqual(result["best_lower_bound"], -(-sum(times) // 20))
        self.assertLessEqual(result["makespan"], lpt_makespan(times, 20))
        self.assert_valid(times, 20, result)


class PcmaxTimeLimit(unittest.TestCase):
    """--time-limit and --progress on a run that would take hours: uniform,30,10,1,100,1 at
    epsilon 0.001 (k = 1000, no rounding: its first table has 2^30 entries)."""

    SLOW = ["--generate", "uniform,30,10,1,100,1", "--epsilon", "0.001", "--no-gpu"]
    TIMES = uniform_times(30, 1, 100, 1)
    MACHINES = 10

    def run_slow(self, *args):
        start = time.monotonic()
        proc = run(*self.SLOW, *args, timeout=60)
        return proc, time.monotonic() - start

    def test_time_limit_ends_a_slow_run_with_a_valid_schedule_exit_3(self):
        proc, seconds = self.run_slow("--time-limit", "1", "--json", "-", "--quiet")
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertLess(seconds, 5)
        result = json.loads(proc.stdout)
        self.assertEqual(result["status"], "incomplete")
        for key in ["guarantee", "guarantee_bound", "final_target"]:
            self.assertIsNone(result[key], key)
        loads = [0] * self.MACHINES
        self.assertEqual(len(result["machine_of_job"]), len(self.TIMES))
        for job, machine in enumerate(result["machine_of_job"]):
            self.assertIn(machine, range(1, self.MACHINES + 1))
            loads[machine - 1] += self.TIMES[job]
        self.assertEqual(loads, result["loads"])
        self.assertEqual(max(loads), result["makespan"])
        self.assertLessEqual(result["makespan"], lpt_makespan(self.TIMES, self.MACHINES))
        lower, upper = result["targets_left"]
        self.assertGreaterEqual(lower, max(-(-sum(self.TIMES) // self.MACHINES), max(self.TIMES)))
        self.assertLessEqual(lower, upper)
        self.assertEqual(result["time_limit"], 1)

    def test_incomplete_text_claims_no_guarantee(self):
        proc, _ = self.run_slow("--time-limit", "0.5", "--quiet")
        self.assertEqual(proc.returncode, 3, proc.stderr)
        lines = {line.split()[0]: line for line in proc.stdout.splitlines() if line.strip()}
        self.assertIn("incomplete", lines["status"])
        self.assertIn("guarantee     none", lines["guarantee"])
        self.assertNotIn("(1 + 1/", lines["guarantee"])

    def test_progress_lines_say_where_the_bisection_is(self):
        proc, _ = self.run_slow("--time-limit", "1.1", "--progress", "0.2")
        self.assertEqual(proc.returncode, 3, proc.stderr)
        progress = [line for line in proc.stderr.splitlines() if "progress" in line]
        self.assertGreaterEqual(len(progress), 3, proc.stderr)
        for line in progress:
            for part in [" s | round 1: T = ", "targets left [", "best makespan ", " states"]:
                self.assertIn(part, line)
        proc, _ = self.run_slow("--time-limit", "0.5", "--progress", "0.1", "--quiet")
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertNotIn("progress", proc.stderr)

    def test_a_time_limit_that_does_not_bind_keeps_the_complete_result(self):
        proc = run("--generate", "uniform,12,3,1,50,4", "--epsilon", "0.3", "--no-gpu",
                   "--time-limit", "60", "--json", "-", "--quiet", timeout=60)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        result = json.loads(proc.stdout)
        self.assertEqual(result["status"], "complete")
        k = result["k"]
        self.assertLess(k * result["makespan"], (k + 1) * result["final_target"])

    def test_time_limit_nan_is_one_line_exit_2(self):
        proc = run(*self.SLOW, "--time-limit", "nan", timeout=30)
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        self.assertIn("--time-limit", proc.stderr)


if __name__ == "__main__":
    unittest.main()
