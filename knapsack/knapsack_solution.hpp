#pragma once
#include <cstdint>
#include <vector>

#include "item_table.hpp"
#include "knapsack_instance.hpp"
#include "node_list.hpp"

namespace permbb::knapsack {

// A feasible solution: its value (total profit), weight, and the items chosen, numbered as in
// the input from 0, in increasing order.
struct KnapsackSolution {
  std::int64_t value = 0;
  std::int64_t weight = 0;
  std::vector<int> items;
};

// The solution whose value is the node's lower bound L: the items i < s whose decision bit is
// clear (decided x_i = 1, or greedy items k..s-1), then the greedy completion after s
// (greedy_fill, the very function that computed L). Throws std::logic_error if its profit is
// not L or its weight is above the capacity: an internal inconsistency, never bad input.
KnapsackSolution solution_of_node(const ItemTable& items, const NodeRecord& node);

// Recomputes value and weight from the instance and checks feasibility and order; throws
// std::logic_error when the solution does not hold (a self-check of every solver's result).
void check_solution(const KnapsackInstance& instance, const KnapsackSolution& solution);

}  // namespace permbb::knapsack
