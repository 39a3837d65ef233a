#pragma once
#include <atomic>
#include <cstdint>

#include "incumbent.hpp"
#include "instance.hpp"
#include "neh.hpp"
#include "partial_schedule.hpp"

namespace permbb {

// How children are ranked within a beam level.
enum class BeamGuide {
  // LB1 of the child alone.
  kBound,
  // Libralesso et al.'s "bound and weighted idle time": alpha * LB1 + (1 - alpha) * W * LB1,
  // with alpha the fraction of jobs scheduled and W the sum over machines of the idle time of
  // the prefix divided by its completion time and the idle time of the suffix divided by its
  // length (1 for an empty side). Early in the tree the idle time dominates, late the bound.
  kBoundAndIdleTime,
  // Libralesso et al.'s "gap" guide: LB1 / g + W * g, with g = (best - LB1) / best the
  // child's relative gap to the best makespan so far and W the weighted idle time above. The
  // first term grows steeply as the bound nears the best makespan, so this is the bound guide
  // with the idle time breaking its ties (LB1 has many: one bottleneck machine sets it). It
  // finds schedules at the lower bound where the optimum is there (ta082, ta083, ta084).
  kGap,
};

// The memory the automatic max_width lets one beam search use, in bytes.
inline constexpr long long kBeamMemory = 1LL << 29;

struct BeamSearchOptions {
  int initial_width = 1;
  double growth = 2.0;  // width multiplier from one pass to the next
  // No pass wider than this; 0: as wide as kBeamMemory allows (two levels of width nodes of
  // n + 5 m + 3 ints, and up to 2 width candidates).
  int max_width = 0;
  BeamGuide guide = BeamGuide::kBoundAndIdleTime;
  // Limits: seconds (0: none), passes (0: none), a flag another thread may raise. Without
  // any, the passes go on until one is complete or max_width is reached.
  double time_limit = 0;
  std::uint64_t pass_limit = 0;
  const std::atomic<bool>* stop = nullptr;
  // Each guide is multiplied by 1 + guide_noise * U(-1, 1), drawn from mt19937_64(seed), so
  // that parallel copies search different beams. 0: the search is deterministic.
  double guide_noise = 0;
  std::uint64_t seed = 0;
  // Children whose LB1 reaches it are pruned even while the best schedule found is longer:
  // an upper bound the caller knows without a schedule (the solver's --ub). The gap guide
  // measures against it too.
  Time cutoff = kInfiniteTime;
  // When given, its value caps the cutoff as it falls: the makespans other searches find (the
  // hybridization's incumbent, which may hold the solver's --ub without a schedule).
  const Incumbent* shared_cutoff = nullptr;
  Incumbent* best_so_far = nullptr;  // offered each improvement, when given
};

struct BeamSearchResult {
  Schedule best;
  std::uint64_t passes = 0;  // passes finished
  int width = 0;             // width of the last pass finished
  // A pass never dropped a child for want of width: the best completion of the node not
  // worse than the start was found.
  bool complete = false;
};

// The iterative beam search of Libralesso, Focke, Secardin & Jost (2020) for the makespan,
// applied to the completions of `node` as the 2022 paper's heuristic threads do (§4.2.3):
// the prefix and suffix are kept and the unscheduled jobs are placed by bi-directional
// branching. Each pass is a breadth-first search that keeps, at each level, the `width`
// children with the smallest guide (over the whole level); passes are repeated with the width
// multiplied by `growth` until a limit is reached or a pass is complete. A node's direction
// is Libralesso et al.'s: the side with fewer children whose LB1 is below the best makespan,
// then the side with the larger sum of those bounds, then the opposite of the parent's side.
// Children whose LB1 reaches the best makespan are pruned.
// `start`, if not empty, is a permutation of all the jobs that the result never exceeds (it
// is returned when nothing better is found); when empty, the node completed in job-index
// order stands in, so the result always keeps the node's prefix and suffix. Throws
// std::invalid_argument for a bad node or start.
BeamSearchResult beam_search(const Instance& instance, const PartialSchedule& node,
                             const Schedule& start, const BeamSearchOptions& options);

// The gap-guided beam search from the root beside other searches: it prunes with `shared`'s
// value and offers it each improvement, until `stop`, the time limit (0: none) or its widest
// pass. What the hybridization's root beam and the ILS portfolio's beam copy run.
Schedule gap_beam_from_root(const Instance& instance, const Schedule& start, Incumbent& shared,
                            const std::atomic<bool>* stop, double time_limit = 0);

}  // namespace permbb
