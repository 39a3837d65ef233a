"""The outcome rules of a Slurm chain's link (slurm/runstate.py classify): which exits and
checkpoints continue a chain, and which stop it, so that a lost rank or node is retried and a
rank that can never start is not retried for ever."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "slurm"))
import runstate  # noqa: E402  (the module under test lives in slurm/)

CHECKPOINT = {"complete": False, "remaining_fraction": 0.5, "nodes_decomposed": 1000}


class LinkOutcome(unittest.TestCase):
    def outcome(self, exit_code, signalled=False, result=None, checkpoint=None, previous=None):
        return runstate.classify(exit_code, signalled, result, checkpoint, previous)[0]

    def test_a_finished_search_completes_the_chain_even_if_the_launcher_then_fails(self):
        self.assertEqual(self.outcome(0, result={"status": "optimal"}), "complete")
        self.assertEqual(self.outcome(137, result={"status": "no-better-than-ub"}), "complete")

    def test_bad_input_fails_whatever_else_happened(self):
        self.assertEqual(self.outcome(2, checkpoint=CHECKPOINT), "failed")
        self.assertEqual(self.outcome(2, signalled=True), "failed")

    def test_a_stopped_solver_or_a_signal_is_resumable(self):
        self.assertEqual(self.outcome(3, checkpoint=CHECKPOINT), "resumable")
        self.assertEqual(self.outcome(3), "resumable")
        self.assertEqual(self.outcome(143, signalled=True), "resumable")

    def test_a_lost_rank_or_node_is_resumable_with_or_without_a_checkpoint(self):
        self.assertEqual(self.outcome(137, checkpoint=CHECKPOINT), "resumable")
        self.assertEqual(self.outcome(1), "resumable")

    def test_two_launcher_failures_without_progress_fail_the_chain(self):
        failed_before = {"launcher_failed": True, "checkpoint_nodes_decomposed": 1000}
        self.assertEqual(self.outcome(1, checkpoint=CHECKPOINT, previous=failed_before), "failed")
        no_checkpoint_before = {"launcher_failed": True, "checkpoint_nodes_decomposed": None}
        self.assertEqual(self.outcome(1, previous=no_checkpoint_before), "failed")

    def test_a_launcher_failure_after_progress_is_retried(self):
        failed_before = {"launcher_failed": True, "checkpoint_nodes_decomposed": 400}
        self.assertEqual(self.outcome(1, checkpoint=CHECKPOINT, previous=failed_before),
                         "resumable")
        clean_before = {"launcher_failed": False, "checkpoint_nodes_decomposed": 1000}
        self.assertEqual(self.outcome(1, checkpoint=CHECKPOINT, previous=clean_before),
                         "resumable")


if __name__ == "__main__":
    unittest.main()
