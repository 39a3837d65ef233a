#pragma once
// The exact feasibility test of a target C: can the jobs run on m machines with every load at
// most C? Bin packing with m bins of capacity C, decided by bin completion (Korf 2002, "A new
// algorithm for optimal bin packing", AAAI; Martello & Toth 1990 §8.4 for the bounds):
//
//   - the jobs are grouped by time (jobs of one time are interchangeable);
//   - bins are filled one at a time: the longest unplaced job opens the next bin (it must be
//     in some bin, and bins are interchangeable), which is then completed with the most of the
//     longest jobs first, down to every completion that wastes at most the slack left,
//     m C - sum t less the waste of the bins already closed; only maximal completions (no
//     unplaced job fits in the room left: it could always move there) in which no job can
//     be exchanged for a longer unplaced one that fits (the exchanged packing is as good);
//   - a node fails when Martello & Toth's bin-packing bound L2 of the unplaced jobs exceeds
//     the bins left;
//   - a node whose unplaced jobs and bins left were already refused fails: a table of refused
//     states, exact (whole count vectors, no hashing errors), of bounded size.
#include <cstdint>
#include <vector>

#include "pcmax_instance.hpp"
#include "run_control.hpp"
#include "schedule_builder.hpp"

namespace permbb::pcmax {

enum class PackingAnswer { kFeasible, kInfeasible, kStopped };

struct PackingResult {
  PackingAnswer answer = PackingAnswer::kStopped;
  PcmaxSchedule schedule;  // kFeasible: every load at most the capacity
  std::uint64_t nodes = 0;
};

struct PackingLimits {
  const RunControl* control = nullptr;  // polled every few thousand nodes
  std::uint64_t max_nodes = 0;          // 0: none; reaching it answers kStopped
  std::size_t max_refused_states = std::size_t{1} << 20;
};

PackingResult pack_machines(const PcmaxInstance& instance, Duration capacity,
                            const PackingLimits& limits = {});

}  // namespace permbb::pcmax
