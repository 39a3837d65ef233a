#pragma once
// Test helpers for partial schedules (prefix, suffix), shared by the heuristics' tests.
#include <algorithm>
#include <vector>

#include "partial_schedule.hpp"

namespace permbb::testing {

// The node whose prefix is the first `front` jobs of `permutation` and whose suffix is its
// last `back` jobs.
inline PartialSchedule cut(const std::vector<int>& permutation, int front, int back) {
  PartialSchedule node;
  node.prefix.assign(permutation.begin(), permutation.begin() + front);
  node.suffix.assign(permutation.end() - back, permutation.end());
  return node;
}

// `permutation` starts with the node's prefix and ends with its suffix.
inline bool keeps_node(const std::vector<int>& permutation, const PartialSchedule& node) {
  if (permutation.size() < node.prefix.size() + node.suffix.size()) return false;
  return std::equal(node.prefix.begin(), node.prefix.end(), permutation.begin()) &&
         std::equal(node.suffix.rbegin(), node.suffix.rend(), permutation.rbegin());
}

}  // namespace permbb::testing
