"""Signals at any moment of `permbb solve` lose no work.

SIGTERM, SIGINT and SIGUSR1 as soon as the process can hold them (main blocks them on its
first line: the test steps the process between SIGSTOPs until /proc shows the mask, and
signals it there, before its set-up), during a checkpoint write, twice in a row, during the
final checkpoint, and kill -9 during a write. (Before main, while the dynamic loader runs, a
signal ends the process as it would any program: it has done nothing yet, lost nothing.)
A write is caught in the act by stopping the process (SIGSTOP) until a temporary file shows
a save under way. Each case leaves a usable checkpoint, no temporary file once the next run
has started, and a restart chain whose node total equals an uninterrupted run's: at --ub opt
on ta020, whose best-known makespan 1591 is optimal, the bound never improves, so the set of
decomposed nodes is fixed (docs/architecture.md, "The counting rule"). The same under mpirun
with 3 ranks: TERM during the set-up, TERM to the coordinator or to mpirun mid-run. Commands
other than solve end on TERM as any program does. Every process has a timeout; the whole
file takes about a minute on 2 cores.
"""
import glob
import json
import os
import random
import signal
import subprocess
import tempfile
import time
import unittest

from checkpoint_test import BIN, ENV, MPIRUN, describe, finish_job, kill_job, \
    session_processes, stamp, wait_for_file

INSTANCE = "ta020"  # 20 x 10, about 285 000 nodes at --ub opt: about a second on one thread
# ta020 with the backward branching rule: about 3 million nodes, a few seconds on one thread,
# for the tests that catch a run in the middle of a checkpoint write or of its search.
LONGER = ["--branch", "bwd"]
# ta018 backward: about 29 million nodes, seconds on one thread even where ta020's take half a
# second: the single process's runs that must be caught writing a checkpoint.
CAUGHT_WRITING = "ta018"
HELD = [signal.SIGTERM, signal.SIGINT, signal.SIGUSR1]


# mpirun with signals that lose nothing: it runs mpirun in a session of its own.
LAUNCHER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "slurm",
                        "permbb-mpirun")


def command(ranks, *args, instance=INSTANCE, ub="opt", threads=1, launcher=MPIRUN):
    # Short slices (--progress) and worker checkpoints: a signal acts within milliseconds.
    solve = [BIN, "solve", instance, "--ub", ub, "--threads", str(threads), "--no-gpu",
             "--quiet", "--json", "-", "--progress", "0.02", *args]
    # A test's fresh runs (subtests, one after another) start over in its checkpoint path on
    # purpose: said so, as a user must (a fresh run never replaces a saved search silently).
    if "--checkpoint" in args and "--restart" not in args:
        solve.append("--overwrite-checkpoint")
    if ranks == 1:
        return solve
    return [launcher, "--oversubscribe", "-np", str(ranks), *solve,
            "--worker-checkpoint-interval", "0.05"]


def start(ranks, *args, **kwargs):
    return subprocess.Popen(command(ranks, *args, **kwargs), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=ENV, start_new_session=True)


def holds_signals(pid, task=None):
    """Whether process `pid` (its thread `task`) blocks SIGTERM, SIGINT and SIGUSR1."""
    with open(f"/proc/{pid}/status" if task is None else f"/proc/{pid}/task/{task}/status") as f:
        for line in f:
            if line.startswith("SigBlk:"):
                mask = int(line.split()[1], 16)
                return all(mask & (1 << (s - 1)) for s in HELD)
    return False


def threads_not_holding(pid):
    """The threads of `pid` that would take a signal, but for the one that waits for them
    (while it waits, it has them unblocked): MPI's, the engines'... none may."""
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/comm") as f:
            if f.read().strip() != "permbb-signals" and not holds_signals(pid, task):
                found.append(task)
    return found


def wait_until_holding(pid, timeout=30):
    """Returns as soon as `pid` holds the signals: no sleep, the earliest moment to signal."""
    deadline = time.time() + timeout
    while not holds_signals(pid):
        if time.time() > deadline:
            raise AssertionError(f"process {pid} never blocked the signals")


def stop_when_holding(pid, timeout=30):
    """Steps `pid` forward in short runs between SIGSTOPs until it holds the signals (the
    first line of main); returns with it stopped there, its set-up not yet done."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        os.kill(pid, signal.SIGSTOP)
        while state(pid) not in "TtZ":
            pass
        if holds_signals(pid):
            return
        os.kill(pid, signal.SIGCONT)
    raise AssertionError(f"process {pid} never blocked the signals")


def state(pid):
    with open(f"/proc/{pid}/stat") as f:
        text = f.read()
    return text[text.rfind(")") + 2]


def temporaries(ckpt):
    return glob.glob(ckpt + ".tmp.*") + glob.glob(ckpt + ".prev.tmp.*")


def stop_during_a_write(pid, ckpt, rng, timeout=60):
    """Stops `pid` (SIGSTOP) at random moments until it is stopped while a save of `ckpt` is
    under way (its temporary file exists); returns with the process stopped there."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        os.kill(pid, signal.SIGSTOP)
        while state(pid) not in "TtZ":
            pass
        if state(pid) == "Z":
            raise AssertionError("the run ended before a checkpoint write was caught")
        if temporaries(ckpt):
            return
        os.kill(pid, signal.SIGCONT)
        time.sleep(rng.uniform(0, 0.004))
    raise AssertionError("no checkpoint write caught in the act")


def child_named(parent, name, timeout=30):
    """The pid of `parent`'s child process called `name`, once it exists."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        for entry in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{entry}/stat") as f:
                    text = f.read()
            except OSError:
                continue
            fields = text[text.rfind(")") + 2:].split()
            if int(fields[1]) == parent and text[text.find("(") + 1:text.rfind(")")] == name:
                return int(entry)
        time.sleep(0.01)
    raise AssertionError(f"no process {name} under {parent} within {timeout} s")


def rank_pids(session, ranks, timeout=60):
    """The pid of each rank of the mpirun job in `session`, by rank, once all have started."""
    binary = os.path.realpath(BIN)
    deadline = time.time() + timeout
    while True:
        found = {}
        for pid in session_processes(session):
            try:
                if os.path.realpath(f"/proc/{pid}/exe") != binary:
                    continue  # mpirun, or a rank before its exec
                with open(f"/proc/{pid}/environ", "rb") as f:
                    environment = f.read().split(b"\0")
            except OSError:
                continue
            for variable in environment:
                if variable.startswith(b"OMPI_COMM_WORLD_RANK="):
                    found[int(variable.split(b"=")[1])] = pid
        if len(found) == ranks:
            return [found[r] for r in range(ranks)]
        if time.time() > deadline:
            raise AssertionError(f"only ranks {sorted(found)} of {ranks} started")
        time.sleep(0.002)


class Reference:
    """The node count of an uninterrupted run, per extra option list (two threads)."""
    nodes = {}

    @classmethod
    def uninterrupted_nodes(cls, *args, instance=INSTANCE):
        key = (instance, *args)
        if key not in cls.nodes:
            code, result, err = finish_job(start(1, *args, threads=2, instance=instance))
            assert code == 0, err
            cls.nodes[key] = result["nodes_decomposed"]
        return cls.nodes[key]


class SignalCase(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.ckpt = os.path.join(self.folder.name, "run.ckpt")
        self.rng = random.Random(self.id())

    def tearDown(self):
        self.folder.cleanup()

    def assert_resumable(self, code, result, err, path=None):
        """An interrupted run: exit 3, its result printed, a usable, incomplete checkpoint."""
        self.assertEqual(code, 3, err)
        self.assertIsNotNone(result, f"no result on stdout: {err}")
        self.assertEqual(result["status"], "incomplete")
        self.assertFalse(describe(path or self.ckpt)["complete"])

    def finish_chain(self, *args, ranks=1, restarts=1, path=None, instance=INSTANCE):
        """Restarts from the checkpoint (`path`, default FILE) to the end: the node total of
        all runs is the uninterrupted run's, and no temporary file is left."""
        code, result, err = finish_job(start(ranks, *args, "--restart", path or self.ckpt,
                                         "--checkpoint", self.ckpt, instance=instance))
        self.assertEqual(code, 0, err)
        self.assertEqual(result["status"], "no-better-than-ub")
        self.assertEqual(result["restarts"], restarts)
        self.assertEqual(result["nodes_decomposed"],
                         Reference.uninterrupted_nodes(*args, instance=instance))
        self.assertTrue(describe(self.ckpt)["complete"])
        self.assertEqual(temporaries(self.ckpt), [])


class SingleProcess(SignalCase):
    def start_and_signal_in_set_up(self, sig):
        """Starts a run and sends `sig` at the first moment it holds the signals."""
        proc = start(1, "--checkpoint", self.ckpt, "--checkpoint-interval", "1000")
        stop_when_holding(proc.pid)
        os.kill(proc.pid, sig)
        os.kill(proc.pid, signal.SIGCONT)
        return proc

    def test_term_and_int_as_soon_as_main_runs(self):
        for sig in [signal.SIGTERM, signal.SIGINT]:
            with self.subTest(signal=sig.name):
                proc = self.start_and_signal_in_set_up(sig)
                code, result, err = finish_job(proc)
                self.assert_resumable(code, result, err)
                self.assertEqual(result["stopped_because"], f"stopped by {sig.name}")
                self.finish_chain()

    def test_usr1_as_soon_as_main_runs_writes_a_checkpoint_and_the_run_goes_on(self):
        proc = self.start_and_signal_in_set_up(signal.SIGUSR1)
        code, result, err = finish_job(proc)
        self.assertEqual(code, 0, err)
        self.assertEqual(result["nodes_decomposed"], Reference.uninterrupted_nodes())
        # FILE.prev is the checkpoint USR1 asked for, FILE the final one; the first resumes.
        self.assertFalse(describe(self.ckpt + ".prev")["complete"])
        self.finish_chain(path=self.ckpt + ".prev")

    def test_signals_during_a_checkpoint_write(self):
        for first, second in [(signal.SIGTERM, None), (signal.SIGTERM, signal.SIGTERM),
                              (signal.SIGUSR1, signal.SIGTERM)]:
            with self.subTest(first=first.name, second=second and second.name):
                proc = start(1, *LONGER, "--checkpoint", self.ckpt,
                             "--checkpoint-interval", "0.001", instance=CAUGHT_WRITING)
                wait_for_file(self.ckpt, previous=stamp(self.ckpt))
                stop_during_a_write(proc.pid, self.ckpt, self.rng)
                os.kill(proc.pid, first)
                os.kill(proc.pid, signal.SIGCONT)
                if second is not None:
                    time.sleep(self.rng.uniform(0, 0.002))
                    os.kill(proc.pid, second)
                self.assert_resumable(*finish_job(proc))
                self.finish_chain(*LONGER, instance=CAUGHT_WRITING)

    def test_signals_while_the_last_checkpoint_is_written_and_the_process_exits(self):
        # After TERM, a stream of TERM, INT and USR1 every half millisecond, during the last
        # checkpoint writes and until the process is gone. None may kill it (as one would
        # that came after the signals were unblocked): it exits 3 with its result printed.
        proc = start(1, "--checkpoint", self.ckpt, "--checkpoint-interval", "1000")
        wait_until_holding(proc.pid)
        while proc.poll() is None:
            try:
                os.kill(proc.pid, self.rng.choice(HELD))
            except ProcessLookupError:
                break
            time.sleep(0.0005)
        self.assert_resumable(*finish_job(proc))
        self.finish_chain()

    def test_kill_9_during_writes_then_restarts_remove_the_temporaries(self):
        kills = 3
        left_over = []
        for k in range(kills):
            extra = ["--restart", self.ckpt] if k > 0 else []
            proc = start(1, *LONGER, "--checkpoint", self.ckpt, "--checkpoint-interval", "0.001",
                         *extra, instance=CAUGHT_WRITING)
            wait_for_file(self.ckpt, previous=stamp(self.ckpt))  # this run has saved once
            for stale in left_over:
                self.assertFalse(os.path.exists(stale), "the start kept a stale temporary")
            stop_during_a_write(proc.pid, self.ckpt, self.rng)
            kill_job(proc)
            left_over = temporaries(self.ckpt)
            self.assertNotEqual(left_over, [])  # the kill came during a write
            self.assertFalse(describe(self.ckpt)["complete"])  # FILE is still usable
        self.finish_chain(*LONGER, restarts=kills, instance=CAUGHT_WRITING)

    def test_term_while_a_large_instance_is_set_up_acts_within_seconds(self):
        # ta120, 500 x 20, with NEH's bound: TERM as main starts, during NEH and the set-up.
        proc = start(1, "--checkpoint", self.ckpt, instance="ta120", ub="inf")
        wait_until_holding(proc.pid)
        sent = time.time()
        os.kill(proc.pid, signal.SIGTERM)
        self.assert_resumable(*finish_job(proc))
        self.assertLess(time.time() - sent, 10)


class UnderMpirun(SignalCase):
    ranks = 3

    def test_term_during_the_set_up_to_the_coordinator_or_to_every_rank(self):
        for targets in ["coordinator", "every rank"]:
            with self.subTest(targets=targets):
                proc = start(self.ranks, "--checkpoint", self.ckpt,
                             "--checkpoint-interval", "1000")
                pids = rank_pids(proc.pid, self.ranks)
                for pid in pids[:1] if targets == "coordinator" else pids:
                    stop_when_holding(pid)
                    os.kill(pid, signal.SIGTERM)
                    os.kill(pid, signal.SIGCONT)
                code, _, err = finish_job(proc)
                self.assertEqual(code, 3, err)
                self.assertFalse(describe(self.ckpt)["complete"])
                self.finish_chain(ranks=self.ranks)

    def start_and_freeze_mid_run(self):
        """A run under mpirun, its ranks stopped (SIGSTOP) once the coordinator has written a
        few checkpoints: the search is under way and cannot end before the test's signal."""
        proc = start(self.ranks, *LONGER, "--checkpoint", self.ckpt,
                     "--checkpoint-interval", "0.05")
        for _ in range(3):
            wait_for_file(self.ckpt, previous=stamp(self.ckpt))
        pids = rank_pids(proc.pid, self.ranks)
        for pid in pids:
            os.kill(pid, signal.SIGSTOP)
        for pid in pids:
            while state(pid) not in "TtZ":
                pass
        progress = describe(self.ckpt)
        self.assertGreater(progress["nodes_decomposed"], 0)
        self.assertFalse(progress["complete"])
        return proc, pids

    @staticmethod
    def thaw(pids):
        for pid in pids:
            os.kill(pid, signal.SIGCONT)

    def test_term_to_the_coordinator_mid_run_then_restart(self):
        proc, pids = self.start_and_freeze_mid_run()
        for rank, pid in enumerate(pids):
            self.assertEqual(threads_not_holding(pid), [], f"threads of rank {rank}")
        os.kill(pids[0], signal.SIGTERM)
        self.thaw(pids)
        code, result, err = finish_job(proc)
        self.assertEqual(code, 3, err)
        self.assertEqual(result["status"], "incomplete")
        self.assertFalse(describe(self.ckpt)["complete"])
        self.finish_chain(*LONGER, ranks=self.ranks)

    def test_term_to_mpirun_mid_run_leaves_a_checkpoint_that_resumes_exactly(self):
        # mpirun passes TERM on to the ranks and ends the job with status 1; the run may even
        # have finished meanwhile. What the coordinator saved last must resume without loss.
        proc, pids = self.start_and_freeze_mid_run()
        proc.send_signal(signal.SIGTERM)
        self.thaw(pids)
        _, err = kill_job(proc, sig=0)  # until mpirun has ended every rank
        self.assertNotEqual(proc.returncode, 0, err)
        describe(self.ckpt)  # usable
        self.finish_chain(*LONGER, ranks=self.ranks)


    def test_interrupt_twice_to_mpirun_leaves_a_usable_checkpoint(self):
        # A double Ctrl-C: mpirun kills the ranks on the second, before the coordinator can
        # save (Open MPI's "hit ctrl-c again to forcibly terminate"; mpirun's exit status is
        # its own). The checkpoint written when the search started is still there.
        # ta022 backward: minutes of search, which the signals must end.
        long_run = dict(instance="ta022")
        proc = start(self.ranks, *LONGER, "--checkpoint", self.ckpt,
                     "--checkpoint-interval", "1000", **long_run)
        wait_for_file(self.ckpt)
        os.killpg(proc.pid, signal.SIGINT)
        time.sleep(0.1)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = kill_job(proc, sig=0)
        self.assertNotEqual(proc.returncode, 0, err)
        self.assertFalse(describe(self.ckpt)["complete"])
        code, result, err = finish_job(start(self.ranks, *LONGER, "--restart", self.ckpt,
                                             "--checkpoint", self.ckpt, "--time-limit", "1",
                                             **long_run))
        self.assert_resumable(code, result, err)
        self.assertEqual(result["restarts"], 1)


class UnderPermbbMpirun(SignalCase):
    """slurm/permbb-mpirun turns each TERM, INT, HUP or QUIT into a USR2, which mpirun
    forwards to every rank: the coordinator checkpoints and the job ends with status 3."""
    ranks = 3

    def start_and_freeze_mid_run(self):
        proc = start(self.ranks, *LONGER, "--checkpoint", self.ckpt,
                     "--checkpoint-interval", "0.05", launcher=LAUNCHER)
        mpirun = child_named(proc.pid, "mpirun")  # the leader of its own session
        self.addCleanup(lambda: kill_job(FakeProc(mpirun)))
        for _ in range(3):
            wait_for_file(self.ckpt, previous=stamp(self.ckpt))
        pids = rank_pids(mpirun, self.ranks)
        for pid in pids:
            os.kill(pid, signal.SIGSTOP)
        for pid in pids:
            while state(pid) not in "TtZ":
                pass
        self.assertFalse(describe(self.ckpt)["complete"])
        return proc, pids

    def test_interrupt_twice_to_the_process_group(self):
        proc, pids = self.start_and_freeze_mid_run()
        os.killpg(proc.pid, signal.SIGINT)
        time.sleep(0.1)
        os.killpg(proc.pid, signal.SIGINT)
        UnderMpirun.thaw(pids)
        code, result, err = finish_job(proc)
        self.assert_resumable(code, result, err)
        self.finish_chain(*LONGER, ranks=self.ranks)

    def test_term_hangup_or_quit_to_the_launcher(self):
        for sig in [signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT]:
            with self.subTest(signal=sig.name):
                proc, pids = self.start_and_freeze_mid_run()
                proc.send_signal(sig)
                UnderMpirun.thaw(pids)
                code, result, err = finish_job(proc)
                self.assert_resumable(code, result, err)
                self.finish_chain(*LONGER, ranks=self.ranks)
                os.remove(self.ckpt)


class FakeProc:
    """What kill_job needs of a Popen: the session to end, here one the test did not start
    itself (mpirun under permbb-mpirun)."""

    def __init__(self, pid):
        self.pid = pid

    def poll(self):
        return None

    def communicate(self, timeout=None):
        return None, None


class OtherCommands(unittest.TestCase):
    def test_term_ends_a_heuristic_run_at_once_with_its_best(self):
        # The commands that search take the signals as solve does (heuristic, knapsack, pcmax:
        # their best so far, incomplete, exit 3: user_input_test.py has each); the others,
        # which run for a moment, get the mask they started with back after parsing.
        proc = subprocess.Popen([BIN, "heuristic", "ta120", "--method", "ils",
                                 "--time-limit", "60", "--json", "-"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        time.sleep(0.3)
        sent = time.time()
        proc.send_signal(signal.SIGTERM)
        try:
            out, err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
        self.assertLess(time.time() - sent, 5)
        self.assertEqual(proc.returncode, 3, err)
        self.assertEqual(json.loads(out)["status"], "incomplete")

if __name__ == "__main__":
    unittest.main()
