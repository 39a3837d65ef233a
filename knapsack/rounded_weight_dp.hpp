#pragma once
#include <cstdint>
#include <vector>

#include "item_table.hpp"

namespace permbb::knapsack {

// A lower bound for the expanding-core search on instances whose states stay far from the
// capacity (Jooken et al.'s class): the dynamic program over capacities (knapsack_dp.hpp) on
// the items with their weights rounded up to multiples of K = max(1, ⌊c / columns⌋) and the
// capacity ⌊c / K⌋. A set that fits the rounded problem fits the real one (Σ w ≤ K Σ ⌈w / K⌉
// ≤ K ⌊c / K⌋ ≤ c), its profit is exact, and it is optimal when K = 1; each item it holds
// gives up less than K of capacity. O(n columns) time, n columns / 8 bytes of decision bits.
// Returns the chosen items of `items` (sorted numbering).
std::vector<int> rounded_weight_solution(const ItemTable& items, std::int64_t capacity,
                                         std::int64_t columns);

}  // namespace permbb::knapsack
