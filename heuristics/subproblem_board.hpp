#pragma once
#include <cstddef>
#include <mutex>
#include <optional>
#include <random>
#include <vector>

#include "instance.hpp"
#include "partial_schedule.hpp"
#include "promoted_subproblem.hpp"

namespace permbb {

// The subproblems the branch-and-bound was exploring at its latest promotion (2022 §4.2.3),
// for heuristic runs that search inside them ("subproblem dives"): every open subproblem has a
// bound below the incumbent, so a better schedule, if there is one, completes one of the
// subproblems still ahead of the search. Each promotion replaces the board's contents; takers
// get them in turn. Thread-safe: every member takes the board's lock.
class SubproblemBoard {
 public:
  // Replaces the contents by the non-empty subproblems of `latest`.
  void replace(const std::vector<PromotedSubproblem>& latest);

  // The next subproblem in turn; empty while there is none.
  std::optional<PromotedSubproblem> take();

  std::size_t size() const;

 private:
  mutable std::mutex mutex_;
  std::vector<PromotedSubproblem> entries_;
  std::size_t next_ = 0;
};

// The node a dive searches: an ancestor-like node of the subproblem that keeps the first
// `depth` of its fixed jobs, taken from the prefix and the suffix in proportion (rounded
// towards the prefix). depth is clamped to [0, prefix + suffix]; 0 gives the root.
PartialSchedule node_at_depth(const PromotedSubproblem& subproblem, int depth);

// A dive's depth, uniform over 0 .. prefix + suffix: deep nodes search close to where the
// exhaustive search is, shallow ones around it (the GPU explores the deepest ones anyway).
int random_dive_depth(const PromotedSubproblem& subproblem, std::mt19937_64& rng);

}  // namespace permbb
