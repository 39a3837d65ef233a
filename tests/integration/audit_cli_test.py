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
MPIRUN = os.environ.get("PERMBB_MPIRUN", "mpirun")
MPI_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1",
               OMPI_MCA_btl_vader_single_copy_mechanism="none")
# Decomposed nodes per link of the restart chain: about a quarter of ta011's search at
# --ub opt with LB1 (some 160,000 nodes), so that both stops fall inside it.
CHAIN_NODE_LIMIT = 40000


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

    def test_time_limit_leaves_the_sample_incomplete_with_exit_3(self):
        # One thread: the cut then has more explored subproblems than the sample (see above).
        cert = os.path.join(self.folder.name, "ta001-time-limit.cert")
        proc = permbb("solve", "ta001", "--ub", "inf", "--no-gpu", "--threads", "1", "--quiet",
                      "--certificate", cert)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        # A microsecond has passed before the sample starts: none of it is re-explored, and
        # checks 1, 2, 3 and 5 still run to their end.
        proc = permbb("audit", cert, "--sample", "5", "--time-limit", "0.000001", "--json")
        self.assertEqual(proc.returncode, 3, proc.stdout + proc.stderr)
        result = json.loads(proc.stdout)
        self.assertEqual(result["verdict"], "incomplete")
        self.assertFalse(result["sample"]["complete"])
        self.assertTrue(result["sample"]["stopped_by_time_limit"])
        sample = result["checks"][3]
        self.assertTrue(sample["stopped_by_time_limit"])
        self.assertEqual(sample["subproblems_done"], 0)
        self.assertEqual(sample["draws_done"], 0)
        self.assertIn("(1 - p)^0", result["sample"]["probability"])
        self.assertTrue(all(c["holds"] for c in result["checks"]))
        proc = permbb("audit", cert, "--sample", "5", "--time-limit", "0.000001")
        self.assertEqual(proc.returncode, 3, proc.stdout + proc.stderr)
        self.assertIn("check 4 (sample): incomplete", proc.stdout)
        self.assertIn("certificate not refuted, audit incomplete: optimal makespan 1278",
                      proc.stdout)
        # Time enough: the same audit as without a limit.
        proc = permbb("audit", cert, "--sample", "5", "--time-limit", "600", "--json")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(json.loads(proc.stdout)["verdict"], "holds")

    def test_time_limit_still_refutes_by_the_complete_checks(self):
        proc = permbb("audit", self.write("removed-limit.cert", self.without_first_subproblem()),
                      "--time-limit", "0.000001")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertTrue(proc.stdout.startswith("refuted: check 2 (partition)"), proc.stdout)

    def without_first_subproblem(self):
        """The certificate's lines with its first subproblem removed (and the count fixed)."""
        at = next(i for i, line in enumerate(self.lines) if line.startswith(("e ", "p ")))
        lines = self.lines[:at] + self.lines[at + 1:]
        return [self.recounted(line, -1) for line in lines]

    def test_removed_subproblem_is_refuted_in_one_line(self):
        proc = permbb("audit", self.write("removed.cert", self.without_first_subproblem()),
                      "--sample", "0")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertEqual(len(proc.stdout.splitlines()), 1)
        self.assertTrue(proc.stdout.startswith("refuted: check 2 (partition)"), proc.stdout)

    def test_foreign_and_malformed_files_exit_2(self):
        for name, lines in [("foreign.cert", ["not a certificate"]),
                            ("truncated.cert", self.lines[: len(self.lines) // 2])]:
            proc = permbb("audit", self.write(name, lines))
            self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
            self.assertEqual(len(proc.stderr.splitlines()), 1, proc.stderr)

    @staticmethod
    def recounted(line, delta):
        if not line.startswith("cut "):
            return line
        words = line.split()
        words[4] = str(int(words[4]) + delta)
        return " ".join(words)


def totals(path):
    """The `nodes N leaves L` line of a certificate, as two numbers."""
    with open(path) as f:
        words = next(line for line in f if line.startswith("nodes ")).split()
    return int(words[1]), int(words[3])


class RestartChain(unittest.TestCase):
    """A chain of three runs joined by --restart, stopped by --node-limit inside the search,
    writes one certificate at its end (docs/audit.md). At a fixed bound (--ub opt: no schedule
    below the optimum exists) its totals are those of one uninterrupted run, and the audit
    re-explores every explored subproblem."""

    INSTANCE = ["ta011", "--ub", "opt", "--bound", "lb1"]
    LIMIT = "%d" % CHAIN_NODE_LIMIT

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)

    def path(self, name):
        return os.path.join(self.folder.name, name)

    def solve(self, *args, expect):
        proc = permbb("solve", *args, "--no-gpu", "--threads", "2", "--quiet", timeout=300)
        self.assertEqual(proc.returncode, expect, proc.stdout + proc.stderr)
        return proc

    def test_chain_with_two_restarts_adds_up_and_holds(self):
        one = self.path("one.cert")
        self.solve(*self.INSTANCE, "--certificate", one, expect=0)
        chain = self.path("chain.cert")
        self.solve(*self.INSTANCE, "--certificate", chain, "--checkpoint", self.path("1.ckpt"),
                   "--node-limit", self.LIMIT, expect=3)
        self.assertFalse(os.path.exists(chain))  # only a completed chain writes one
        self.solve("ta011", "--restart", self.path("1.ckpt"), "--checkpoint", self.path("2.ckpt"),
                   "--certificate", chain, "--node-limit", self.LIMIT, expect=3)
        self.solve("ta011", "--restart", self.path("2.ckpt"), "--certificate", chain, expect=0)
        self.assertEqual(totals(chain), totals(one))
        proc = permbb("audit", chain, "--sample", "1000000000", "--json", timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        result = json.loads(proc.stdout)
        self.assertEqual(result["verdict"], "holds")
        self.assertTrue(result["sample"]["complete"])

    def test_chain_begun_without_certificate_is_refused(self):
        self.solve(*self.INSTANCE, "--checkpoint", self.path("plain.ckpt"),
                   "--node-limit", self.LIMIT, expect=3)
        proc = self.solve("ta011", "--restart", self.path("plain.ckpt"),
                          "--certificate", self.path("r.cert"), expect=2)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        self.assertIn("--certificate", proc.stderr)
        self.assertIn("no cut records", proc.stderr)


def mpirun(ranks, *args, expect, timeout=300):
    """`permbb solve` under mpirun with `ranks` ranks (one explorer thread each); its result.
    `expect`: the exit status, or a tuple of those allowed."""
    proc = subprocess.run([MPIRUN, "--oversubscribe", "-np", str(ranks), BIN, "solve", *args,
                           "--no-gpu", "--threads", "1", "--quiet", "--json", "-"],
                          capture_output=True, text=True, timeout=timeout, env=MPI_ENV)
    allowed = expect if isinstance(expect, tuple) else (expect,)
    assert proc.returncode in allowed, f"exit {proc.returncode}: {proc.stdout}{proc.stderr}"
    return json.loads(proc.stdout)


def audited(test, cert, *args):
    """Audits `cert` (exit 0 expected) and returns the JSON result."""
    proc = permbb("audit", cert, *args, "--json", timeout=300)
    test.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
    result = json.loads(proc.stdout)
    test.assertEqual(result["verdict"], "holds")
    return result


class ClusterCertificates(unittest.TestCase):
    """Certificates written under mpirun (docs/audit.md, "The cluster"): each worker's reports
    carry the cut records of the nodes they count, rank 0 merges them and writes the file.
    At a fixed bound (--ub opt: nothing below the optimum exists) every run decomposes the
    same nodes, so each cluster's totals equal one process's, whatever the ranks."""

    INSTANCE = ["ta011", "--ub", "opt", "--bound", "lb1"]

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)

    def path(self, name):
        return os.path.join(self.folder.name, name)

    def single_process_totals(self, instance=None):
        proc = permbb("solve", *(instance or self.INSTANCE), "--no-gpu", "--threads", "2",
                      "--quiet", "--json", "-", timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        result = json.loads(proc.stdout)
        return result["nodes_decomposed"], result["leaves"]

    def assert_totals(self, audit, solved):
        """The auditor's check 5: what it adds up from the records is the solve's count."""
        totals = audit["checks"][4]
        self.assertEqual(totals["run_nodes_decomposed"], solved["nodes_decomposed"])
        self.assertEqual(totals["recorded_nodes"] + totals["inner_nodes"] +
                         totals["surplus_nodes_under_pruned"], solved["nodes_decomposed"])
        self.assertEqual(totals["run_leaves"], solved["leaves"])

    def test_clusters_of_2_to_5_ranks_write_certificates_that_hold(self):
        expected = self.single_process_totals()
        for ranks in [2, 3, 4, 5]:
            with self.subTest(ranks=ranks):
                cert = self.path(f"{ranks}.cert")
                solved = mpirun(ranks, *self.INSTANCE, "--certificate", cert,
                                "--worker-checkpoint-interval", "0.05", expect=0)
                self.assertEqual(solved["engine"], "cluster")
                self.assertEqual((solved["nodes_decomposed"], solved["leaves"]), expected)
                audit = audited(self, cert, "--sample", "300", "--seed", str(ranks))
                self.assert_totals(audit, solved)

    def test_a_deep_cut_merged_where_light_holds_and_stays_small(self):
        # Recorded at depth 8 (--certificate-subproblems 10^10 at n = 20) by a cluster of
        # three ranks, written with subtrees of at most 2,000 nodes merged: far fewer
        # subproblems than the unmerged cut, and the whole sample re-explored holds.
        expected = self.single_process_totals()
        sizes = {}
        for merge in ["0", "2000"]:
            cert = self.path(f"merge{merge}.cert")
            solved = mpirun(3, *self.INSTANCE, "--certificate", cert,
                            "--certificate-subproblems", "10000000000",
                            "--certificate-merge", merge, expect=0)
            self.assertEqual((solved["nodes_decomposed"], solved["leaves"]), expected)
            with open(cert) as f:
                sizes[merge] = sum(1 for line in f if line.startswith(("e ", "p ")))
            audit = audited(self, cert, "--sample", "1000000", "--seed", "5")
            self.assertTrue(audit["sample"]["complete"])
            self.assert_totals(audit, solved)
        self.assertLess(10 * sizes["2000"], sizes["0"])

    def test_cluster_chain_restarted_twice_audits_as_one_run(self):
        # Backward branching makes ta011's search some 6 million nodes, so that a node limit
        # a twentieth of it stops a link inside the search: the coordinator learns the counts
        # from the workers' reports (here every 0.05 s), and the minmin search above takes
        # less than that. A chain's limit counts the nodes of all its links, and how far a
        # link overshoots it depends on the machine's load (on a loaded CI machine a first
        # link with a fifth left the second too little to stop in), so each link gets a
        # twentieth more, ranks 4 and 2 in turn, until one completes the search.
        settings = ["--bound", "lb1", "--branch", "bwd", "--worker-checkpoint-interval", "0.05"]
        expected = self.single_process_totals(["ta011", "--ub", "opt", *settings[:4]])
        step = expected[0] // 20
        cert = self.path("chain.cert")
        mpirun(3, "ta011", "--ub", "opt", *settings, "--certificate", cert,
               "--checkpoint", self.path("0.ckpt"), "--node-limit", str(step), expect=3)
        self.assertFalse(os.path.exists(cert))  # only a completed chain writes one
        for link in range(1, 25):
            solved = mpirun(4 if link % 2 else 2, "ta011", *settings,
                            "--restart", self.path(f"{link - 1}.ckpt"),
                            "--checkpoint", self.path(f"{link}.ckpt"), "--certificate", cert,
                            "--node-limit", str((link + 1) * step), expect=(0, 3))
            if solved["status"] != "incomplete":
                break
        self.assertGreaterEqual(solved["restarts"], 2)
        self.assertEqual((solved["nodes_decomposed"], solved["leaves"]), expected)
        audit = audited(self, cert, "--sample", "300", "--seed", "5")
        self.assert_totals(audit, solved)

    def test_a_cluster_link_finished_in_one_process_audits_as_one_run(self):
        # The global checkpoint is the single process's format: records included, a chain
        # goes on with any number of ranks, one process too (BWD: see the chain above).
        settings = ["--bound", "lb1", "--branch", "bwd"]
        expected = self.single_process_totals(["ta011", "--ub", "opt", *settings])
        cert = self.path("mixed.cert")
        mpirun(3, "ta011", "--ub", "opt", *settings, "--certificate", cert,
               "--worker-checkpoint-interval", "0.05", "--checkpoint", self.path("c.ckpt"),
               "--node-limit", "%d" % (expected[0] // 3), expect=3)
        proc = permbb("solve", "ta011", *settings, "--restart", self.path("c.ckpt"),
                      "--certificate", cert, "--no-gpu", "--threads", "2", "--quiet",
                      "--json", "-", timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        solved = json.loads(proc.stdout)
        self.assertEqual(solved["engine"], "cpu")
        self.assertEqual((solved["nodes_decomposed"], solved["leaves"]), expected)
        self.assert_totals(audited(self, cert, "--sample", "300", "--seed", "7"), solved)

    def test_cluster_chain_begun_without_certificate_is_refused(self):
        # Some 6 million nodes (BWD, as the chain above), so that the limit stops the first
        # link inside the search: minmin's 158,083 can end before any worker reports.
        settings = ["--bound", "lb1", "--branch", "bwd", "--worker-checkpoint-interval", "0.05"]
        mpirun(3, "ta011", "--ub", "opt", *settings, "--checkpoint", self.path("plain.ckpt"),
               "--node-limit", "1000000", expect=3)
        proc = subprocess.run([MPIRUN, "--oversubscribe", "-np", "3", BIN, "solve", "ta011",
                               *settings, "--restart", self.path("plain.ckpt"), "--no-gpu",
                               "--quiet", "--certificate", self.path("r.cert")],
                              capture_output=True, text=True, timeout=120, env=MPI_ENV)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        errors = [l for l in proc.stderr.splitlines() if l.startswith("permbb: error:")]
        self.assertEqual(len(errors), 1, proc.stderr)
        self.assertIn("no cut records", errors[0])

    def test_an_edited_count_is_refuted(self):
        cert = self.path("edited.cert")
        mpirun(3, *self.INSTANCE, "--certificate", cert, expect=0)
        with open(cert) as f:
            lines = f.read().splitlines()
        # The explored subproblem with the most nodes counts one more, and so does the total,
        # so that only re-exploring it (check 4) can tell.
        at = max((i for i, line in enumerate(lines) if line.startswith("e ")),
                 key=lambda i: int(lines[i].split()[1]))
        words = lines[at].split()
        words[1] = str(int(words[1]) + 1)
        lines[at] = " ".join(words)
        totals = next(i for i, line in enumerate(lines) if line.startswith("nodes "))
        words = lines[totals].split()
        words[1] = str(int(words[1]) + 1)
        lines[totals] = " ".join(words)
        edited = self.path("edited-by-hand.cert")
        with open(edited, "w") as f:
            f.write("\n".join(lines) + "\n")
        proc = permbb("audit", edited, "--sample", "1000000000", timeout=300)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertTrue(proc.stdout.startswith("refuted: check 4"), proc.stdout)


if __name__ == "__main__":
    unittest.main()
