#pragma once
// SilenceWatch: since when each worker has owed the coordinator a message, to tell a rank
// that stopped answering without dying (SIGSTOP, a hung node, a stuck driver) from a busy one.
// Without it one silent rank hangs the whole job until the batch system kills it.
//
// A worker that explores checkpoints at least every --worker-checkpoint-interval, so from the
// moment it was last heard from or last answered (it got WORK, BEST or END: its turn to speak
// again) it owes a message within that interval. Whether it owes one at all is the
// Coordinator's to say (Coordinator::owes_message: it has not left, is not waiting for work),
// so the watch keeps only the times. Times are seconds on any monotonic clock, given by the
// caller: the tests need no clock.
//
// Silence counts only while the coordinator listens: a gap between two of its listening()
// calls longer than `max_gap_seconds` (the coordinator was stopped, swapped out, stuck in a
// slow write) is left out for every worker, since what they sent meanwhile waits unread. Nor
// should the caller ask overdue() while messages wait in its queue: a backlog is not silence.
#include <functional>
#include <vector>

namespace permbb::cluster {

class SilenceWatch {
 public:
  // Every worker owes its first message from `now` on. Throws std::invalid_argument for a
  // timeout or a gap that is not a finite number > 0.
  SilenceWatch(int workers, double timeout_seconds, double now, double max_gap_seconds = 1);

  // The coordinator is listening at `now` (once per turn of its loop).
  void listening(double now);

  // A message came from the worker at `now`.
  void heard(int worker, double now);
  // The coordinator replied to the worker at `now` (not a CheckpointRequest: that changes
  // nothing in what the worker owes). A worker that waited for work owes from here.
  void answered(int worker, double now);

  // How long the worker has been silent since it was last heard from or answered, less the
  // gaps in listening.
  double silent_seconds(int worker, double now) const;
  // The workers that owe a message (`owes`) and have been silent for longer than the timeout,
  // in increasing order.
  std::vector<int> overdue(double now, const std::function<bool(int)>& owes) const;

  double timeout_seconds() const { return timeout_; }
  int workers() const { return static_cast<int>(since_.size()); }

 private:
  // Times on the listening clock: the caller's time less the gaps left out.
  double listening_time(double now) const { return now - deaf_seconds_; }

  std::vector<double> since_;  // per worker, listening clock: last heard from or answered
  double timeout_;
  double max_gap_;
  double last_listened_;
  double deaf_seconds_ = 0;  // the gaps left out so far
};

}  // namespace permbb::cluster
