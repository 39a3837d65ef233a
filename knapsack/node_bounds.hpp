#pragma once
// Bounds of a node (Lalami & El Baz 2012, §II.B.1), host and device: the one implementation
// that the CPU level step and the GPU bound kernel both call.
#include <cstdint>

#include "host_device.hpp"
#include "items_view.hpp"
#include "node_arrays.hpp"
#include "wide_arithmetic.hpp"

namespace permbb::knapsack {

struct IgnoreTakenItem {
  PERMBB_HD void operator()(int) const {}
};

// The greedy completion behind the lower bound: items first, first+1, ... in ratio order
// go in when they fit in `room`, and an item that does not fit is skipped, not the end (the
// paper's L_e: x_i = 1 if w_i <= the room left). Stops early once the room is below every
// weight left. Returns the profit added; on_take(i) is told each item taken.
template <class OnTake>
PERMBB_HD std::int64_t greedy_fill(const ItemsView& items, int first, std::int64_t room,
                                   OnTake on_take) {
  std::int64_t gained = 0;
  for (int i = first; i < items.count && room >= items.min_weight_from[i]; ++i) {
    if (items.weight[i] <= room) {
      room -= items.weight[i];
      gained += items.profit[i];
      on_take(i);
    }
  }
  return gained;
}

// Completes node j from item `first` on, given that the items before it are settled (taken
// ones counted in ŵ, p̂): items join greedily while they fit; the first that does not is the
// slack item s. Then
//   U = p̂ + floor((c - ŵ) * p_s / w_s)     (Dantzig's bound; the paper's compact form
//                                           "p̂ + floor(p_s / w_s)" lacks the room factor)
//   L = p̂ + greedy_fill(s + 1, c - ŵ)
// and with no slack item (every remaining item fits) U = L = p̂: the node is solved. Sums
// stay exact in 64 bits: ŵ <= c, p̂ <= the total profit (validated), the product in 128 bits.
PERMBB_HD void bound_node(const ItemsView& items, const NodeArrays& nodes, std::int64_t j,
                          int first) {
  std::int64_t weight = nodes.weight[j];
  std::int64_t profit = nodes.profit[j];
  int s = first;
  while (s < items.count && items.weight[s] <= items.capacity - weight) {
    weight += items.weight[s];
    profit += items.profit[s];
    ++s;
  }
  nodes.weight[j] = weight;
  nodes.profit[j] = profit;
  nodes.slack[j] = s;
  if (s == items.count) {
    nodes.upper[j] = profit;
    nodes.lower[j] = profit;
    return;
  }
  const std::int64_t room = items.capacity - weight;
  nodes.upper[j] = profit + mul_div_floor(room, items.profit[s], items.weight[s]);
  nodes.lower[j] = profit + greedy_fill(items, s + 1, room, IgnoreTakenItem{});
}

// Bounds a child written by branch_node, which left in its slack field the item to resume at.
PERMBB_HD void bound_child(const ItemsView& items, const NodeArrays& nodes, std::int64_t j) {
  bound_node(items, nodes, j, nodes.slack[j]);
}

}  // namespace permbb::knapsack
