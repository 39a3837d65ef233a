#pragma once
// Checks of the coordinator's state that the hand-worked scenarios and the simulated clusters
// share: no interval of [0, n!) lies in two places.
#include <algorithm>
#include <vector>

#include "coordinator.hpp"

namespace permbb::cluster::testing {

inline void sort_by_begin(std::vector<Interval>& all) {
  std::sort(all.begin(), all.end(),
            [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
}

// The copies and the unassigned units are pairwise disjoint.
inline bool all_disjoint(const Coordinator& c) {
  std::vector<Interval> all;
  for (const WorkUnit& unit : c.unassigned()) {
    all.insert(all.end(), unit.intervals().begin(), unit.intervals().end());
  }
  for (const WorkUnit& copy : c.copies()) {
    all.insert(all.end(), copy.intervals().begin(), copy.intervals().end());
  }
  sort_by_begin(all);
  for (std::size_t j = 1; j < all.size(); ++j) {
    if (all[j].begin < all[j - 1].end) return false;
  }
  return true;
}

}  // namespace permbb::cluster::testing
