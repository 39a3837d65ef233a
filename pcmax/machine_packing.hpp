#pragma once
// The exact feasibility test of a target C: can the jobs run on m machines with every load at
// most C? Bin packing with m bins of capacity C, decided by a depth-first branch-and-bound
// in the manner of Martello & Toth's MTP (1990, "Knapsack Problems" §8.4) and of
// Dell'Amico & Martello (1995) for P||Cmax:
//
//   - jobs longest first, each onto a machine with room, fullest first (best fit);
//   - machines of equal load are interchangeable: one of them is tried;
//   - a job that fills a machine exactly goes there and nowhere else (any packing that puts it
//     elsewhere can swap it with that machine's later jobs, which weigh at most as much);
//   - a node fails when the remaining jobs weigh more than the room left on the machines that
//     can still take the shortest of them;
//   - a node fails when Martello & Toth's bin-packing bound L2 of the rest of the problem
//     (each machine's load an item, and the remaining jobs) exceeds m;
//   - a node whose multiset of loads was already refused at the same depth fails (the jobs
//     still to place are the same): a table of refused states, exact (whole load vectors,
//     no hashing errors), of bounded size.
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
