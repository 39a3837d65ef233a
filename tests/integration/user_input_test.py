"""Nothing a user types loses their data, round two (issue 49): a checkpoint that holds a
search, a restart without --checkpoint, checkpoints through links; signals to every command
that searches; outputs that name inputs or each other, FIFOs and devices, a report's images;
names that mean two things; commands under mpirun; options that would be silently ignored;
words that never claim a proof that was not made.

Run by ctest with PERMBB_BIN and PERMBB_TEST_DATA in the environment. Each case runs the real
executable with a timeout; expected values come from the inputs, not from earlier outputs.
"""
import json
import os
import signal
import subprocess
import time
import unittest

from no_data_loss_test import BIN, LONG_RUN, Folder, describe, file_bytes, finish, run, start, \
    wait_for

DATA = os.path.join(os.environ["PERMBB_TEST_DATA"], "instances")
SLURM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "slurm")
MPIRUN = os.environ.get("PERMBB_MPIRUN", "mpirun")
MPI_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
# Searches that only a limit or a signal ends (each runs for minutes), one per command.
LONG_SEARCHES = {
    "heuristic": ["heuristic", "ta051", "--method", "ils", "--time-limit", "120"],
    "knapsack": ["knapsack", "--generate", "strongly-correlated,2000,1000000000,1", "--method",
                 "bb", "--no-gpu"],
    "pcmax": ["pcmax", "--generate", "uniform,100,30,1000,10000,3", "--exact", "--no-gpu",
              "--threads", "1"],
}
KNAPSACK = "3 10\n6 5\n5 4\n4 3\n"


class Checkpoints(Folder):
    def test_a_fresh_run_never_replaces_a_saved_search(self):
        ckpt = self.path("run.ck")
        first = run(*LONG_RUN, "--checkpoint", ckpt, "--time-limit", "0.3", "--quiet")
        self.assertEqual(first.returncode, 3, first.stderr)
        self.assertTrue(os.path.exists(ckpt + ".prev"))
        saved, previous = file_bytes(ckpt), file_bytes(ckpt + ".prev")
        for instance in ["ta022", "ta021"]:  # the same search again, and another instance
            with self.subTest(instance=instance):
                again = run("solve", instance, "--no-gpu", "--threads", "1", "--checkpoint",
                            ckpt, "--time-limit", "0.3", "--quiet")
                self.assert_one_line_exit_2(again, "--restart", "--overwrite-checkpoint")
                self.assertEqual(file_bytes(ckpt), saved)
                self.assertEqual(file_bytes(ckpt + ".prev"), previous)
        os.remove(ckpt)  # FILE.prev alone still holds the search
        again = run(*LONG_RUN, "--checkpoint", ckpt, "--time-limit", "0.3", "--quiet")
        self.assert_one_line_exit_2(again, "--overwrite-checkpoint")
        over = run(*LONG_RUN, "--checkpoint", ckpt, "--overwrite-checkpoint", "--time-limit",
                   "0.3", "--quiet")
        self.assertEqual(over.returncode, 3, over.stderr)
        self.assertEqual(describe(ckpt)["restarts"], 0)

    def test_a_restart_without_checkpoint_goes_on_saving_to_its_file(self):
        ckpt = self.path("run.ck")
        first = run(*LONG_RUN, "--checkpoint", ckpt, "--time-limit", "0.5", "--quiet")
        self.assertEqual(first.returncode, 3, first.stderr)
        before = describe(ckpt)["nodes_decomposed"]
        restart = run(*LONG_RUN, "--restart", ckpt, "--time-limit", "0.5", "--quiet", "--json",
                      "-")
        self.assertEqual(restart.returncode, 3, restart.stderr)
        saved = describe(ckpt)
        self.assertEqual(saved["restarts"], 1)
        self.assertEqual(saved["nodes_decomposed"], json.loads(restart.stdout)["nodes_decomposed"])
        self.assertGreater(saved["nodes_decomposed"], before)

    def test_a_checkpoint_through_a_link_writes_the_file_and_locks_it(self):
        os.mkdir(self.path("scratch"))
        target = self.path("scratch/run.ck")
        os.symlink(target, self.path("a.ck"))          # dangling until the first write
        os.symlink("scratch/run.ck", self.path("b.ck"))  # relative, the same file
        first = start(*LONG_RUN, "--checkpoint", self.path("a.ck"), "--checkpoint-interval",
                      "0.05", "--quiet")
        try:
            wait_for(target)
            second = run(*LONG_RUN, "--checkpoint", self.path("b.ck"), "--restart",
                         self.path("b.ck"), "--time-limit", "1", "--quiet")
            self.assert_one_line_exit_2(second, "in use by another run")
        finally:
            first.send_signal(signal.SIGTERM)
            code, _, err = finish(first)
        self.assertEqual(code, 3, err)
        self.assertTrue(os.path.islink(self.path("a.ck")))
        self.assertFalse(describe(self.path("a.ck"))["complete"])
        self.assertTrue(os.path.isfile(target + ".prev"))


def write_big_instance(path, jobs=3000, machines=40):
    """An instance on which NEH alone takes a good part of a second (3000 x 40), or seconds
    (4000 x 100)."""
    with open(path, "w") as f:
        f.write(f"{jobs} {machines}\n")
        for k in range(machines):
            f.write(" ".join(str((j * 7919 + k * 104729) % 97 + 1) for j in range(jobs)))
            f.write("\n")
    return path


class SignalsToEveryCommandThatSearches(Folder):
    def test_term_cuts_the_heuristics_neh_short(self):
        big = write_big_instance(self.path("big.txt"), jobs=4000, machines=100)
        for method in ["neh", "ils"]:
            with self.subTest(method=method):
                proc = start("heuristic", big, "--method", method, "--time-limit", "60",
                             "--quiet", "--json", "-")
                time.sleep(0.5)
                sent = time.monotonic()
                proc.send_signal(signal.SIGTERM)
                code, result, err = finish(proc, timeout=30)
                self.assertLess(time.monotonic() - sent, 2.0)
                self.assertEqual(code, 3, err)
                self.assertEqual(result["status"], "incomplete")
                self.assertEqual(len(result["permutation"]), 4000)

    def test_term_int_and_hup_end_each_search_with_its_best_so_far(self):
        for (command, args), sig in zip(LONG_SEARCHES.items(),
                                        [signal.SIGTERM, signal.SIGINT, signal.SIGHUP]):
            with self.subTest(command=command, signal=sig.name):
                proc = start(*args, "--quiet", "--json", "-")
                time.sleep(1.5)
                proc.send_signal(sig)
                code, result, err = finish(proc, timeout=30)
                self.assertEqual(code, 3, err)
                self.assertIsNotNone(result, err)
                self.assertEqual(result["status"], "incomplete")
                self.assertEqual(result["stopped_because"], f"stopped by {sig.name}")


class OutputsThatNameInputsOrEachOther(Folder):
    def write(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
        return self.path(name)

    def test_knapsack_write_instance_onto_its_input_or_its_json(self):
        instance = self.write("k.txt", KNAPSACK)
        os.symlink(instance, self.path("link.txt"))
        for target in [instance, self.path("link.txt")]:
            with self.subTest(target=target):
                proc = run("knapsack", instance, "--write-instance", target)
                self.assert_one_line_exit_2(proc, "--write-instance", "the same file")
                self.assertEqual(file_bytes(instance).decode(), KNAPSACK)
        ckpt = self.path("run.ck")
        first = run(*LONG_RUN, "--checkpoint", ckpt, "--time-limit", "0.3", "--quiet")
        self.assertEqual(first.returncode, 3, first.stderr)
        previous = file_bytes(ckpt + ".prev")
        proc = run("checkpoint", ckpt, "--json", ckpt + ".prev")
        self.assert_one_line_exit_2(proc, "--json", "the previous checkpoint")
        self.assertEqual(file_bytes(ckpt + ".prev"), previous)
        out = self.path("out.txt")
        proc = run("knapsack", instance, "--write-instance", out, "--json", out)
        self.assert_one_line_exit_2(proc, "--json", "the same file")
        self.assertFalse(os.path.exists(out))

    def test_fifos_and_devices_are_refused_not_waited_for(self):
        fifo = self.path("f.fifo")
        os.mkfifo(fifo)
        log = self.path("p.jsonl")
        self.assertEqual(run("solve", "ta001", "--no-gpu", "--quiet", "--progress-log", log)
                         .returncode, 0)
        instance = self.write("k.txt", KNAPSACK)
        cases = {
            "report a device": ["report", "/dev/zero", "-o", self.path("z.html")],
            "report a FIFO": ["report", fifo, "-o", self.path("f.html")],
            "report onto a FIFO": ["report", log, "-o", fifo],
            "knapsack onto a FIFO": ["knapsack", instance, "--write-instance", fifo],
        }
        for name, args in cases.items():
            with self.subTest(name):
                self.assert_one_line_exit_2(run(*args, timeout=30))

    def test_report_page_and_image_folder_of_one_name(self):
        log = self.path("p.jsonl")
        self.assertEqual(run("solve", "ta001", "--no-gpu", "--quiet", "--progress-log", log)
                         .returncode, 0)
        page = self.path("rep.html")
        proc = run("report", log, "-o", page, "--images", page, timeout=120)
        self.assert_one_line_exit_2(proc, "--images", "-o")
        self.assertFalse(os.path.exists(page))

    def test_report_images_remove_only_what_a_report_wrote(self):
        log = self.path("p.jsonl")
        self.assertEqual(run("solve", "ta001", "--no-gpu", "--quiet", "--progress-log", log)
                         .returncode, 0)
        images = self.path("imgs")
        os.mkdir(images)
        mine = self.write("imgs/plot-9.png", "the user's own file")
        for _ in range(2):  # the second run replaces the first's plots, and only them
            proc = run("report", log, "-o", self.path("r.html"), "--images", images,
                       timeout=120)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(file_bytes(mine), b"the user's own file")
        self.assertTrue(os.path.isfile(os.path.join(images, "plot-1.png")))
        os.remove(os.path.join(images, ".permbb-report-images"))  # now none is the report's
        proc = run("report", log, "-o", self.path("r.html"), "--images", images, timeout=120)
        self.assert_one_line_exit_2(proc, "plot-1.png", "no earlier report wrote")


class NamesThatMeanTwoThings(Folder):
    def test_a_taillard_name_that_is_also_a_file_here(self):
        with open(self.path("ta017"), "w") as f:
            f.write("2 2\n1 2\n3 4\n")
        proc = run("solve", "ta017", "--no-gpu", "--quiet", cwd=self.dir)
        self.assert_one_line_exit_2(proc, "ta017", "./ta017")

    def test_knapsack_and_solve_read_a_bare_json_followed_by_a_file_alike(self):
        instance = os.path.join(self.dir, "k.txt")
        with open(instance, "w") as f:
            f.write(KNAPSACK)
        proc = run("knapsack", "--json", instance)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(json.loads(proc.stdout)["value"], 11)
        self.assertEqual(file_bytes(instance).decode(), KNAPSACK)


class NotClusterCommands(Folder):
    def test_heuristic_knapsack_and_pcmax_under_mpirun_are_refused_once(self):
        instance = os.path.join(self.dir, "k.txt")
        with open(instance, "w") as f:
            f.write(KNAPSACK)
        for args in [["heuristic", "ta001"], ["knapsack", instance],
                     ["pcmax", "--generate", "uniform,10,2,1,10,1", "--exact"]]:
            with self.subTest(command=args[0]):
                proc = subprocess.run([MPIRUN, "--oversubscribe", "-np", "3", BIN, *args,
                                       "--json", "-"], capture_output=True, text=True,
                                      timeout=60, env=MPI_ENV)
                self.assertNotEqual(proc.returncode, 0)
                self.assertEqual(proc.stdout.strip(), "")
                errors = [l for l in proc.stderr.splitlines() if l.startswith("permbb: error:")]
                self.assertEqual(len(errors), 1, proc.stderr)
                self.assertIn("not a cluster command", errors[0])


class OptionsThatWouldBeIgnored(Folder):
    def test_empty_file_names_are_refused(self):
        for option in ["--checkpoint", "--json", "--progress-log", "--restart"]:
            with self.subTest(option=option):
                self.assert_one_line_exit_2(run("solve", "ta001", option, ""), option,
                                            "empty file name")
        self.assert_one_line_exit_2(run("report", "x.jsonl", "--images", ""), "--images")

    def test_knapsack_dp_honours_the_time_limit(self):
        begin = time.monotonic()
        proc = run("knapsack", "--generate", "uncorrelated,1000,10000,1", "--method", "dp",
                   "--dp-memory-mib", "1000", "--time-limit", "0.5", "--json", "-")
        self.assertLess(time.monotonic() - begin, 3.5)
        self.assertEqual(proc.returncode, 3, proc.stderr)
        result = json.loads(proc.stdout)
        self.assertEqual(result["status"], "incomplete")
        self.assertEqual(result["stopped_because"], "time limit")

    def test_cluster_options_in_one_process_are_named(self):
        proc = run("solve", "ta001", "--no-gpu", "--rank-timeout", "500",
                   "--worker-checkpoint-interval", "10", "--checkpoint-interval", "5",
                   "--worker-steal-checkpoint-interval", "5")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for option in ["--rank-timeout", "--worker-checkpoint-interval",
                       "--checkpoint-interval", "--worker-steal-checkpoint-interval"]:
            self.assertIn(f"{option}: ", proc.stderr)

    def test_heuristic_options_of_another_method_are_named(self):
        proc = run("heuristic", "ta001", "--method", "beam", "--iterations", "2",
                   "--ig-destruction", "6", "--beam-guide", "gap")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("--ig-destruction: only --method ils uses it", proc.stderr)
        self.assertNotIn("--beam-guide:", proc.stderr)
        instance = os.path.join(self.dir, "k.txt")
        with open(instance, "w") as f:
            f.write(KNAPSACK)
        proc = run("knapsack", instance, "--method", "bb", "--max-states", "100",
                   "--max-list-nodes", "100")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("--max-states: only --method core uses it", proc.stderr)
        self.assertNotIn("--max-list-nodes:", proc.stderr)
        proc = run("knapsack", instance, "--method", "core", "--without",
                   "dominance,reachable-sums")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("--without dominance: only --method bb has it", proc.stderr)
        self.assertNotIn("--without reachable-sums:", proc.stderr)
        proc = run("pcmax", "--generate", "uniform,10,2,1,10,1", "--exact", "--split", "4")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("--split: only the PTAS (--epsilon) uses it", proc.stderr)

    def test_heuristic_threads_zero_means_all_cores(self):
        proc = run("heuristic", "ta001", "--method", "ils", "--threads", "0", "--iterations",
                   "5", "--json", "-")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertGreaterEqual(json.loads(proc.stdout)["threads"], 1)


class WordsThatClaimNoProof(Folder):
    def test_a_stopped_search_without_a_schedule_claims_none(self):
        log = self.path("p.jsonl")
        proc = run("solve", "ta021", "--ub", "2298", "--no-gpu", "--threads", "1", "--progress",
                   "0.2", "--time-limit", "1", "--progress-log", log, "--json", "-")
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertIsNone(json.loads(proc.stdout)["makespan"])
        progress = [l for l in proc.stderr.splitlines() if "progress" in l and "best" in l]
        self.assertTrue(progress, proc.stderr)
        for line in progress:
            self.assertIn("best none", line)
        page = self.path("r.html")
        report = run("report", log, "-o", page, timeout=120)
        self.assertEqual(report.returncode, 0, report.stderr)
        with open(page, encoding="utf-8") as f:
            text = f.read()
        self.assertNotIn("nothing below the initial upper bound", text)
        self.assertIn("nothing is proved", text)

    def test_the_time_is_the_time_the_user_waited(self):
        # NEH on 3000 x 40 takes seconds: the limit cuts it short, and the time reported counts
        # it, as the user waited for it.
        path = write_big_instance(self.path("big.txt"))
        begin = time.monotonic()
        proc = run("solve", path, "--no-gpu", "--threads", "1", "--time-limit", "1", "--json",
                   "-", "--quiet")
        waited = time.monotonic() - begin
        self.assertEqual(proc.returncode, 3, proc.stderr)
        seconds = json.loads(proc.stdout)["seconds"]
        self.assertGreaterEqual(seconds, 0.9)
        self.assertLessEqual(seconds, waited)


class SmallerOnes(Folder):
    def test_ub_opt_takes_the_bound_a_published_file_names(self):
        proc = run("solve", os.path.join(DATA, "taillard_20x5_first3.txt#1"), "--ub", "opt",
                   "--no-gpu", "--json", "-", "--quiet")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(json.loads(proc.stdout)["initial_ub"], 1278)

    def test_messages_name_the_limit_the_choices_and_the_command(self):
        cases = [(["solve", "ta001", "--ub", "2147483647"], "2147483646"),
                 (["solve", "ta001", "--bound", "lb3"], "auto"),
                 (["foo"], "unknown command foo")]
        for args, words in cases:
            with self.subTest(args=args):
                self.assert_one_line_exit_2(run(*args), words)

    def test_help_shows_defaults_as_they_are(self):
        solve = run("solve", "--help").stdout
        self.assertNotIn("{false}", solve)
        self.assertNotIn("TEXT=-", solve)
        self.assertIn("--json [FILE]", solve)

    def test_slurm_helpers_refuse_what_cannot_run(self):
        sweep = subprocess.run(["bash", os.path.join(SLURM, "permbb-sweep"), "start", "--run-dir",
                                self.path("sweep"), "--lower-bound", "6200", "--max-ub", "6100",
                                "--dry-run", "ta081"], capture_output=True, text=True,
                               timeout=60)
        self.assertEqual(sweep.returncode, 2, sweep.stderr)
        self.assertIn("--max-ub 6100", sweep.stderr)
        status = subprocess.run(["bash", os.path.join(SLURM, "permbb-submit"), "--status",
                                 "--run-dir", self.path("nonexistent")], capture_output=True,
                                text=True, timeout=60)
        self.assertEqual(status.returncode, 2, status.stderr)
        self.assertIn("no such folder", status.stderr)


if __name__ == "__main__":
    unittest.main()
