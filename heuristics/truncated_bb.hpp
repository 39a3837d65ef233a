#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "incumbent.hpp"
#include "branching.hpp"
#include "instance.hpp"
#include "neh.hpp"
#include "partial_schedule.hpp"

namespace permbb {

// Limits of the truncated branch-and-bound: any of them ends (time, nodes, stop flag) or
// truncates (stack) the search. Without a time or node limit or stop flag it runs until the
// (stack-limited) tree is exhausted.
struct TruncatedBbOptions {
  double time_limit = 0;           // seconds, 0: none
  std::uint64_t node_limit = 0;    // decomposed nodes, 0: none
  std::size_t stack_limit = 4096;  // open nodes kept; the worst children beyond it are dropped
  BranchingRule branching = BranchingRule::kMinMin;
  const std::atomic<bool>* stop = nullptr;
  Incumbent* best_so_far = nullptr;  // offered each improvement, when given
};

struct TruncatedBbResult {
  Schedule best;
  std::uint64_t nodes = 0;  // decomposed
  // True when the subtree was explored completely: no child dropped by the stack limit, no
  // limit reached. `best` is then optimal among the completions of the node (or no completion
  // beats the start).
  bool exhausted = false;
};

// The truncated best-upper-bound-first branch-and-bound of the 2022 paper's heuristic threads
// (§4.2.3). A depth-first search below `node` that prunes on LB1 (lb1.hpp) against the best
// schedule found, starting from `start` (a permutation of all the jobs). Every node also gives
// an upper bound: its unscheduled jobs are fixed in IVM-row order, which is their order in
// `start` ("the first row of the matrix arranged according to the starting solution"; a job
// taken out of a row leaves the others in order), and the schedule so completed is evaluated.
// Children come from dynamic branching (`branching`, branching.hpp); those whose LB1 is below
// the best makespan are evaluated and visited best upper bound first (ties: lower LB1 first).
// The result is never worse than `start`; it keeps the node's prefix and suffix whenever it
// improves on it. Throws std::invalid_argument for a bad start or node.
TruncatedBbResult truncated_bb(const Instance& instance, const PartialSchedule& node,
                               const Schedule& start, const TruncatedBbOptions& options);

}  // namespace permbb
