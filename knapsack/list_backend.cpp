#include "list_backend.hpp"

#include <utility>

#include "dominance.hpp"

namespace permbb::knapsack {

std::int64_t LevelListBackend::remove_dominated(const PrefixSums& sums, int level) {
  NodeList list = release();
  const std::int64_t removed = knapsack::remove_dominated(list, sums, level);
  assign(std::move(list));
  return removed;
}

}  // namespace permbb::knapsack
