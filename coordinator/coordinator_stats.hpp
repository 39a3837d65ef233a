#pragma once
// The coordinator's counters: what the progress lines, the final report and the global
// checkpoint (§4.1.4) need. Node counts are sums of the deltas workers report with each
// checkpoint (WORK) and with their farewell (END).
#include <gmpxx.h>

#include <cstdint>

#include "flowshop_types.hpp"
#include "protocol.hpp"

namespace permbb::cluster {

struct WorkerStats {
  std::uint64_t decomposed = 0;   // nodes this worker reported
  std::uint64_t leaves = 0;       // leaves this worker reported
  std::uint64_t checkpoints = 0;  // WORK messages received from it
  // The lowest upper bound the worker reported pruning with (WORK, END): it shows the global
  // best reaching every worker, not only the one that found it.
  Time lowest_bound = kInfiniteTime;
  WorkerTimes times;  // where its time went, as its farewell said (zero until then)
};

struct CoordinatorStats {
  std::uint64_t decomposed = 0;           // nodes decomposed by all workers
  std::uint64_t leaves = 0;               // leaves evaluated by all workers
  std::uint64_t work_messages = 0;        // WORK (checkpoints) received
  std::uint64_t best_messages = 0;        // BEST received
  std::uint64_t assignments = 0;          // units (or parts) handed out from W_unassigned
  std::uint64_t splits = 0;               // units split for a waiting worker (§4.1.3): at the
                                          // owner's checkpoint, or by the owner (handovers)
  std::uint64_t handovers = 0;            // of those, the ones the owner made (GIVE)
  std::uint64_t give_requests = 0;        // GiveRequests sent to victims
  std::uint64_t checkpoint_requests = 0;  // CheckpointRequests sent (a stop)
  std::uint64_t improvements = 0;         // times the global best became better
  // The size of the work known to be explored: at every intersection (§4.1.2), the copy's
  // size before minus its size after. explored + remaining is constant (n! for a full run).
  mpz_class explored = 0;
};

}  // namespace permbb::cluster
