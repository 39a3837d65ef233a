"""A rank that stops answering without dying ends the job resumable instead of hanging it.

Under mpirun -np 3 (a coordinator, two workers), mid-run: SIGSTOP of a worker (the coordinator
declares it lost after --rank-timeout, saves its unit as last reported, stops the other worker
and aborts the job with status 3), SIGSTOP of the coordinator (the workers' replies are
overdue: a worker aborts the job with status 3; the last periodic checkpoint holds the state),
and kill -9 of a worker (mpirun ends the job itself). In each case the checkpoint restarts to
the end, and the node total of the chain equals a single process's: at --ub opt on ta017,
whose best-known makespan 1484 is optimal (shared/notes/taillard.md), the bound never
improves, so the set of decomposed nodes is fixed (docs/architecture.md, "The counting rule").
Whatever a lost rank explored after its last report is counted nowhere and explored again.
Every process has a timeout; the file takes about a minute on 2 cores.
"""
import json
import os
import signal
import subprocess
import tempfile
import time
import unittest

from checkpoint_test import BIN, ENV, MPIRUN, describe, finish_job, kill_job

# ta017 at --ub opt: about 3.8 * 10^7 nodes, some 8 s with 3 ranks on 2 cores: a rank stopped
# after the first checkpoint (1 s) stops it mid-run.
INSTANCE = ["ta017", "--ub", "opt"]
OPTIMUM = 1484
RANK_TIMEOUT = 4
MARGIN = 15  # seconds past the rank timeout within which the job must have ended
FAULT_OPTIONS = ["--worker-checkpoint-interval", "0.5", "--rank-timeout", str(RANK_TIMEOUT),
                 "--checkpoint-interval", "1"]


def solve(*args):
    return [BIN, "solve", *INSTANCE, "--no-gpu", "--quiet", "--json", "-", *args]


def start_job(*args):
    """mpirun -np 3, in a session of its own (kill_job ends all of it)."""
    cmd = [MPIRUN, "--oversubscribe", "-np", "3", *solve("--threads", "1", *args)]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=ENV, start_new_session=True)


def parent(pid):
    with open(f"/proc/{pid}/stat") as f:
        text = f.read()
    return int(text[text.rfind(")") + 2:].split()[1])


def descends_from(pid, ancestor):
    while pid > 1:
        if pid == ancestor:
            return True
        pid = parent(pid)
    return False


def rank_pid(mpirun, rank, timeout=30):
    """The pid of MPI rank `rank` of the job `mpirun` started: a permbb process below it
    whose environment says OMPI_COMM_WORLD_RANK=rank."""
    binary = os.path.realpath(BIN)
    deadline = time.time() + timeout
    while time.time() < deadline:
        for entry in filter(str.isdigit, os.listdir("/proc")):
            pid = int(entry)
            try:
                if os.path.realpath(f"/proc/{pid}/exe") != binary or not descends_from(pid, mpirun):
                    continue
                with open(f"/proc/{pid}/environ", "rb") as f:
                    if f"OMPI_COMM_WORLD_RANK={rank}".encode() in f.read().split(b"\0"):
                        return pid
            except OSError:
                continue  # ended meanwhile, or not ours to read
        time.sleep(0.01)
    raise AssertionError(f"rank {rank} of mpirun {mpirun} never started")


def alive(pid):
    """Running or stopped, not ended (a zombie has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return False
    return text[text.rfind(")") + 2] != "Z"


def wait_for(condition, timeout, what):
    deadline = time.time() + timeout
    while not condition():
        if time.time() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        time.sleep(0.01)


class RankFaults(unittest.TestCase):
    single_process_nodes = None

    @classmethod
    def setUpClass(cls):
        proc = subprocess.run(solve("--threads", "2"), capture_output=True, text=True,
                              timeout=120)
        assert proc.returncode == 0, proc.stderr
        cls.single_process_nodes = json.loads(proc.stdout)["nodes_decomposed"]

    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.ckpt = os.path.join(folder.name, "run.ckpt")

    def fault_mid_run(self, rank, sig):
        """Starts the job, sends `sig` to `rank` once the first periodic checkpoint is out,
        and returns the job's exit status, result and stderr, and the seconds it took to end
        after the signal."""
        proc = start_job(*FAULT_OPTIONS, "--checkpoint", self.ckpt)
        self.addCleanup(lambda: proc.poll() is None and kill_job(proc))
        pid = rank_pid(proc.pid, rank)
        self.addCleanup(self.end_process, pid)
        wait_for(lambda: os.path.exists(self.ckpt) or proc.poll() is not None, 60,
                 "the first checkpoint")
        self.assertIsNone(proc.poll(), "the job ended before the fault: too short an instance")
        os.kill(pid, sig)
        signalled = time.time()
        code, result, err = finish_job(proc, RANK_TIMEOUT + MARGIN)
        # mpirun ends every rank, the stopped one included, before it exits.
        wait_for(lambda: not alive(pid), 10, f"the end of rank {rank} (pid {pid})")
        return code, result, err, time.time() - signalled

    @staticmethod
    def end_process(pid):
        """Only for a failed test: the stopped rank, if mpirun left it, is ended by its pid."""
        if alive(pid):
            os.kill(pid, signal.SIGCONT)
            os.kill(pid, signal.SIGKILL)

    def restart_to_the_end(self):
        """The chain's second link: the proof and the node total of a single process."""
        proc = start_job("--worker-checkpoint-interval", "0.5", "--restart", self.ckpt,
                         "--checkpoint", self.ckpt)
        code, result, err = finish_job(proc, 120)
        self.assertEqual(code, 0, err)
        self.assertEqual(result["status"], "no-better-than-ub")  # no makespan below 1484
        self.assertEqual(result["initial_ub"], OPTIMUM)
        self.assertEqual(result["restarts"], 1)
        self.assertEqual(result["nodes_decomposed"], self.single_process_nodes)
        self.assertTrue(result["cluster"]["coverage_holds"])
        self.assertTrue(describe(self.ckpt)["complete"])

    def test_a_stopped_worker_is_declared_lost_and_its_unit_saved(self):
        code, result, err, seconds = self.fault_mid_run(2, signal.SIGSTOP)
        self.assertEqual(code, 3, err)
        self.assertLess(seconds, RANK_TIMEOUT + MARGIN)
        self.assertIn("worker rank 2", err)
        self.assertIn(f"(--rank-timeout {RANK_TIMEOUT}): declared lost", err)
        self.assertIsNotNone(result, f"no result on stdout: {err}")
        self.assertEqual(result["status"], "incomplete")
        self.assertEqual(result["cluster"]["lost_ranks"], [2])
        self.assertEqual(result["stopped_because"], "lost rank(s) 2")
        self.assertTrue(result["cluster"]["coverage_holds"])
        saved = describe(self.ckpt)
        self.assertFalse(saved["complete"])
        self.assertEqual(saved["nodes_decomposed"], result["nodes_decomposed"])
        self.restart_to_the_end()

    def test_a_stopped_coordinator_ends_the_job_through_its_workers(self):
        code, result, err, seconds = self.fault_mid_run(0, signal.SIGSTOP)
        self.assertEqual(code, 3, err)
        self.assertLess(seconds, RANK_TIMEOUT + MARGIN)
        self.assertRegex(err, r"rank [12] \(host [^)]*\): no reply from the coordinator")
        self.assertFalse(describe(self.ckpt)["complete"])
        self.restart_to_the_end()

    def test_a_killed_worker_leaves_a_checkpoint_to_restart_from(self):
        # Open MPI 4.1 (Debian 12): mpirun sees rank 2 die on signal 9, sends SIGTERM to the
        # others (the coordinator saves a checkpoint) and exits with status 137.
        code, _, err, seconds = self.fault_mid_run(2, signal.SIGKILL)
        self.assertNotEqual(code, 0, err)
        self.assertLess(seconds, RANK_TIMEOUT + MARGIN)
        self.assertFalse(describe(self.ckpt)["complete"])
        self.restart_to_the_end()


if __name__ == "__main__":
    unittest.main()
