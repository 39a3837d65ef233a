#pragma once
// Dominance between the nodes of one level, host and device. Two nodes of the level-k list
// (items 0..k-1 decided) differ only in their decided items; their futures are the same
// items k..n-1. If node a's decided items weigh at least as much as node b's and earn no more,
// every completion of a is also a completion of b, worth as much or more: a can go (the
// dominance rule behind the dynamic programming lists of Horowitz & Sahni 1974 and of
// Martello & Toth 1990, "Knapsack Problems", §2.6, and Pisinger's minknap). Comparing
// decided items only matters: ŵ and p̂ also count the greedy items k..s-1, which differ
// from node to node.
#include <cstdint>

#include "host_device.hpp"
#include "node_arrays.hpp"

namespace permbb::knapsack {

// Prefix sums of the sorted items (ItemTable::prefix_sums): weight_before[i] is the weight
// of items 0..i-1, count + 1 entries; the same for profits.
struct PrefixSums {
  const std::int64_t* weight_before = nullptr;
  const std::int64_t* profit_before = nullptr;
};

// The weight of node j's decided items at level `level`: ŵ less its greedy items level..s-1
// (every node of the level-k list has s >= k, see node_branching.hpp).
PERMBB_HD std::int64_t decided_weight(const PrefixSums& sums, const NodeArrays& nodes,
                                      std::int64_t j, int level) {
  return nodes.weight[j] - (sums.weight_before[nodes.slack[j]] - sums.weight_before[level]);
}

PERMBB_HD std::int64_t decided_profit(const PrefixSums& sums, const NodeArrays& nodes,
                                      std::int64_t j, int level) {
  return nodes.profit[j] - (sums.profit_before[nodes.slack[j]] - sums.profit_before[level]);
}

}  // namespace permbb::knapsack
