#pragma once
#include <vector>

namespace permbb {

// A subproblem of the search promoted to a complete schedule (2022 §4.2.3): its prefix, its
// unscheduled jobs in IVM-row order, its suffix. `prefix` and `suffix` count the fixed jobs
// at either end, so that a heuristic can keep them (search the subproblem) or not (start
// from the schedule). Empty when no node could be decoded.
struct PromotedSubproblem {
  std::vector<int> schedule;
  int prefix = 0;
  int suffix = 0;

  bool empty() const { return schedule.empty(); }
};

}  // namespace permbb
