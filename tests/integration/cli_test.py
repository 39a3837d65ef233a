"""End-to-end tests of the `permbb` executable: real processes, real files.

Run by ctest with PERMBB_BIN (the executable), PERMBB_TEST_DATA (tests/data) and
PERMBB_SHARED_DATA (../shared/data) in the environment. Expected values are published facts
(Taillard's best-known makespans, from shared/notes/taillard.md), never the solver's output.
"""
import json
import os
import subprocess
import tempfile
import unittest

from flowshop_reference import brute_force, makespan, write_instance

BIN = os.environ["PERMBB_BIN"]
TEST_DATA = os.environ["PERMBB_TEST_DATA"]
SHARED_DATA = os.environ["PERMBB_SHARED_DATA"]

# Best-known (optimal) makespans of ta001..ta010 (Taillard 1993; shared/notes/taillard.md).
TA001_TO_TA010 = [1278, 1359, 1081, 1293, 1235, 1195, 1234, 1206, 1230, 1108]


def run(*args, timeout=120):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=timeout)


def solve_json(*args, timeout=120):
    proc = run("solve", *args, "--json", "-", "--quiet", timeout=timeout)
    return proc, json.loads(proc.stdout) if proc.stdout.strip() else None


class SolveTaillard(unittest.TestCase):
    def test_finds_the_known_optimum_of_ta001_to_ta010(self):
        for index, optimum in enumerate(TA001_TO_TA010, start=1):
            proc, result = solve_json(f"ta{index:03d}")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(result["status"], "optimal")
            self.assertIsNone(result["stopped_because"])
            self.assertEqual(result["makespan"], optimum, f"ta{index:03d}")
            self.assertEqual(sorted(result["permutation"]), list(range(1, 21)))

    def test_json_has_every_documented_field(self):
        proc, result = solve_json("ta001")
        for key in ["instance", "jobs", "machines", "bound", "branching", "initial_ub",
                    "status", "makespan", "permutation", "nodes_decomposed", "leaves",
                    "seconds", "nodes_per_second"]:
            self.assertIn(key, result)
        self.assertEqual((result["instance"], result["jobs"], result["machines"]),
                         ("ta001", 20, 5))

    def test_ub_opt_proves_nothing_better_exists(self):
        proc, result = solve_json("ta002", "--ub", "opt")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(result["status"], "no-better-than-ub")
        self.assertEqual(result["initial_ub"], 1359)
        self.assertIsNone(result["makespan"])

    def test_ub_above_the_optimum_finds_the_optimum(self):
        proc, result = solve_json("ta003", "--ub", "1082", "--bound", "lb2")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(result["status"], "optimal")
        self.assertEqual(result["makespan"], 1081)

    def test_every_bound_and_auto_find_the_optimum(self):
        for bound in ["lb1", "lb2", "lb2-adjacent", "lb1+lb2", "auto"]:
            proc, result = solve_json("ta004", "--bound", bound)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(result["makespan"], 1293, bound)
            self.assertEqual(result["bound"], "lb1" if bound == "auto" else bound)

    def test_auto_bounds_two_machines_with_johnsons_rule(self):
        # Two machines: LB2's only pair is Johnson's rule, exact at the root. By hand: Johnson
        # orders the jobs 3 1 5 4 2; machine 2 then ends at 23 (= 22 on machine 1 + 1).
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "two_machines.txt")
            with open(path, "w") as f:
                f.write("5 2\n3 6 2 7 4\n5 1 6 2 3\n")
            proc, result = solve_json(path, "--bound", "auto")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(result["bound"], "lb2")
        self.assertEqual(result["makespan"], 23)

    def test_human_output_ends_with_rate(self):
        proc = run("solve", "ta004", "--quiet")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("status        optimal", proc.stdout)
        self.assertIn("makespan      1293", proc.stdout)
        self.assertIn("nodes/s", proc.stdout.strip().splitlines()[-1])


class OneJob(unittest.TestCase):
    """One job has one schedule, and the engines search it as any other: its makespan is the
    sum of its times (5 + 6 + 7 = 18); the root is the leaf, decomposed uncounted; the leaf
    counts only where the bound (its makespan) is below the upper bound."""

    def test_the_only_leaf_counts_only_when_the_bound_keeps_it(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "one.txt")
            with open(path, "w") as f:
                f.write("1 3\n5\n6\n7\n")
            # inf: NEH's schedule sets the upper bound to 18, which then prunes the leaf.
            expected = {"inf": ("optimal", 18, 0), "18": ("no-better-than-ub", None, 0),
                        "19": ("optimal", 18, 1)}
            for ub, (status, best, leaves) in expected.items():
                for threads in ("1", "2"):
                    proc, result = solve_json(path, "--ub", ub, "--threads", threads, "--no-gpu")
                    self.assertEqual(proc.returncode, 0, proc.stderr)
                    got = (result["status"], result["makespan"], result["leaves"])
                    self.assertEqual(got, (status, best, leaves), f"--ub {ub}, {threads} threads")
                    self.assertEqual(result["nodes_decomposed"], 0)
                    self.assertEqual(result["engine"], "cpu")


class Hybridization(unittest.TestCase):
    def test_heuristic_threads_beside_the_explorer_still_find_the_optimum(self):
        # ta012 (20 x 10): 1659 (shared/notes/taillard.md). Short slices (--progress) so that
        # subproblems are promoted to the solution pool during the search.
        proc, result = solve_json("ta012", "--heuristic-threads", "1", "--heuristic-seconds",
                                  "0.5", "--seed", "3", "--no-gpu", "--threads", "1",
                                  "--progress", "0.2")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(result["status"], "optimal")
        self.assertEqual(result["makespan"], 1659)
        self.assertEqual(sorted(result["permutation"]), list(range(1, 21)))

    def test_dives_and_root_beam_are_on_by_default_and_can_be_turned_off(self):
        # Two threads: the second dives into the promoted subproblems (default) or runs the
        # iterated greedy too (--no-heuristic-dives); the first starts with a beam search from
        # the root (default) or not (--no-heuristic-root-beam); the closing line says which
        # ran. ta021 (20 x 20) is far from done after 2 s: subproblems are promoted every second.
        common = ["solve", "ta021", "--heuristic-threads", "2", "--heuristic-seconds", "0.2",
                  "--no-gpu", "--threads", "1", "--progress", "0.1", "--time-limit", "2.5"]
        for flags, ran in (([], True),
                           (["--no-heuristic-dives", "--no-heuristic-root-beam"], False)):
            proc = run(*common, *flags)
            self.assertEqual(proc.returncode, 3, proc.stderr)  # incomplete at the time limit
            summary = [line for line in proc.stderr.splitlines() if "subproblem dives" in line]
            self.assertEqual(len(summary), 1, proc.stderr)
            self.assertEqual("dives none," not in summary[0], ran, summary[0])
            self.assertEqual("root beam none)" not in summary[0], ran, summary[0])

    def test_negative_heuristic_threads_below_auto_are_refused(self):
        proc = run("solve", "ta001", "--heuristic-threads", "-2", "--quiet")
        self.assertNotEqual(proc.returncode, 0)


class Limits(unittest.TestCase):
    def test_node_limit_gives_incomplete_and_exit_3(self):
        proc, result = solve_json("ta021", "--ub", "opt", "--node-limit", "20000")
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertEqual(result["status"], "incomplete")
        self.assertEqual(result["stopped_because"], "node limit")

    def test_time_limit_gives_incomplete_and_exit_3(self):
        proc, result = solve_json("ta021", "--time-limit", "0.5")
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertEqual(result["status"], "incomplete")
        self.assertEqual(result["stopped_because"], "time limit")
        # The NEH schedule (or a better one) is still reported.
        self.assertIsNotNone(result["makespan"])
        self.assertGreaterEqual(result["makespan"], 2297)


class BadInput(unittest.TestCase):
    def test_every_bad_file_exits_2_with_a_one_line_message_naming_it(self):
        folder = os.path.join(TEST_DATA, "instances")
        bad = sorted(f for f in os.listdir(folder) if f.startswith("bad_"))
        self.assertGreater(len(bad), 5)
        for name in bad:
            proc = run("solve", os.path.join(folder, name))
            self.assertEqual(proc.returncode, 2, name)
            lines = proc.stderr.strip().splitlines()
            self.assertEqual(len(lines), 1, proc.stderr)
            self.assertIn(name, lines[0])

    def test_missing_file_and_bad_options_exit_2(self):
        self.assertEqual(run("solve", "/nonexistent/file.txt").returncode, 2)
        self.assertEqual(run("solve", "ta001", "--bound", "lb9").returncode, 2)
        self.assertEqual(run("solve", "ta001", "--branch", "left").returncode, 2)
        self.assertEqual(run("solve", "ta001", "--ub", "-3").returncode, 2)
        self.assertEqual(run("solve", "ta001", "--ub", "12x").returncode, 2)
        # An unwritable checkpoint is refused at the start, not at the first save.
        proc = run("solve", "ta001", "--checkpoint", "/nonexistent/folder/run.ckpt")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("cannot save checkpoint '/nonexistent/folder/run.ckpt'", proc.stderr)
        # Thread counts beyond 4096 are typos, refused before any thread starts.
        self.assertEqual(run("solve", "ta001", "--threads", "100000").returncode, 2)
        self.assertEqual(run("heuristic", "ta001", "--threads", "5000").returncode, 2)
        self.assertEqual(run("pcmax", "--generate", "uniform,10,3,1,9,1", "--epsilon", "0.5",
                             "--threads", "5000").returncode, 2)
        for command in ("solve ta001", "knapsack --generate uncorrelated,10,100,1",
                        "pcmax --generate uniform,10,3,1,9,1 --epsilon 0.5"):
            proc = run(*command.split(), "--gpu", "--no-gpu")
            self.assertEqual(proc.returncode, 2, command)
            self.assertIn("--gpu excludes --no-gpu", proc.stderr, command)
        proc = run("solve", os.path.join(TEST_DATA, "instances", "plain_3x2.txt"), "--ub", "opt")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("not a Taillard instance", proc.stderr)


class IteratedGreedyOptions(unittest.TestCase):
    def test_settings_are_used_echoed_and_give_a_true_schedule(self):
        times = [[5, 3, 8, 2, 7, 4, 6, 1], [2, 9, 1, 6, 3, 8, 5, 7], [7, 4, 6, 3, 9, 2, 8, 5]]
        with tempfile.TemporaryDirectory() as folder:
            self.check_each_tie_rule(write_instance(folder, "small.txt", times), times)

    def check_each_tie_rule(self, path, times):
        for ties in ("leftmost", "tightest", "random"):
            proc = run("heuristic", path, "--iterations", "50", "--time-limit", "0",
                       "--ig-ties", ties, "--ig-destruction", "3", "--ig-no-sideways",
                       "--ig-partial-ls", "--ig-k", "2", "--ig-prefer-slack", "--ig-restart", "7",
                       "--ig-restart-destruction", "5", "--ig-restart-elite", "3",
                       "--ig-restart-relink", "--ig-ls-passes", "4", "--ig-adopt-after", "9",
                       "--json", "-", "--quiet")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            result = json.loads(proc.stdout)
            self.assertEqual(result["iterated_greedy"],
                             {"destruction": 3, "temperature": 0.4, "k": 2, "ties": ties,
                              "sideways": False, "partial_local_search": True,
                              "prefer_slack": True, "restart": 7, "restart_destruction": 5,
                              "restart_elite": 3, "restart_relink": True, "ls_passes": 4,
                              "adopt_after": 9, "beam_copies": 0})
            order = [job - 1 for job in result["permutation"]]
            self.assertEqual(sorted(order), list(range(8)))
            self.assertEqual(result["makespan"], makespan(times, order))
            self.assertEqual(result["makespan"], brute_force(times), ties)

    def test_bad_settings_exit_2(self):
        for bad in (["--ig-ties", "middle"], ["--ig-destruction", "0"],
                    ["--ig-temperature", "-1"], ["--ig-k", "-1"], ["--ig-restart", "-1"],
                    ["--ig-restart", "x"], ["--ig-restart-destruction", "0"],
                    ["--ig-restart-elite", "0"], ["--ig-adopt-after", "-1"],
                    ["--ig-adopt-after", "x"], ["--beam-guide", "middle"],
                    ["--beam-copies", "2"], ["--beam-copies", "-2"], ["--beam-cutoff", "-5"]):
            proc = run("heuristic", "ta001", "--time-limit", "0.1", *bad)
            self.assertEqual(proc.returncode, 2, bad)
            self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)


class BeamOptions(unittest.TestCase):
    """The beam search's guide and cutoff, and the ILS portfolio's beam copies."""

    def test_each_guide_and_a_cutoff_give_the_brute_force_optimum(self):
        times = [[5, 3, 8, 2, 7, 4, 6, 1], [2, 9, 1, 6, 3, 8, 5, 7], [7, 4, 6, 3, 9, 2, 8, 5]]
        optimum = brute_force(times)
        with tempfile.TemporaryDirectory() as folder:
            path = write_instance(folder, "small.txt", times)
            for guide in ("bound", "idle", "gap"):
                for cutoff in ("0", str(optimum + 1)):
                    proc = run("heuristic", path, "--method", "beam", "--beam-guide", guide,
                               "--beam-cutoff", cutoff, "--time-limit", "30", "--json", "-",
                               "--quiet")
                    self.assertEqual(proc.returncode, 0, proc.stderr)
                    result = json.loads(proc.stdout)
                    self.assertEqual(result["beam_guide"], guide)
                    order = [job - 1 for job in result["permutation"]]
                    self.assertEqual(result["makespan"], makespan(times, order))
                    self.assertEqual(result["makespan"], optimum, (guide, cutoff))

    def test_beam_copies_beside_the_iterated_greedy(self):
        times = [[5, 3, 8, 2, 7, 4, 6, 1], [2, 9, 1, 6, 3, 8, 5, 7], [7, 4, 6, 3, 9, 2, 8, 5]]
        with tempfile.TemporaryDirectory() as folder:
            path = write_instance(folder, "small.txt", times)
            proc = run("heuristic", path, "--threads", "2", "--beam-copies", "1",
                       "--time-limit", "1", "--json", "-", "--quiet")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            result = json.loads(proc.stdout)
            self.assertEqual(result["iterated_greedy"]["beam_copies"], 1)
            order = [job - 1 for job in result["permutation"]]
            self.assertEqual(result["makespan"], makespan(times, order))
            self.assertEqual(result["makespan"], brute_force(times))


class Commands(unittest.TestCase):
    def test_instance_prints_the_plain_format(self):
        proc = run("instance", "ta001")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        rows = [list(map(int, line.split())) for line in proc.stdout.strip().splitlines()]
        self.assertEqual(rows[0], [20, 5])
        self.assertEqual(sum(map(sum, rows[1:])), 5153)  # Taillard's checksum of ta001
        self.assertEqual(rows[1][:5], [54, 83, 15, 71, 77])

    def test_help_lists_the_options(self):
        proc = run("solve", "--help")
        self.assertEqual(proc.returncode, 0)
        for option in ["--ub", "--bound", "--branch", "--time-limit", "--node-limit", "--json"]:
            self.assertIn(option, proc.stdout)

    def test_vrf_file_solves_within_the_published_bounds(self):
        path = os.path.join(SHARED_DATA, "vrf-small", "VFR10_5_1_Gap.txt")
        proc, result = solve_json(path)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(result["status"], "optimal")
        # Published bounds (VFR_upper_lower_bounds.txt): 523 <= C* <= 695.
        self.assertLessEqual(result["makespan"], 695)
        self.assertGreaterEqual(result["makespan"], 523)


# One small run of each command that reports a result.
def command_runs(folder):
    checkpoint = os.path.join(folder, "ta001.ck")
    made = run("solve", "ta001", "--ub", "opt", "--checkpoint", checkpoint, "--quiet")
    assert made.returncode == 0, made.stderr
    return {
        "solve": ["solve", "ta001", "--ub", "opt"],
        "heuristic": ["heuristic", "ta001", "--method", "neh"],
        "knapsack": ["knapsack", "--generate", "strongly-correlated,10,100,1"],
        "pcmax": ["pcmax", "--generate", "uniform,10,3,1,9,1", "--epsilon", "0.5"],
        "checkpoint": ["checkpoint", checkpoint],
    }


class OutputOptions(unittest.TestCase):
    """--json [FILE], --quiet/-q and --log-level behave alike in every command."""

    def test_json_without_a_file_goes_to_standard_output_alone(self):
        with tempfile.TemporaryDirectory() as folder:
            for name, args in command_runs(folder).items():
                proc = run(*args, "--json")
                self.assertEqual(proc.returncode, 0, f"{name}: {proc.stderr}")
                self.assertIsInstance(json.loads(proc.stdout), dict, name)

    def test_json_to_a_file_keeps_the_text_on_standard_output(self):
        with tempfile.TemporaryDirectory() as folder:
            for name, args in command_runs(folder).items():
                path = os.path.join(folder, name + ".json")
                proc = run(*args, "--json", path, "-q")
                self.assertEqual(proc.returncode, 0, f"{name}: {proc.stderr}")
                self.assertNotEqual(proc.stdout.strip(), "", name)
                with open(path) as f:
                    self.assertIsInstance(json.load(f), dict, name)

    def test_quiet_and_log_level_silence_the_information_lines(self):
        with tempfile.TemporaryDirectory() as folder:
            for name, args in command_runs(folder).items():
                for quiet in (["--quiet"], ["-q"], ["--log-level", "warn"], ["--log-level", "off"]):
                    proc = run(*args, *quiet)
                    self.assertEqual(proc.returncode, 0, f"{name} {quiet}: {proc.stderr}")
                    self.assertEqual(proc.stderr, "", f"{name} {quiet}")

    def test_a_bad_log_level_is_refused_in_every_command(self):
        with tempfile.TemporaryDirectory() as folder:
            for name, args in command_runs(folder).items():
                proc = run(*args, "--log-level", "loud")
                self.assertEqual(proc.returncode, 2, name)
                self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)

    def test_long_commands_print_progress_lines_unless_quiet(self):
        long_runs = {
            "solve": ["solve", "ta021", "--ub", "opt", "--no-gpu", "--threads", "1",
                      "--time-limit", "1"],
            "heuristic": ["heuristic", "ta021", "--time-limit", "1"],
            # The branch-and-bound without dominance runs to its limit on this class (the default
            # method solves it at once; its progress lines: knapsack_cli_test).
            "knapsack": ["knapsack", "--generate", "strongly-correlated,300,1000,1",
                         "--method", "bb", "--without", "dominance", "--time-limit", "1"],
        }
        for name, args in long_runs.items():
            proc = run(*args, "--progress", "0.2")
            self.assertIn(proc.returncode, (0, 3), f"{name}: {proc.stderr}")
            self.assertGreaterEqual(proc.stderr.count("] progress "), 2, f"{name}: {proc.stderr}")
            quiet = run(*args, "--progress", "0.2", "--quiet")
            self.assertNotIn("progress", quiet.stderr, name)
            refused = run(*args, "--progress", "0")
            self.assertEqual(refused.returncode, 2, name)

    def test_version_names_the_build(self):
        proc = run("--version")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        line = proc.stdout.strip()
        # The release, then the commit where the source tree has one (cmake/BuildInfo.cmake).
        self.assertRegex(line, r"^permbb \d+\.\d+\.\d+(-g[0-9a-f]{12}(-dirty)?)? \(")
        self.assertIn(" build; ", line)
        self.assertTrue("CUDA sm_" in line or "no GPU code" in line, line)
        self.assertIn("MPI: ", line)


def log_lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


class ProgressLog(unittest.TestCase):
    def test_every_run_appends_its_start_ticks_and_end_even_when_quiet(self):
        with tempfile.TemporaryDirectory() as folder:
            log = os.path.join(folder, "progress.jsonl")
            checkpoint = os.path.join(folder, "ck")
            first = run("solve", "ta021", "--ub", "opt", "--no-gpu", "--threads", "1", "--quiet",
                        "--progress", "0.1", "--progress-log", log, "--checkpoint", checkpoint,
                        "--time-limit", "0.6")
            self.assertEqual(first.returncode, 3, first.stderr)
            self.assertEqual(first.stderr, "")
            second = run("solve", "ta021", "--ub", "opt", "--no-gpu", "--threads", "1", "--quiet",
                         "--progress", "0.1", "--progress-log", log, "--restart", checkpoint,
                         "--checkpoint", checkpoint, "--time-limit", "0.6")
            self.assertEqual(second.returncode, 3, second.stderr)
            lines = log_lines(log)
            events = [(line["restart"], line["event"]) for line in lines]
            self.assertEqual(events[0], (0, "start"))
            self.assertEqual(events[-1], (1, "end"))
            self.assertIn((0, "end"), events)
            self.assertIn((1, "start"), events)
            ticks = [line for line in lines if line["event"] == "progress"]
            self.assertGreater(len(ticks), 2)
            for tick in ticks:
                self.assertTrue(0 <= tick["run_remaining"] <= 1, tick)
                self.assertLessEqual(tick["space_remaining_log10"], 0)
                # --ub opt (2297, ta021's optimum) finds nothing below it: no schedule, no best
                # (the bound it was given is no schedule's makespan).
                self.assertIsNone(tick["best"])
            # The restart continues the totals and starts its own run at the whole of its work.
            restart_start = lines[events.index((1, "start"))]
            first_end = lines[events.index((0, "end"))]
            self.assertEqual(restart_start["nodes_before"], first_end["nodes_total"])
            self.assertEqual(restart_start["run_remaining"], 1)
            self.assertAlmostEqual(restart_start["space_remaining_log10"],
                                   first_end["space_remaining_log10"], places=9)

    def test_an_unusable_log_path_is_refused_at_the_start(self):
        with tempfile.TemporaryDirectory() as folder:
            checkpoint = os.path.join(folder, "ck")
            fifo = os.path.join(folder, "fifo")
            os.mkfifo(fifo)  # no reader: refused at once, not waited for
            for args in (["--progress-log", folder], ["--progress-log", fifo],
                         ["--progress-log", os.path.join(folder, "missing", "log")],
                         ["--progress-log", checkpoint, "--checkpoint", checkpoint]):
                proc = run("solve", "ta001", "--quiet", *args)
                self.assertEqual(proc.returncode, 2, args)
                self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
                self.assertIn("--progress-log", proc.stderr)


if __name__ == "__main__":
    unittest.main()
