#pragma once
// The node list as plain arrays (structure of arrays, host or device memory), and the per-node
// operations on it that the CPU and the GPU share.
//
// A node of the level-k list (items 0..k-1 decided) is, after Lalami & El Baz 2012, §II.B.1,
// (ŵ, p̂, s, U, L):
//   s       the slack item: the first item from k on that does not fit when items k, k+1, ...
//           are added greedily (s = count when every remaining item fits);
//   ŵ, p̂    the weight and profit of the items taken: decided x_i = 1 (i < k) and the greedy
//           items k..s-1;
//   U       Dantzig's upper bound, L the greedy lower bound (node_bounds.hpp);
// and, beyond the paper, a decision record: one bit per item, set for the items decided
// x_i = 0. The items taken are then exactly {i < s : bit i clear}, so the node's feasible
// solution of value L (those items, then the greedy completion after s) can be rebuilt from
// the node alone when L becomes the best lower bound (solution.hpp): the paper keeps no
// solution vector, only the optimal value.
#include <cstdint>

#include "host_device.hpp"

namespace permbb::knapsack {

// U of a node removed by branching (its x_k = 1 child does not fit): below any lower bound.
inline constexpr std::int64_t kDeadBound = -1;

struct NodeArrays {
  std::int64_t* weight = nullptr;     // ŵ
  std::int64_t* profit = nullptr;     // p̂
  std::int32_t* slack = nullptr;      // s; between branching and bounding: the item to resume at
  std::int64_t* upper = nullptr;      // U
  std::int64_t* lower = nullptr;      // L
  std::uint64_t* excluded = nullptr;  // words per node, node-major: bit i of node j is word
                                      // j * words + i / 64, bit i % 64
  int words = 1;
};

PERMBB_HD bool is_excluded(const NodeArrays& nodes, std::int64_t j, int item) {
  return (nodes.excluded[j * nodes.words + item / 64] >> (item % 64)) & 1u;
}

PERMBB_HD void set_excluded(const NodeArrays& nodes, std::int64_t j, int item) {
  nodes.excluded[j * nodes.words + item / 64] |= std::uint64_t{1} << (item % 64);
}

// Copies node `from_index` of `from` to slot `to_index` of `to` (same words per node).
PERMBB_HD void copy_node(const NodeArrays& from, std::int64_t from_index, const NodeArrays& to,
                         std::int64_t to_index) {
  to.weight[to_index] = from.weight[from_index];
  to.profit[to_index] = from.profit[from_index];
  to.slack[to_index] = from.slack[from_index];
  to.upper[to_index] = from.upper[from_index];
  to.lower[to_index] = from.lower[from_index];
  for (int w = 0; w < from.words; ++w) {
    to.excluded[to_index * to.words + w] = from.excluded[from_index * from.words + w];
  }
}

}  // namespace permbb::knapsack
