"""Global checkpoints and restarts with real processes: kill -9 at random moments, SIGTERM,
SIGUSR1, corrupted files, restarts with another number of ranks. Every run has a timeout.

The reference node count is the uninterrupted run's; after kills and restarts the total over
all runs must equal it: work explored since the last checkpoint is redone, but it was not
counted either (the checkpoint holds the counts of the work it removed). A kill is kill -9 of
every process of the job, mpirun's ranks too (kill_job). signals_test.py covers signals at
every moment of a run.
"""
import json
import os
import random
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

BIN = os.environ["PERMBB_BIN"]
MPIRUN = os.environ.get("PERMBB_MPIRUN", "mpirun")
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")
INSTANCE = "ta017"   # 20 x 10; best-known (optimal) makespan 1484 (shared/notes/taillard.md)
OPTIMUM = 1484
# Searches that must end with the same node count however they are cut run at an upper bound
# no schedule beats, so the bound never improves: below the optimum, for a tree less than
# half the size of --ub opt's (1.75 * 10^7 nodes against 3.84 * 10^7, LB1 + minmin), still
# seconds of search to kill at random moments.
FIXED_UB = ["--ub", str(OPTIMUM - 6)]


def command(ranks, *args):
    solve = [BIN, "solve", INSTANCE, "--threads", "1", "--no-gpu", "--quiet", "--json", "-",
             *args]
    if ranks == 1:
        return solve
    return [MPIRUN, "--oversubscribe", "-np", str(ranks), *solve,
            "--worker-checkpoint-interval", "0.2"]


def run(ranks, *args, timeout=300):
    proc = subprocess.run(command(ranks, *args), capture_output=True, text=True,
                          timeout=timeout, env=ENV)
    text = proc.stdout.strip()
    return proc, json.loads(text) if text.startswith("{") else None


def start(ranks, *args):
    return subprocess.Popen(command(ranks, *args), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=ENV, start_new_session=True)


def session_processes(session):
    """The live (not zombie) processes of `session`: a job started with start_new_session,
    mpirun and its ranks, which Open MPI puts in process groups of their own."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                text = f.read()
        except OSError:
            continue  # ended meanwhile
        # After the command name in parentheses: state, ppid, process group, session (proc(5)).
        fields = text[text.rfind(")") + 2:].split()
        if fields[0] != "Z" and int(fields[3]) == session:
            pids.append(int(entry))
    return pids


def kill_job(proc, timeout=30, sig=signal.SIGKILL):
    """Sends `sig` (kill -9) to every process of the job that `proc` started (see start) until
    none is left: killing mpirun alone leaves its ranks running for a while (they are in other
    process groups), and a coordinator that outlives the kill would go on writing the
    checkpoint while the next run starts. With sig=0, only waits for that."""
    deadline = time.time() + timeout
    while pids := session_processes(proc.pid):
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        proc.poll()  # reaps mpirun (or the lone process): it leaves the list
        if time.time() > deadline:
            raise AssertionError(f"processes {pids} of the job outlived kill -{sig}")
        time.sleep(0.01)
    return proc.communicate(timeout=timeout)


def finish_job(proc, timeout=120):
    """Waits `timeout` s for the job `proc` started (kills it all if it runs longer): its exit
    status, its JSON result (None without one) and its stderr."""
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_job(proc)
        raise
    text = out.strip()
    return proc.returncode, json.loads(text) if text.startswith("{") else None, err


def stamp(path):
    """What identifies one write of a checkpoint: a new file replaces the old (rename)."""
    try:
        info = os.stat(path)
        return (info.st_ino, info.st_mtime_ns)
    except FileNotFoundError:
        return None


def wait_for_file(path, timeout=60, previous=None):
    """Waits until `path` exists and differs from the write `previous` identified."""
    deadline = time.time() + timeout
    while stamp(path) is None or stamp(path) == previous:
        if time.time() > deadline:
            raise AssertionError(f"{path} was never (re)written")
        time.sleep(0.05)


def describe(path):
    proc = subprocess.run([BIN, "checkpoint", path, "--json"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


class Reference:
    nodes = None

    @classmethod
    def uninterrupted_nodes(cls):
        if cls.nodes is None:
            _, result = run(1, *FIXED_UB)
            cls.nodes = result["nodes_decomposed"]
        return cls.nodes


class KillAndRestart(unittest.TestCase):
    def kill_and_restart(self, ranks, kills):
        rng = random.Random(61 + ranks)
        with tempfile.TemporaryDirectory() as folder:
            ckpt = os.path.join(folder, "run.ckpt")
            args = [*FIXED_UB, "--checkpoint", ckpt, "--checkpoint-interval", "0.2"]
            remaining = []
            for k in range(kills):
                extra = ["--restart", ckpt] if k > 0 else []
                before = stamp(ckpt)
                proc = start(ranks, *args, *extra)
                wait_for_file(ckpt, previous=before)  # this run has checkpointed once
                time.sleep(rng.uniform(0.3, 1.5))
                kill_job(proc)
                remaining.append(describe(ckpt)["remaining_fraction"])
            proc, result = run(ranks, *args, "--restart", ckpt)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(result["status"], "no-better-than-ub")
            self.assertEqual(result["restarts"], kills)
            if ranks > 1:
                self.assertTrue(result["cluster"]["coverage_holds"])
            reference = Reference.uninterrupted_nodes()
            self.assertEqual(result["nodes_decomposed"], reference)
            self.assertEqual(remaining, sorted(remaining, reverse=True))
            final = describe(ckpt)
            self.assertTrue(final["complete"])
            self.assertEqual(final["remaining_fraction"], 0.0)

    def test_single_process_killed_three_times(self):
        self.kill_and_restart(1, 3)

    def test_cluster_killed_three_times(self):
        self.kill_and_restart(3, 3)


class Signals(unittest.TestCase):
    def test_sigterm_checkpoints_and_exits_3_within_10_s_then_restart_finishes(self):
        # One above the optimum: the restart must find the optimal schedule and prove it.
        above = ["--ub", str(OPTIMUM + 1)]
        with tempfile.TemporaryDirectory() as folder:
            ckpt = os.path.join(folder, "run.ckpt")
            proc = start(1, *above, "--checkpoint", ckpt, "--checkpoint-interval", "1000")
            time.sleep(1.0)
            sent = time.time()
            proc.send_signal(signal.SIGTERM)
            out, _ = proc.communicate(timeout=10)
            self.assertLess(time.time() - sent, 10)
            self.assertEqual(proc.returncode, 3)
            self.assertEqual(json.loads(out)["status"], "incomplete")
            self.assertFalse(describe(ckpt)["complete"])
            proc2, result = run(1, *above, "--restart", ckpt)
            self.assertEqual(proc2.returncode, 0, proc2.stderr)
            self.assertEqual(result["status"], "optimal")
            self.assertEqual(result["makespan"], OPTIMUM)

    def test_sigterm_to_mpirun_leaves_a_usable_checkpoint(self):
        with tempfile.TemporaryDirectory() as folder:
            ckpt = os.path.join(folder, "run.ckpt")
            proc = start(3, *FIXED_UB, "--checkpoint", ckpt, "--checkpoint-interval", "1000")
            time.sleep(2.0)
            proc.send_signal(signal.SIGTERM)
            proc.communicate(timeout=30)
            self.assertNotEqual(proc.returncode, 0)
            wait_for_file(ckpt, timeout=5)
            proc2, result = run(2, *FIXED_UB, "--restart", ckpt)
            self.assertEqual(proc2.returncode, 0, proc2.stderr)
            self.assertEqual(result["status"], "no-better-than-ub")
            self.assertGreaterEqual(result["nodes_decomposed"], Reference.uninterrupted_nodes())

    def test_sigusr1_writes_a_checkpoint_and_the_run_goes_on(self):
        with tempfile.TemporaryDirectory() as folder:
            ckpt = os.path.join(folder, "run.ckpt")
            proc = start(1, *FIXED_UB, "--checkpoint", ckpt, "--checkpoint-interval", "1000")
            wait_for_file(ckpt)  # the one written when the search starts
            first = stamp(ckpt)
            time.sleep(1.0)
            self.assertEqual(stamp(ckpt), first, "a checkpoint before the interval")
            proc.send_signal(signal.SIGUSR1)
            wait_for_file(ckpt, timeout=10, previous=first)
            self.assertFalse(describe(ckpt)["complete"])
            time.sleep(0.5)
            self.assertIsNone(proc.poll(), "the run ended after SIGUSR1")
            proc.send_signal(signal.SIGTERM)  # the rest of the search proves nothing new
            out, _ = proc.communicate(timeout=30)
            self.assertEqual(proc.returncode, 3)
            self.assertEqual(json.loads(out)["status"], "incomplete")


class SaveFailures(unittest.TestCase):
    def test_a_failing_save_is_reported_and_the_search_goes_on_and_saves_again(self):
        with tempfile.TemporaryDirectory() as folder:
            runs = os.path.join(folder, "runs")
            os.mkdir(runs)
            ckpt = os.path.join(runs, "run.ckpt")
            proc = start(1, *FIXED_UB, "--checkpoint", ckpt, "--checkpoint-interval", "0.3")
            wait_for_file(ckpt)
            os.rename(runs, runs + ".away")  # saves now fail: the folder is gone
            time.sleep(1.5)
            self.assertIsNone(proc.poll(), "the run ended when a save failed")
            os.rename(runs + ".away", runs)
            wait_for_file(ckpt, previous=stamp(ckpt))  # the next save succeeds
            self.assertIsNone(proc.poll(), "the run ended after a save")
            proc.send_signal(signal.SIGTERM)
            out, err = proc.communicate(timeout=30)
            self.assertEqual(proc.returncode, 3, err)
            self.assertEqual(json.loads(out)["status"], "incomplete")
            self.assertIn("keeps the last checkpoint written", err)


class RestartWithOtherRankCounts(unittest.TestCase):
    def test_checkpoint_of_3_ranks_restarts_with_1_2_and_5_workers(self):
        with tempfile.TemporaryDirectory() as folder:
            ckpt = os.path.join(folder, "run.ckpt")
            proc, result = run(3, *FIXED_UB, "--checkpoint", ckpt, "--time-limit", "1.5")
            self.assertEqual(proc.returncode, 3, proc.stderr)
            done_before = result["nodes_decomposed"]
            for workers in [1, 2, 5]:
                copy = os.path.join(folder, f"copy{workers}.ckpt")
                shutil.copy(ckpt, copy)
                proc, result = run(workers + 1, *FIXED_UB, "--restart", copy,
                                   "--checkpoint", copy)
                self.assertEqual(proc.returncode, 0, proc.stderr)
                self.assertEqual(result["status"], "no-better-than-ub")
                self.assertEqual(result["restarts"], 1)
                self.assertGreater(result["nodes_decomposed"], done_before)
                self.assertGreaterEqual(result["nodes_decomposed"],
                                        Reference.uninterrupted_nodes())


class BadCheckpoints(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp()
        self.ckpt = os.path.join(self.folder, "good.ckpt")
        proc, _ = run(1, *FIXED_UB, "--checkpoint", self.ckpt, "--time-limit", "0.5")
        self.assertEqual(proc.returncode, 3, proc.stderr)
        with open(self.ckpt, "rb") as f:
            self.good = f.read()

    def tearDown(self):
        shutil.rmtree(self.folder)

    def refused(self, path, *args):
        proc = subprocess.run([BIN, "solve", INSTANCE, "--restart", path, "--quiet", "--no-gpu",
                               *args], capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        return proc.stderr

    def variant(self, name, data):
        path = os.path.join(self.folder, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def test_each_kind_of_bad_file_has_its_own_message(self):
        messages = [
            self.refused(self.variant("truncated.ckpt", self.good[:len(self.good) // 2])),
            self.refused(self.variant("flipped.ckpt", self.good[:-3] + bytes([self.good[-3] ^ 0xFF])
                                      + self.good[-2:])),
            self.refused(self.variant("magic.ckpt", b"X" + self.good[1:])),
            self.refused(self.variant("version.ckpt", self.good[:8] + bytes([99, 0, 0, 0])
                                      + self.good[12:])),
        ]
        self.assertIn("truncated", messages[0])
        self.assertIn("corrupted", messages[1])
        self.assertIn("not a permbb checkpoint", messages[2])
        self.assertIn("version", messages[3])
        self.assertEqual(len(set(messages)), 4)

    def test_other_instance_and_other_settings_are_refused(self):
        proc = subprocess.run([BIN, "solve", "ta018", "--restart", self.ckpt, "--quiet"],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 2)
        other_settings = self.refused(self.ckpt, "--branch", "maxsum")
        self.assertIn("maxsum", other_settings)
        with open(self.ckpt, "rb") as f:
            self.assertEqual(f.read(), self.good)  # refusing never touches the file

    def test_fallback_uses_the_previous_file_and_says_so(self):
        # A second checkpointed run leaves FILE.prev; then FILE is corrupted.
        proc, _ = run(1, *FIXED_UB, "--restart", self.ckpt, "--checkpoint", self.ckpt,
                      "--time-limit", "0.3")
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertTrue(os.path.exists(self.ckpt + ".prev"))
        with open(self.ckpt, "r+b") as f:
            f.seek(40)
            f.write(bytes([0xFF, 0xFF, 0xFF]))
        self.refused(self.ckpt)
        proc = subprocess.run([BIN, "solve", INSTANCE, *FIXED_UB, "--restart", self.ckpt,
                               "--restart-fallback", "--no-gpu", "--time-limit", "0.2"],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertIn(".prev", proc.stderr)

    def test_checkpoint_command_describes_the_file(self):
        d = describe(self.ckpt)
        self.assertEqual((d["instance"], d["jobs"], d["machines"]), (INSTANCE, 20, 10))
        self.assertEqual(d["initial_ub"], OPTIMUM - 6)
        self.assertFalse(d["complete"])
        self.assertGreater(d["remaining_fraction"], 0.0)
        self.assertLess(d["remaining_fraction"], 1.0)
        self.assertGreater(d["nodes_decomposed"], 0)


if __name__ == "__main__":
    unittest.main()
