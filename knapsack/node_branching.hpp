#pragma once
// Branching and pruning of a node (Lalami & El Baz 2012, §II.B.2 and §III.B, kernel 1), host
// and device: the one implementation that the CPU level step and the GPU kernels call.
#include <cstdint>

#include "host_device.hpp"
#include "items_view.hpp"
#include "node_arrays.hpp"

namespace permbb::knapsack {

// Branches node j of a level-k list of q nodes on item k (every node has k <= s).
//  - x_k = 1: when k < s, item k is already among the greedy items, so the child is the node
//    itself, with the same bounds: it stays at j untouched. When k = s, item k does not fit:
//    there is no such child and node j is killed (U = kDeadBound).
//  - x_k = 0: always feasible; written at j + q with bit k set, item k's weight and profit
//    taken out when it was counted (k < s), and in its slack field the item bound_child
//    resumes at: s when k < s (items k+1..s-1 still fit), k + 1 when k = s (the paper's
//    s_e + 1).
PERMBB_HD void branch_node(const ItemsView& items, const NodeArrays& nodes, std::int64_t j,
                           std::int64_t q, int k) {
  const std::int64_t child = j + q;
  copy_node(nodes, j, nodes, child);
  set_excluded(nodes, child, k);
  const int s = nodes.slack[j];
  if (k < s) {
    nodes.weight[child] -= items.weight[k];
    nodes.profit[child] -= items.profit[k];
    nodes.slack[child] = s;
  } else {
    nodes.upper[j] = kDeadBound;
    nodes.slack[child] = k + 1;
  }
}

// A node is worth keeping only if its upper bound beats the best lower bound: U <= best L
// means no solution below it is better than one already known (and recorded, see
// node_arrays.hpp, so pruning the node that realises the best L loses nothing).
PERMBB_HD bool keep_node(const NodeArrays& nodes, std::int64_t j, std::int64_t best_lower) {
  return nodes.upper[j] > best_lower;
}

}  // namespace permbb::knapsack
