"""End-to-end tests of `permbb solve --certificate` and `permbb audit`: real processes, files.

Run by ctest with PERMBB_BIN in the environment. The expected optimum of ta001 (1278) is
Taillard's published one; the exit statuses are those docs/audit.md promises.
"""
import json
import os
import subprocess
import tempfile
import unittest

BIN = os.environ["PERMBB_BIN"]


def permbb(*args, timeout=120):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=timeout)


class AuditCommand(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        cls.cert = os.path.join(cls.folder.name, "ta001.cert")
        proc = permbb("solve", "ta001", "--ub", "inf", "--no-gpu", "--threads", "2", "--quiet",
                      "--certificate", cls.cert)
        assert proc.returncode == 0, proc.stderr
        with open(cls.cert) as f:
            cls.lines = f.read().splitlines()

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def write(self, name, lines):
        path = os.path.join(self.folder.name, name)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        return path

    def test_certificate_holds(self):
        proc = permbb("audit", self.cert, "--sample", "20", "--seed", "3")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("certificate holds: optimal makespan 1278", proc.stdout)

    def test_json_gives_every_check(self):
        # One thread explores in one order, so the number of explored subproblems is the same
        # from run to run and more than the sample (with two threads it varies, and on a busy
        # machine it fell to the sample's size, where the audit re-explores them all).
        cert = os.path.join(self.folder.name, "ta001-one-thread.cert")
        proc = permbb("solve", "ta001", "--ub", "inf", "--no-gpu", "--threads", "1", "--quiet",
                      "--certificate", cert)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(cert) as f:
            explored = sum(1 for line in f if line.startswith("e "))
        self.assertGreater(explored, 5)
        proc = permbb("audit", cert, "--sample", "5", "--json")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        result = json.loads(proc.stdout)
        self.assertEqual(result["verdict"], "holds")
        self.assertEqual([c["check"] for c in result["checks"]], [1, 2, 3, 4, 5])
        self.assertTrue(all(c["holds"] for c in result["checks"]))
        self.assertEqual(result["checks"][0]["recomputed"], 1278)
        self.assertIn("(1 - p)^", result["sample"]["probability"])

    def test_removed_subproblem_is_refuted_in_one_line(self):
        at = next(i for i, line in enumerate(self.lines) if line.startswith(("e ", "p ")))
        lines = self.lines[:at] + self.lines[at + 1:]
        lines = [self.recounted(line, -1) for line in lines]
        proc = permbb("audit", self.write("removed.cert", lines), "--sample", "0")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertEqual(len(proc.stdout.splitlines()), 1)
        self.assertTrue(proc.stdout.startswith("refuted: check 2 (partition)"), proc.stdout)

    def test_foreign_and_malformed_files_exit_2(self):
        for name, lines in [("foreign.cert", ["not a certificate"]),
                            ("truncated.cert", self.lines[: len(self.lines) // 2])]:
            proc = permbb("audit", self.write(name, lines))
            self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
            self.assertEqual(len(proc.stderr.splitlines()), 1, proc.stderr)

    def test_certificate_refused_where_not_recorded(self):
        proc = permbb("solve", "ta001", "--restart", os.path.join(self.folder.name, "x.ckpt"),
                      "--certificate", os.path.join(self.folder.name, "r.cert"))
        self.assertEqual(proc.returncode, 2)
        self.assertIn("--certificate", proc.stderr)

    @staticmethod
    def recounted(line, delta):
        if not line.startswith("cut "):
            return line
        words = line.split()
        words[4] = str(int(words[4]) + delta)
        return " ".join(words)


if __name__ == "__main__":
    unittest.main()
