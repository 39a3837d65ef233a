#include "knapsack_solution.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "node_bounds.hpp"

namespace permbb::knapsack {
namespace {

bool excluded_in(const NodeRecord& node, int item) {
  return (node.excluded[item / 64] >> (item % 64)) & 1u;
}

}  // namespace

KnapsackSolution solution_of_node(const ItemTable& items, const NodeRecord& node) {
  std::vector<int> taken;  // sorted numbering
  std::int64_t weight = 0;
  std::int64_t value = 0;
  for (int i = 0; i < node.slack && i < items.count(); ++i) {
    if (excluded_in(node, i)) continue;
    taken.push_back(i);
    weight += items.weights()[i];
    value += items.profits()[i];
  }
  if (weight != node.weight || value != node.profit) {
    throw std::logic_error("knapsack: a node's decision record disagrees with its weight/profit");
  }
  const ItemsView view = items.view();
  value += greedy_fill(view, node.slack + 1, items.capacity() - weight, [&](int i) {
    taken.push_back(i);
    weight += view.weight[i];
  });
  if (value != node.lower || weight > items.capacity()) {
    throw std::logic_error("knapsack: the rebuilt solution is not the node's lower bound");
  }
  KnapsackSolution solution{value, weight, {}};
  for (const int i : taken) solution.items.push_back(items.original_index(i));
  std::sort(solution.items.begin(), solution.items.end());
  return solution;
}

void check_solution(const KnapsackInstance& instance, const KnapsackSolution& solution) {
  std::int64_t weight = 0;
  std::int64_t value = 0;
  for (std::size_t k = 0; k < solution.items.size(); ++k) {
    const int i = solution.items[k];
    if (i < 0 || i >= instance.items() || (k > 0 && solution.items[k - 1] >= i)) {
      throw std::logic_error("knapsack: solution items out of range or not increasing");
    }
    weight += instance.weights[i];
    value += instance.profits[i];
  }
  if (weight != solution.weight || value != solution.value || weight > instance.capacity) {
    throw std::logic_error("knapsack: solution value " + std::to_string(solution.value) +
                           " / weight " + std::to_string(solution.weight) +
                           " does not match its items, or exceeds the capacity");
  }
}

}  // namespace permbb::knapsack
