#pragma once
// The workers' waits as rank 0 sees them, read off the messages the transport loop handles:
// per worker, its spells without work (from an empty report to the unit sent to it) and the
// round trips of the GiveRequests it answered (from the request sent to its handover,
// checkpoint or farewell). Beside a worker's own times (WorkerTimes: its wait for work, its
// give latency) they split a wait into the victim's answer, rank 0's handling and the
// messages' travel (docs/scale.md, "Where a wait for work goes").
#include <cstdint>
#include <vector>

#include "coordinator.hpp"

namespace permbb::cluster {

struct WorkerWaits {
  std::uint64_t idle_spells = 0;  // spells that ended with work (the last, for good, does not)
  double idle_seconds = 0;
  std::uint64_t gives = 0;  // GiveRequests answered
  double give_seconds = 0;
};

class WaitClock {
 public:
  explicit WaitClock(int workers);

  // A message from `worker` at `t` (seconds on one clock), before it is handled.
  void received(int worker, const ToCoordinator& message, double t);
  // The messages the handling produced, sent at `t`.
  void sent(const std::vector<Outgoing>& messages, double t);

  const std::vector<WorkerWaits>& waits() const { return waits_; }
  // Per worker, since when it has had no work; negative while it has work. At the end: when
  // each worker ran out for good.
  const std::vector<double>& idle_since() const { return idle_since_; }

 private:
  std::vector<WorkerWaits> waits_;
  std::vector<double> idle_since_;
  std::vector<double> give_sent_;  // negative: no GiveRequest outstanding
};

}  // namespace permbb::cluster
