"""Nothing a user types loses their data: outputs that would overwrite inputs, side outputs
whose reader stops or leaves, the hang-up and quit signals, two runs on one checkpoint or one
progress log, a log of another instance, readers that disagree on comments, options that do
not apply. Each case runs the real executable (pipes, FIFOs, signals); the `mpirun` cases are
in signals_test.py.

Run by ctest with PERMBB_BIN and PERMBB_TEST_DATA in the environment. Expected values come from
brute force written here or from the same program run on the clean input, never from a tabled
output of the code under test.
"""
import itertools
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

from flowshop_reference import brute_force, write_instance

BIN = os.environ["PERMBB_BIN"]
# ta022 with the backward branching rule runs for minutes: a run that only a limit or a
# signal ends.
LONG_RUN = ["solve", "ta022", "--branch", "bwd", "--ub", "opt", "--no-gpu", "--threads", "1"]


def run(*args, timeout=60, **kwargs):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=timeout,
                          **kwargs)


def start(*args, **kwargs):
    return subprocess.Popen([BIN, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True, **kwargs)


def finish(proc, timeout=60):
    """Exit status, parsed JSON result (None without one) and stderr of `proc`; kills it if it
    outlives `timeout`, which fails the test."""
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError(f"{proc.args} still ran after {timeout} s")
    text = out.strip()
    return proc.returncode, json.loads(text) if text.startswith("{") else None, err


def wait_for(path, timeout=30):
    deadline = time.time() + timeout
    while not os.path.exists(path):
        if time.time() > deadline:
            raise AssertionError(f"{path} did not appear within {timeout} s")
        time.sleep(0.01)


def wait_for_content(path, timeout=30):
    """Until `path` holds something: a progress log's first line is written once its run
    holds the lock (the file itself appears a moment before, when it is opened)."""
    wait_for(path, timeout)
    deadline = time.time() + timeout
    while os.path.getsize(path) == 0:
        if time.time() > deadline:
            raise AssertionError(f"{path} stayed empty for {timeout} s")
        time.sleep(0.01)


def file_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def describe(checkpoint):
    """What a checkpoint holds (`permbb checkpoint --json`); fails unless it is usable."""
    proc = run("checkpoint", checkpoint, "--json", "-")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


class Folder(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.dir = self.folder.name

    def tearDown(self):
        self.folder.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def assert_one_line_exit_2(self, proc, *words):
        self.assertEqual(proc.returncode, 2, proc.stderr)
        lines = proc.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertTrue(lines[0].startswith("permbb: error:"), proc.stderr)
        for word in words:
            self.assertIn(word, lines[0])


class OutputsThatNameInputs(Folder):
    def write(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
        return self.path(name)

    def test_json_onto_the_checkpoint_it_describes_directly_or_through_links(self):
        ckpt = self.path("r.ck")
        self.assertEqual(run("solve", "ta001", "--no-gpu", "--quiet", "--checkpoint", ckpt)
                         .returncode, 0)
        before = file_bytes(ckpt)
        os.symlink(ckpt, self.path("soft.ck"))
        os.link(ckpt, self.path("hard.ck"))
        for target in ["r.ck", "soft.ck", "hard.ck", "./r.ck"]:
            with self.subTest(target=target):
                proc = run("checkpoint", ckpt, "--json", self.path(target))
                self.assert_one_line_exit_2(proc, "--json", "the same file")
                self.assertEqual(file_bytes(ckpt), before)
        describe(ckpt)

    def test_json_onto_the_instance_of_every_command(self):
        cases = {
            "knapsack": self.write("k.txt", "3 10\n6 5\n5 4\n4 3\n"),
            "pcmax": self.write("p.txt", "4 2\n3 5 2 6\n"),
            "heuristic": write_instance(self.dir, "h.txt", [[3, 5, 2], [4, 1, 6]]),
            "solve": write_instance(self.dir, "s.txt", [[3, 5, 2], [4, 1, 6]]),
        }
        for command, instance in cases.items():
            with self.subTest(command=command):
                before = file_bytes(instance)
                extra = {"knapsack": ["--no-gpu"], "pcmax": ["--no-gpu", "--epsilon", "0.5"],
                         "solve": ["--no-gpu"], "heuristic": []}[command]
                proc = run(command, instance, *extra, "--json", instance)
                self.assert_one_line_exit_2(proc, "--json", "the instance")
                self.assertEqual(file_bytes(instance), before)

    def test_solve_outputs_naming_each_other_or_the_previous_checkpoint(self):
        log, ckpt = self.path("same.out"), self.path("run.ck")
        cases = [["--json", log, "--progress-log", log],
                 ["--checkpoint", log, "--progress-log", log],
                 ["--checkpoint", ckpt, "--json", ckpt + ".prev"]]
        for extra in cases:
            with self.subTest(extra=extra):
                proc = run("solve", "ta001", "--no-gpu", "--quiet", *extra)
                self.assert_one_line_exit_2(proc, "the same file")
                self.assertFalse(os.path.exists(log))


class CheckpointsMayNameTheirOwnFiles(Folder):
    def test_a_restart_after_a_kill_between_the_steps_of_a_save(self):
        # A save links FILE to FILE.prev before it renames the new file onto FILE: killed in
        # between, both names are one file. The restart must not take that for a clash.
        ckpt = self.path("run.ckpt")
        run(*LONG_RUN, "--checkpoint", ckpt, "--time-limit", "0.3", "--quiet")
        os.remove(ckpt + ".prev")
        os.link(ckpt, ckpt + ".prev")
        for restart in [ckpt, ckpt + ".prev"]:
            with self.subTest(restart=os.path.basename(restart)):
                proc = run(*LONG_RUN, "--restart", restart, "--checkpoint", ckpt,
                           "--time-limit", "0.3", "--quiet", "--json", "-")
                self.assertEqual(proc.returncode, 3, proc.stderr)


class SideOutputsNeverHoldTheSearch(Folder):
    def test_a_progress_log_fifo_whose_reader_stops_reading(self):
        # The reader opens the FIFO and never reads: the pipe fills within milliseconds at
        # --progress 0.001. The time limit must still end the run, with its checkpoint.
        fifo, ckpt = self.path("log.fifo"), self.path("run.ck")
        os.mkfifo(fifo)
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        try:
            proc = start(*LONG_RUN, "--progress", "0.001", "--progress-log", fifo,
                         "--time-limit", "2", "--checkpoint", ckpt, "--quiet", "--json", "-")
            code, result, err = finish(proc, timeout=30)
        finally:
            os.close(reader)
        self.assertEqual(code, 3, err)
        self.assertEqual(result["status"], "incomplete")
        self.assertIn("lines are dropped", err)
        self.assertFalse(describe(ckpt)["complete"])

    def test_a_progress_log_reader_that_leaves(self):
        # The reader takes 300 bytes and exits; SIGPIPE must not end the run.
        ckpt = self.path("run.ck")
        script = (f'exec "{BIN}" {" ".join(LONG_RUN)} --progress 0.01 --time-limit 1.5 '
                  f'--checkpoint "{ckpt}" --quiet --json - '
                  f'--progress-log >(head -c 300 >/dev/null)')
        proc = subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                              timeout=60)
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertEqual(json.loads(proc.stdout)["status"], "incomplete")
        self.assertIn("no more lines go there", proc.stderr)
        self.assertFalse(describe(ckpt)["complete"])


class HangUpAndQuit(Folder):
    def test_hup_quit_and_usr2_end_a_run_as_term_does(self):
        for sig in [signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR2]:
            with self.subTest(signal=sig.name):
                ckpt = self.path(f"{sig.name}.ck")
                proc = start(*LONG_RUN, "--checkpoint", ckpt, "--checkpoint-interval", "1000",
                             "--quiet", "--json", "-")
                wait_for(ckpt)  # the search has started: its first checkpoint is written
                time.sleep(0.5)
                proc.send_signal(sig)
                code, result, err = finish(proc)
                self.assertEqual(code, 3, err)
                self.assertEqual(result["status"], "incomplete")
                saved = describe(ckpt)
                self.assertFalse(saved["complete"])
                # Written at the signal, not only at the start: it holds the work done.
                self.assertEqual(saved["nodes_decomposed"], result["nodes_decomposed"])
                self.assertGreater(saved["nodes_decomposed"], 0)

    def test_a_run_killed_at_once_still_leaves_a_checkpoint(self):
        # Written when the search starts, so that kill -9 at any later moment leaves one.
        ckpt = self.path("run.ck")
        proc = start(*LONG_RUN, "--checkpoint", ckpt, "--checkpoint-interval", "1000",
                     "--quiet")
        wait_for(ckpt)
        proc.kill()
        finish(proc)
        self.assertFalse(describe(ckpt)["complete"])
        restart = run(*LONG_RUN, "--restart", ckpt, "--checkpoint", ckpt, "--time-limit", "0.5",
                      "--quiet", "--json", "-")
        self.assertEqual(restart.returncode, 3, restart.stderr)


class OneRunPerFile(Folder):
    def test_a_second_run_on_one_checkpoint_is_refused_until_the_first_dies(self):
        ckpt = self.path("run.ck")
        first = start(*LONG_RUN, "--checkpoint", ckpt, "--checkpoint-interval", "0.05",
                      "--quiet")
        wait_for(ckpt)
        for extra in [[], ["--restart", ckpt]]:
            second = run(*LONG_RUN, "--checkpoint", ckpt, *extra, "--time-limit", "1",
                         "--quiet")
            self.assert_one_line_exit_2(second, "--checkpoint", "in use by another run",
                                        f"pid {first.pid}")
        first.kill()  # kill -9: the kernel drops its lock
        finish(first)
        restart = run(*LONG_RUN, "--restart", ckpt, "--checkpoint", ckpt, "--time-limit", "0.5",
                      "--quiet", "--json", "-")
        self.assertEqual(restart.returncode, 3, restart.stderr)
        self.assertEqual(json.loads(restart.stdout)["restarts"], 1)

    def test_a_second_run_appending_to_one_progress_log_is_refused(self):
        log = self.path("p.jsonl")
        first = start(*LONG_RUN, "--progress-log", log, "--time-limit", "20", "--quiet")
        wait_for_content(log)
        before = file_bytes(log)
        second = run(*LONG_RUN, "--progress-log", log, "--time-limit", "1", "--quiet")
        self.assert_one_line_exit_2(second, "--progress-log", "in use by another run")
        first.kill()
        finish(first)
        self.assertTrue(file_bytes(log).startswith(before))
        again = run(*LONG_RUN, "--progress-log", log, "--time-limit", "0.3", "--quiet")
        self.assertEqual(again.returncode, 3, again.stderr)


class ProgressLogIdentity(Folder):
    def start_lines(self, log):
        with open(log) as f:
            return [r for r in map(json.loads, f) if r["event"] == "start"]

    def test_a_log_of_another_instance_is_refused_and_left_as_it_was(self):
        log = self.path("p.jsonl")
        self.assertEqual(run("solve", "ta021", "--no-gpu", "--time-limit", "0.3", "--quiet",
                             "--progress-log", log).returncode, 3)
        before = file_bytes(log)
        proc = run("solve", "ta011", "--no-gpu", "--quiet", "--progress-log", log)
        self.assert_one_line_exit_2(proc, "--progress-log", "ta021", "ta011")
        self.assertEqual(file_bytes(log), before)
        # The same instance again (a fresh search or a restart) may continue the log.
        self.assertEqual(run("solve", "ta021", "--no-gpu", "--time-limit", "0.3", "--quiet",
                             "--progress-log", log).returncode, 3)
        self.assertEqual(len(self.start_lines(log)), 2)

    def test_start_lines_carry_the_instance_data_and_the_settings(self):
        # The fingerprint follows the data: ta021 by name and the same data in a file agree,
        # ta011 differs; a file of other data named like ta021 is refused.
        same = self.path("ta021")
        with open(same, "w") as f:
            f.write(run("instance", "ta021").stdout)
        logs = {}
        for name, instance in [("by_name", "ta021"), ("file", same), ("other", "ta011")]:
            logs[name] = self.path(name + ".jsonl")
            run("solve", instance, "--no-gpu", "--time-limit", "0.2", "--quiet", "--bound",
                "lb1", "--branch", "fwd", "--progress-log", logs[name])
        lines = {name: self.start_lines(log)[0] for name, log in logs.items()}
        self.assertEqual(lines["by_name"]["fingerprint"], lines["file"]["fingerprint"])
        self.assertNotEqual(lines["by_name"]["fingerprint"], lines["other"]["fingerprint"])
        self.assertEqual(lines["by_name"]["bound"], "lb1")
        self.assertEqual(lines["by_name"]["branching"], "fwd")
        with open(same, "w") as f:
            f.write(run("instance", "ta022").stdout)
        proc = run("solve", same, "--no-gpu", "--quiet", "--progress-log", logs["by_name"])
        self.assert_one_line_exit_2(proc, "--progress-log")


class Readers(Folder):
    def variants(self, clean):
        """The clean text with a byte-order mark, with comments, and with both."""
        commented = "# written by hand\n" + clean.replace("\n", "   # a note\n", 1)
        return {"bom": "\ufeff" + clean, "comments": commented, "both": "\ufeff" + commented}

    def write(self, name, text):
        with open(self.path(name), "w", encoding="utf-8") as f:
            f.write(text)
        return self.path(name)

    def test_flowshop_files_with_a_byte_order_mark_or_comments(self):
        times = [[3, 5, 2, 7], [4, 1, 6, 2], [2, 2, 5, 1]]
        clean = f"4 3\n" + "".join(" ".join(map(str, row)) + "\n" for row in times)
        for variant, text in self.variants(clean).items():
            with self.subTest(variant=variant):
                proc = run("solve", self.write(variant + ".txt", text), "--no-gpu", "--quiet",
                           "--json", "-")
                self.assertEqual(proc.returncode, 0, proc.stderr)
                self.assertEqual(json.loads(proc.stdout)["makespan"], brute_force(times))

    def test_knapsack_files_with_a_byte_order_mark_or_comments(self):
        items, capacity = [(6, 5), (5, 4), (4, 3), (3, 2), (7, 6)], 10
        best = max(sum(p for p, _ in chosen) for r in range(len(items) + 1)
                   for chosen in itertools.combinations(items, r)
                   if sum(w for _, w in chosen) <= capacity)
        clean = f"{len(items)} {capacity}\n" + "".join(f"{p} {w}\n" for p, w in items)
        for variant, text in self.variants(clean).items():
            with self.subTest(variant=variant):
                proc = run("knapsack", self.write(variant + ".txt", text), "--no-gpu",
                           "--quiet", "--json", "-")
                self.assertEqual(proc.returncode, 0, proc.stderr)
                self.assertEqual(json.loads(proc.stdout)["value"], best)

    def test_pcmax_files_with_a_byte_order_mark_or_comments(self):
        clean = "5 2\n3 5 2 6 4\n"
        reference = run("pcmax", self.write("clean.txt", clean), "--no-gpu", "--epsilon", "0.5",
                        "--quiet", "--json", "-")
        self.assertEqual(reference.returncode, 0, reference.stderr)
        expected = json.loads(reference.stdout)
        for variant, text in self.variants(clean).items():
            with self.subTest(variant=variant):
                proc = run("pcmax", self.write(variant + ".txt", text), "--no-gpu",
                           "--epsilon", "0.5", "--quiet", "--json", "-")
                self.assertEqual(proc.returncode, 0, proc.stderr)
                result = json.loads(proc.stdout)
                self.assertEqual(result["makespan"], expected["makespan"])
                self.assertEqual(result["jobs"], 5)


class OptionsThatDoNotApply(Folder):
    def test_gpu_explorer_options_on_the_cpu_are_named_once(self):
        instance = write_instance(self.dir, "s.txt", [[3, 5, 2], [4, 1, 6]])
        for extra in [["--ivms", "64"], ["--gpu-pools", "2"]]:
            with self.subTest(extra=extra):
                proc = run("solve", instance, "--no-gpu", *extra, "--json", "-")
                self.assertEqual(proc.returncode, 0, proc.stderr)
                warnings = [line for line in proc.stderr.splitlines() if extra[0] in line]
                self.assertEqual(len(warnings), 1, proc.stderr)
                self.assertIn("ignored", warnings[0])


class LongPeriods(Folder):
    def test_a_progress_period_of_centuries_prints_nothing_rather_than_everything(self):
        # Periods past the clock's range once wrapped around and ticked without pause.
        for command in [["heuristic", "ta001", "--time-limit", "1"],
                        ["pcmax", "--generate", "uniform,30,10,1,100,1", "--epsilon", "0.001",
                         "--no-gpu", "--time-limit", "1"]]:
            with self.subTest(command=command[0]):
                proc = run(*command, "--progress", "1e12", timeout=30)
                self.assertIn(proc.returncode, (0, 3), proc.stderr)
                ticks = [line for line in proc.stderr.splitlines() if "progress" in line]
                self.assertEqual(ticks, [], proc.stderr[:500])


class CopiedBinary(Folder):
    def test_report_without_its_pages_is_one_line_and_exit_2(self):
        alone = self.path("permbb")
        shutil.copy(BIN, alone)
        proc = subprocess.run([alone, "report", self.path("x.jsonl")], capture_output=True,
                              text=True, timeout=30)
        self.assert_one_line_exit_2(proc, "permbb-report.py")


if __name__ == "__main__":
    unittest.main()
