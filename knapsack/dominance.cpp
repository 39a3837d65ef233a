#include "dominance.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

namespace permbb::knapsack {

std::int64_t remove_dominated(NodeList& list, const PrefixSums& sums, int level) {
  const std::int64_t q = list.size();
  if (q < 2) return 0;
  const NodeArrays nodes = list.arrays();
  std::vector<std::int64_t> weight(q), profit(q), order(q);
  for (std::int64_t j = 0; j < q; ++j) {
    weight[j] = decided_weight(sums, nodes, j, level);
    profit[j] = decided_profit(sums, nodes, j, level);
  }
  std::iota(order.begin(), order.end(), std::int64_t{0});
  std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    if (weight[a] != weight[b]) return weight[a] < weight[b];
    if (profit[a] != profit[b]) return profit[a] > profit[b];
    return a < b;
  });
  std::vector<char> keep(q, 0);
  std::int64_t best = -1;  // decided profits are >= 0
  for (const std::int64_t j : order) {
    if (profit[j] <= best) continue;
    keep[j] = 1;
    best = profit[j];
  }
  return q - list.retain_if([&keep](std::int64_t j) { return keep[j] != 0; });
}

}  // namespace permbb::knapsack
