#pragma once
#include <cstdint>

namespace permbb {

// Decomposed nodes are the nodes whose children were evaluated (for a node with n-1 jobs
// fixed: its one leaf). Decompositions replayed while an IVM initialises at a position are
// not counted, so at an upper bound that never improves the count depends only on the
// instance, bound, branching and upper bound, however [0, n!) is cut into intervals.
struct NodeCounters {
  std::uint64_t decomposed = 0;
  std::uint64_t leaves = 0;

  NodeCounters& operator+=(const NodeCounters& other) {
    decomposed += other.decomposed;
    leaves += other.leaves;
    return *this;
  }

  // Spelled out: the CUDA sources that include this compile as C++17 (no defaulted ==).
  friend bool operator==(const NodeCounters& a, const NodeCounters& b) {
    return a.decomposed == b.decomposed && a.leaves == b.leaves;
  }
};

}  // namespace permbb
