"""End-to-end tests of `permbb knapsack`: real processes, real files.

Run by ctest with PERMBB_BIN (the executable) in the environment. Expected values come from
hand computation or from the dynamic program (`--method dp`, code independent of the
branch-and-bound), never from the branch-and-bound itself.
"""
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


class KnapsackFiles(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.folder.cleanup()

    def write(self, name, text):
        path = os.path.join(self.folder.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_hand_computed_instance_and_every_json_field(self):
        path = self.write("hand.txt", HAND_INSTANCE)
        proc, result = run_json(path, "--no-gpu")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for key in ["instance", "items", "capacity", "method", "status", "value", "weight",
                    "chosen", "nodes_explored", "seconds", "engine", "levels_cpu", "levels_gpu",
                    "switches", "lists_set_aside", "switch_threshold", "max_list_nodes"]:
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
    def test_branch_and_bound_agrees_with_the_dynamic_program(self):
        for spec in ["uncorrelated,60,1000,1", "weakly-correlated,60,1000,2",
                     "strongly-correlated,60,100,3", "inverse-strongly-correlated,60,100,4",
                     "subset-sum,60,1000,5"]:
            proc, bb = run_json("--generate", spec)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            proc, dp = run_json("--generate", spec, "--method", "dp")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(bb["value"], dp["value"], spec)
            self.assertEqual(bb["instance"], spec)
            self.assertEqual(dp["engine"], "dp")
            self.assertLessEqual(bb["weight"], bb["capacity"])

    def test_both_engines_agree_when_switching_every_level(self):
        # Default engine: the GPU when there is one; a threshold of 1 puts every level there.
        spec = "strongly-correlated,50,100,6"
        proc, dp = run_json("--generate", spec, "--method", "dp")
        proc, bb = run_json("--generate", spec, "--switch-threshold", "1",
                            "--max-list-nodes", "64")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(bb["value"], dp["value"])

    def test_gpu_flag_needs_a_gpu(self):
        # Without a usable GPU (none visible, or built without CUDA) the default engine is the
        # CPU and --gpu must fail with exit 2; with one, --gpu must run on it.
        spec = "uncorrelated,30,100,7"
        proc, default = run_json("--generate", spec)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        proc = run("--generate", spec, "--gpu", "--json", "-", "--quiet")
        if default["engine"] == "cpu":
            self.assertEqual(proc.returncode, 2, proc.stderr)
            self.assertIn("--gpu", proc.stderr)
            self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        else:
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(json.loads(proc.stdout)["engine"], "gpu")

    def test_time_limit_gives_incomplete_and_exit_3(self):
        # A strongly correlated instance that takes minutes; stopped after 0.2 s.
        proc, result = run_json("--generate", "strongly-correlated,300,100,4", "--no-gpu",
                                "--time-limit", "0.2")
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertEqual(result["status"], "incomplete")
        self.assertLessEqual(result["weight"], result["capacity"])

    def test_bad_options_exit_2(self):
        for args in [[], ["--generate", "strongly-correlated,10,100"],
                     ["--generate", "heavy,10,100,1"], ["--generate", "subset-sum,0,100,1"],
                     ["--generate", "subset-sum,10,100,1", "--max-list-nodes", "1"],
                     ["--generate", "subset-sum,10,100,1", "--method", "dp", "--gpu"],
                     ["--generate", "subset-sum,10,100,1", "--capacity", "-5"],
                     ["--generate", "subset-sum,10,100,1", "--capacity", "1000000000000",
                      "--method", "dp", "--dp-memory-mib", "1"]]:
            proc = run(*args)
            self.assertEqual(proc.returncode, 2, f"{args}: {proc.stderr}")


if __name__ == "__main__":
    unittest.main()
