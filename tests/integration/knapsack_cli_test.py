"""End-to-end tests of `permbb knapsack`: real processes, real files.

Run by ctest with PERMBB_BIN (the executable) in the environment. Expected values come from
hand computation or from the dynamic program (`--method dp`, code independent of the
branch-and-bound), never from the branch-and-bound itself.
"""
import itertools
import json
import os
import subprocess
import tempfile
import unittest

BIN = os.environ["PERMBB_BIN"]

# Three items, capacity 10 (profit weight): the two lighter items weigh 9 and give 33; items
# 1 and 3 weigh 10 and give 35, the optimum (1 + 2 weighs 11).
HAND_INSTANCE = """# hand-computed: optimum 35, items 1 and 3
3 10
20 6
18 5
15 4
"""


def run(*args, timeout=120):
    return subprocess.run([BIN, "knapsack", *args], capture_output=True, text=True,
                          timeout=timeout)


def run_json(*args, timeout=120):
    proc = run(*args, "--json", "-", "--quiet", timeout=timeout)
    return proc, json.loads(proc.stdout) if proc.stdout.strip() else None


def brute_force_value(capacity, items):
    """The optimum over every subset of (profit, weight) items: the tests' own reference."""
    best = 0
    for chosen in itertools.product([0, 1], repeat=len(items)):
        weight = sum(w for (_, w), x in zip(items, chosen) if x)
        if weight <= capacity:
            best = max(best, sum(p for (p, _), x in zip(items, chosen) if x))
    return best


def instance_text(capacity, items):
    return f"{len(items)} {capacity}\n" + "".join(f"{p} {w}\n" for p, w in items)


class WithFolder(unittest.TestCase):
    """A test case with a temporary folder for instance files."""

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.folder.cleanup()

    def write(self, name, text):
        path = os.path.join(self.folder.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path


class KnapsackFiles(WithFolder):
    def test_hand_computed_instance_and_every_json_field(self):
        path = self.write("hand.txt", HAND_INSTANCE)
        proc, result = run_json(path, "--no-gpu", "--method", "bb")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for key in ["instance", "items", "capacity", "method", "status", "value", "weight",
                    "chosen", "nodes_explored", "nodes_dominated", "seconds", "engine",
                    "levels_cpu", "levels_gpu", "switches", "lists_set_aside", "switch_threshold", "max_list_nodes"]:
            self.assertIn(key, result)
        self.assertEqual((result["instance"], result["items"], result["capacity"]),
                         ("hand", 3, 10))
        self.assertEqual(result["status"], "optimal")
        self.assertEqual(result["value"], 35)
        self.assertEqual(result["weight"], 10)
        self.assertEqual(result["chosen"], [1, 3])
        self.assertEqual(result["engine"], "cpu")

    def test_human_output(self):
        path = self.write("hand.txt", HAND_INSTANCE)
        proc = run(path, "--no-gpu", "--quiet")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("value         35", proc.stdout)
        self.assertIn("items         1 3", proc.stdout)
        self.assertIn("engine        cpu", proc.stdout)

    def test_capacity_option_overrides_the_file(self):
        # capacity 9: items 2 and 3 (weight 9, profit 33) beat item 1 alone (20).
        path = self.write("hand.txt", HAND_INSTANCE)
        proc, result = run_json(path, "--no-gpu", "--capacity", "9")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual((result["value"], result["chosen"]), (33, [2, 3]))

    def test_bad_files_exit_2_with_a_one_line_message_naming_file_and_line(self):
        cases = {
            "missing.txt": ("2 10\n5 5\n7\n", ":3:"),
            "zero.txt": ("1 10\n5 0\n", ":2:"),
            "float.txt": ("1 10\n5.5 1\n", ":2:"),
            "count.txt": ("3 10\n1 1\n", ":2:"),
            "overflow.txt": ("1 10\n99999999999999999999 1\n", ":2:"),
        }
        for name, (text, place) in cases.items():
            path = self.write(name, text)
            proc = run(path, "--no-gpu")
            self.assertEqual(proc.returncode, 2, name)
            lines = proc.stderr.strip().splitlines()
            self.assertEqual(len(lines), 1, proc.stderr)
            self.assertIn(path + place, lines[0])

    def test_missing_file_exits_2(self):
        proc = run(os.path.join(self.folder.name, "none.txt"))
        self.assertEqual(proc.returncode, 2)
        self.assertIn("cannot open", proc.stderr)


class KnapsackGenerated(unittest.TestCase):
    def test_default_and_branch_and_bound_agree_with_the_dynamic_program(self):
        for spec in ["uncorrelated,60,1000,1", "weakly-correlated,60,1000,2",
                     "strongly-correlated,60,100,3", "inverse-strongly-correlated,60,100,4",
                     "subset-sum,60,1000,5"]:
            proc, default = run_json("--generate", spec)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(default["method"], "core")
            self.assertIn(default["engine"], ("cpu", "gpu"))  # gpu: long lists merged there
            proc, bb = run_json("--generate", spec, "--method", "bb")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            proc, dp = run_json("--generate", spec, "--method", "dp")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(bb["value"], dp["value"], spec)
            self.assertEqual(default["value"], dp["value"], spec)
            self.assertEqual(bb["instance"], spec)
            self.assertEqual(dp["engine"], "dp")
            self.assertLessEqual(bb["weight"], bb["capacity"])
            self.assertLessEqual(default["weight"], default["capacity"])

    def test_at_least_confirms_the_dynamic_programs_optimum_or_finds_none(self):
        # The optimum comes from the DP; --at-least it, the branch-and-bound finds it itself;
        # --at-least one more, it proves none (status none-at-least, exit 0, a feasible best).
        spec = "strongly-correlated,60,100,3"
        proc, dp = run_json("--generate", spec, "--method", "dp")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        optimum = dp["value"]
        proc, confirmed = run_json("--generate", spec, "--method", "bb", "--at-least",
                                   str(optimum))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(confirmed["status"], "optimal")
        self.assertEqual(confirmed["value"], optimum)
        self.assertEqual(confirmed["at_least"], optimum)
        proc, above = run_json("--generate", spec, "--method", "bb", "--at-least",
                               str(optimum + 1))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(above["status"], "none-at-least")
        self.assertLess(above["value"], optimum + 1)
        self.assertLessEqual(above["weight"], above["capacity"])
        proc = run("--generate", spec, "--method", "bb", "--at-least", str(optimum + 1))
        self.assertIn(f"none-at-least {optimum + 1}", proc.stdout)
        proc = run("--generate", spec, "--method", "bb", "--at-least", "0")
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)

    def test_both_engines_agree_when_switching_every_level(self):
        # Default engine: the GPU when there is one; a threshold of 1 puts every level there.
        spec = "strongly-correlated,50,100,6"
        proc, dp = run_json("--generate", spec, "--method", "dp")
        proc, bb = run_json("--generate", spec, "--method", "bb", "--switch-threshold", "1",
                            "--max-list-nodes", "64")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(bb["value"], dp["value"])

    def test_gpu_flag_needs_a_gpu(self):
        # Without a usable GPU (none visible, or built without CUDA) the default engine of
        # both the branch-and-bound and the core search is the CPU and --gpu must fail with
        # exit 2 in one line; with one, --gpu must run on it (core: long lists merged there,
        # every list with a threshold of 1, the same optimum as the dynamic program).
        spec = "uncorrelated,30,100,7"
        proc, dp = run_json("--generate", spec, "--method", "dp")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for method in ["bb", "core"]:
            proc, default = run_json("--generate", spec, "--method", method)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            proc = run("--generate", spec, "--method", method, "--gpu", "--switch-threshold",
                       "1", "--json", "-", "--quiet")
            if default["engine"] == "cpu":
                self.assertEqual(proc.returncode, 2, proc.stderr)
                self.assertIn("--gpu", proc.stderr)
                self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
            else:
                self.assertEqual(proc.returncode, 0, proc.stderr)
                result = json.loads(proc.stdout)
                self.assertEqual(result["engine"], "gpu")
                self.assertEqual(result["value"], dp["value"])
                if method == "core":
                    self.assertGreater(result["gpu_merges"], 0)

    def test_time_limit_gives_incomplete_and_exit_3(self):
        # A strongly correlated instance that takes minutes without dominance between nodes
        # (milliseconds with it); stopped after 0.2 s.
        proc, result = run_json("--generate", "strongly-correlated,300,100,4", "--no-gpu",
                                "--method", "bb", "--without", "dominance", "--time-limit", "0.2")
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertEqual(result["status"], "incomplete")
        self.assertLessEqual(result["weight"], result["capacity"])

    def test_bad_options_exit_2(self):
        for args in [[], ["--generate", "strongly-correlated,10,100"],
                     ["--generate", "heavy,10,100,1"], ["--generate", "subset-sum,0,100,1"],
                     ["--generate", "subset-sum,10,100,1", "--max-list-nodes", "1"],
                     ["--generate", "subset-sum,10,100,1", "--method", "dp", "--gpu"],
                     ["--generate", "subset-sum,10,100,1", "--capacity", "-5"],
                     ["--generate", "subset-sum,10,100,1", "--without", "pruning"],
                     ["--generate", "subset-sum,10,100,1", "--capacity", "1000000000000",
                      "--method", "dp", "--dp-memory-mib", "1"]]:
            proc = run(*args)
            self.assertEqual(proc.returncode, 2, f"{args}: {proc.stderr}")


class KnapsackEdges(WithFolder):
    """Edge instances and every numeric option at and past its limits."""

    def assert_refused(self, args, *fragments):
        proc = run(*args)
        self.assertEqual(proc.returncode, 2, f"{args}: {proc.stdout} {proc.stderr}")
        lines = proc.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, f"{args}: {proc.stderr}")
        for fragment in fragments:
            self.assertIn(fragment, lines[0], args)

    def assert_optimal(self, result, capacity, items, method):
        self.assertEqual(result["status"], "optimal", method)
        self.assertEqual(result["value"], brute_force_value(capacity, items), method)
        chosen = [items[i - 1] for i in result["chosen"]]
        self.assertEqual(sorted(set(result["chosen"])), result["chosen"], method)
        self.assertEqual(sum(p for p, _ in chosen), result["value"], method)
        self.assertEqual(sum(w for _, w in chosen), result["weight"], method)
        self.assertLessEqual(result["weight"], capacity, method)

    def test_small_edge_instances_by_both_methods(self):
        cases = {
            "one_fits": (7, [(3, 7)]),
            "one_too_heavy": (6, [(3, 7)]),
            "capacity_zero": (0, [(5, 1), (4, 2), (9, 3)]),
            "two_items": (5, [(4, 3), (5, 4)]),
            "two_both_fit": (7, [(4, 3), (5, 4)]),
            "all_heavier": (9, [(5, 10), (7, 11), (100, 12)]),
            "all_fit": (33, [(5, 10), (7, 11), (100, 12)]),
            "equal_ratios": (10, [(3, 1), (6, 2), (9, 3), (12, 4), (15, 5), (3, 1)]),
            "equal_items": (7, [(2, 2)] * 9),
        }
        for name, (capacity, items) in cases.items():
            path = self.write(name + ".txt", instance_text(capacity, items))
            for method in ["core", "bb", "dp"]:
                proc, result = run_json(path, "--no-gpu", "--method", method)
                self.assertEqual(proc.returncode, 0, f"{name} {method}: {proc.stderr}")
                self.assert_optimal(result, capacity, items, f"{name} {method}")

    def test_no_items_is_refused_naming_the_line(self):
        path = self.write("empty.txt", "# nothing\n0 10\n")
        self.assert_refused([path, "--no-gpu"], path + ":2:", "item count 0")

    def test_the_largest_values_are_solved_or_refused_never_wrong(self):
        top = 2**63 - 1
        half = 2**62
        cases = {"top.txt": (top, [(top, top)]),
                 "totals.txt": (top, [(half, half - 1), (half - 1, half)]),
                 "huge_profits.txt": (4, [(half, 3), (half // 2, 2), (half // 2 - 1, 2)])}
        for name, (capacity, items) in cases.items():
            path = self.write(name, instance_text(capacity, items))
            proc, result = run_json(path, "--no-gpu")
            self.assertEqual(proc.returncode, 0, f"{name}: {proc.stderr}")
            self.assert_optimal(result, capacity, items, name)
        # The dynamic program over a capacity of 2^63 - 1: refused, with its size.
        self.assert_refused([self.write("top.txt", instance_text(top, [(top, top)])),
                             "--method", "dp"], "MiB allowed")
        # Huge profits over a small capacity: the dynamic program's table is small.
        capacity, items = cases["huge_profits.txt"]
        proc, result = run_json(self.write("dp.txt", instance_text(capacity, items)),
                                "--method", "dp")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assert_optimal(result, capacity, items, "dp")
        # Totals one past 2^63 - 1: refused on the line that passes it.
        for what, items in [("profit", [(half, 1), (half, 1)]), ("weight", [(1, half), (1, half)])]:
            path = self.write(what + ".txt", instance_text(10, items))
            self.assert_refused([path, "--no-gpu"], path + ":3:", "total " + what)

    def test_numeric_options_out_of_range_exit_2_naming_the_option(self):
        path = self.write("ok.txt", instance_text(10, [(20, 6), (18, 5), (15, 4)]))
        cases = {
            "--capacity": ["-1", "99999999999999999999999", "9223372036854775808", "1.5", "nan"],
            "--switch-threshold": ["0", "-3", "9223372036854775808"],
            "--max-list-nodes": ["1", "1073741825", "18446744073709551616"],
            "--max-set-aside-nodes": ["0", "18446744073709551616"],
            "--memory-fraction": ["0", "0.96", "nan", "inf", "-0.5"],
            "--dp-memory-mib": ["0", "8796093022208", "17592186044416", "18446744073709551616"],
            "--time-limit": ["nan", "inf", "-inf", "-1", "1e999", "abc"],
        }
        for option, values in cases.items():
            for value in values:
                self.assert_refused([path, "--no-gpu", option, value], option)

    def test_options_at_their_limits_still_solve(self):
        items = [(20, 6), (18, 5), (15, 4)]
        path = self.write("ok.txt", instance_text(10, items))
        # The branch-and-bound's options with --method bb (the default, core, has none of them).
        for args in [["--capacity", "9223372036854775807"],
                     ["--method", "bb", "--switch-threshold", "1"],
                     ["--method", "bb", "--switch-threshold", "9223372036854775807"],
                     ["--method", "bb", "--max-list-nodes", "2", "--max-set-aside-nodes", "1"],
                     ["--method", "bb", "--max-list-nodes", "1073741824"],
                     ["--method", "bb", "--max-set-aside-nodes", "9223372036854775807"],
                     ["--memory-fraction", "0.001"], ["--memory-fraction", "0.95"],
                     ["--time-limit", "0"], ["--time-limit", "1e300"],
                     ["--method", "dp", "--dp-memory-mib", "1"],
                     ["--method", "dp", "--dp-memory-mib", "8796093022207"]]:
            proc, result = run_json(path, "--no-gpu", *args)
            self.assertEqual(proc.returncode, 0, f"{args}: {proc.stderr}")
            capacity = 2**63 - 1 if args[:1] == ["--capacity"] else 10
            self.assert_optimal(result, capacity, items, args)

    def test_dp_beyond_the_memory_of_the_machine_is_refused_not_allocated(self):
        # 10^13 columns (80 TB): within the largest --dp-memory-mib, beyond any machine here.
        path = self.write("ok.txt", instance_text(10, [(20, 6), (18, 5), (15, 4)]))
        self.assert_refused([path, "--method", "dp", "--capacity", "10000000000000",
                             "--dp-memory-mib", "8796093022207"], "MiB allowed")

    def test_generate_fields_at_and_past_their_limits(self):
        for spec in ["subset-sum,0,10,1", "subset-sum,-1,10,1", "subset-sum,100000001,10,1",
                     "subset-sum,99999999999999999999,10,1", "subset-sum,5,0,1",
                     "subset-sum,5,1152921504606846977,1", "subset-sum,5,10,-1",
                     "subset-sum,5,10,18446744073709551616", "subset-sum,5,10,",
                     "subset-sum,5,10,1,", "nope,5,10,1", ",5,10,1", "subset-sum,5,1e3,1"]:
            self.assert_refused(["--generate", spec, "--no-gpu"], "--generate " + spec)
        # The largest R and seed are accepted (the optimum of such instances is checked in
        # test_knapsack_edges, which sees the items).
        proc, result = run_json("--generate",
                                "strongly-correlated,6,1152921504606846976,18446744073709551615",
                                "--no-gpu")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertLessEqual(result["weight"], result["capacity"])
        # Totals past 2^63 - 1 are refused, naming the generated instance.
        self.assert_refused(["--generate", "inverse-strongly-correlated,100,1152921504606846976,1",
                             "--no-gpu"], "exceeds 2^63 - 1")

    def test_no_gpu_and_the_default_engine_agree(self):
        spec = "weakly-correlated,40,1000,9"
        proc, dp = run_json("--generate", spec, "--method", "dp")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for args in [["--no-gpu"], []]:
            proc, bb = run_json("--generate", spec, *args)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(bb["value"], dp["value"], args)
        self.assertEqual(run("--generate", spec, "--method", "dp", "--no-gpu", "--quiet").returncode,
                         0)


def numbered_text(capacity, items, first_id=1):
    """The layout of Pisinger's and Jooken et al.'s files: n, `id profit weight` lines, c."""
    return (f"{len(items)}\n" + "".join(f"{first_id + k} {p} {w}\n" for k, (p, w) in
                                       enumerate(items)) + f"{capacity}\n")


class KnapsackCore(WithFolder):
    """--method core, the numbered file layout and the Jooken generator."""

    def test_both_layouts_give_the_brute_force_optimum_by_every_method(self):
        items = [(94, 485), (506, 326), (416, 248), (992, 421), (649, 322), (237, 795),
                 (457, 43), (815, 845), (446, 955), (422, 252), (791, 9), (359, 901)]
        capacity = 2000
        optimum = brute_force_value(capacity, items)
        paths = [self.write("own.txt", instance_text(capacity, items)),
                 self.write("numbered.txt", numbered_text(capacity, items, first_id=0))]
        for path in paths:
            for method in ["core", "bb", "dp"]:
                proc, result = run_json(path, "--no-gpu", "--method", method)
                self.assertEqual(proc.returncode, 0, f"{path} {method}: {proc.stderr}")
                self.assertEqual(result["value"], optimum, f"{path} {method}")
                chosen = [items[i - 1] for i in result["chosen"]]
                self.assertEqual(sum(p for p, _ in chosen), optimum)
                self.assertLessEqual(sum(w for _, w in chosen), capacity)

    def test_bad_numbered_files_exit_2_naming_file_and_line(self):
        cases = {"no_capacity.txt": ("2\n1 5 5\n2 7 1\n", ":3:"),
                 "short_line.txt": ("2\n1 5 5\n2 7\n9\n", ":3:"),
                 "after.txt": ("1\n1 5 5\n9\n9\n", ":4:"),
                 "zero.txt": ("1\n1 0 5\n9\n", ":2:")}
        for name, (text, place) in cases.items():
            path = self.write(name, text)
            proc = run(path, "--method", "core")
            self.assertEqual(proc.returncode, 2, name)
            lines = proc.stderr.strip().splitlines()
            self.assertEqual(len(lines), 1, proc.stderr)
            self.assertIn(path + place, lines[0])

    def test_pisingers_hard_classes_core_agrees_with_the_dynamic_program(self):
        for k, name in enumerate(["almost-strongly-correlated", "uncorrelated-spanner",
                                  "weakly-correlated-spanner", "strongly-correlated-spanner",
                                  "multiple-strongly-correlated", "profit-ceiling", "circle"]):
            spec = f"{name},80,1000,{k + 1}"
            proc, core = run_json("--generate", spec)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            proc, dp = run_json("--generate", spec, "--method", "dp")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(core["value"], dp["value"], spec)
            self.assertEqual(core["instance"], spec)
        proc = run("--generate", "hard,10,100,1")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("circle", proc.stderr)

    def test_jooken_instances_core_agrees_with_the_dynamic_program(self):
        for spec in ["jooken,60,100000,2,0.1,0,100,1", "jooken,80,100000,6,0.2,0.001,200,2",
                     "jooken,100,100000,10,0.3,0.01,300,3"]:
            proc, core = run_json("--generate", spec, "--method", "core")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            proc, dp = run_json("--generate", spec, "--method", "dp")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(core["value"], dp["value"], spec)
            self.assertEqual((core["instance"], core["capacity"], core["method"]),
                             (spec, 100000, "core"))
            self.assertEqual(core["upper_bound"], core["value"])
            for key in ["core_size", "items_fixed", "states_explored", "largest_state_list",
                        "weight_divisor", "profit_divisor", "capacity_used", "outside_sums_builds",
                        "completions", "weight_class_dp_runs", "gpu_merges"]:
                self.assertIsInstance(core[key], int, key)

    def test_core_progress_time_limit_and_state_cap(self):
        spec = "jooken,400,1000000000,10,0.1,0.00001,300,2"
        proc = run("--generate", spec, "--method", "core", "--time-limit", "0.3",
                   "--progress", "0.05", "--json", "-")
        self.assertEqual(proc.returncode, 3, proc.stderr)
        result = json.loads(proc.stdout)
        self.assertEqual(result["status"], "incomplete")
        self.assertGreaterEqual(result["upper_bound"], result["value"])
        self.assertLessEqual(result["weight"], result["capacity"])
        self.assertIn("| core ", proc.stderr)
        self.assertIn(" states | best ", proc.stderr)
        # A cap stops the search as the time limit does: incomplete, the solution kept, and
        # one warning line that says which cap.
        proc = run("--generate", spec, "--method", "core", "--max-states", "2", "--quiet",
                   "--json", "-")
        self.assertEqual(proc.returncode, 3, proc.stderr)
        result = json.loads(proc.stdout)
        self.assertEqual(result["status"], "incomplete")
        self.assertIn("over the cap of 2 states", result["stopped_because"])
        self.assertGreater(result["value"], 0)
        self.assertGreaterEqual(result["upper_bound"], result["value"])
        lines = proc.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertIn("over the cap of 2 states", lines[0])
        for args in [["--max-states", "0"], ["--switch-threshold", "0"]]:
            proc = run("--generate", spec, "--method", "core", *args)
            self.assertEqual(proc.returncode, 2, f"{args}: {proc.stderr}")

    def test_write_instance_gives_a_file_that_solves_the_same(self):
        spec = "jooken,50,100000,6,0.2,0.001,100,7"
        path = os.path.join(self.folder.name, "written.txt")
        proc = run("--generate", spec, "--write-instance", path)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(path) as f:
            lines = f.read().split("\n")
        self.assertEqual(lines[0], "50")
        self.assertEqual(lines[1].split()[0], "1")
        self.assertEqual(lines[51], "100000")
        proc, generated = run_json("--generate", spec, "--method", "dp")
        proc, written = run_json(path, "--method", "core")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(written["value"], generated["value"])
        self.assertEqual((written["items"], written["capacity"]), (50, 100000))
        proc = run("--generate", spec, "--write-instance", "/nonexistent/dir/x.txt")
        self.assertEqual(proc.returncode, 2, proc.stderr)

    def test_bad_jooken_specs_exit_2(self):
        for spec in ["jooken,400,1000,1,0.1,0,100,1", "jooken,400,1000,2,2,0,100,1",
                     "jooken,400,1000,2,0.1,0,100"]:
            proc = run("--generate", spec)
            self.assertEqual(proc.returncode, 2, spec)
            self.assertIn("--generate " + spec, proc.stderr)


if __name__ == "__main__":
    unittest.main()
