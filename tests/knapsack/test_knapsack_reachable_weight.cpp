// The bound on the largest reachable weight (reachable_weight.hpp) by hand and against brute
// force over every subset: never below the largest subset sum within the capacity, never above
// the capacity, and equal to it when no intervals are merged for their count.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "reachable_weight.hpp"

namespace permbb::knapsack {
namespace {

std::int64_t largest_subset_sum(const std::vector<std::int64_t>& w, std::int64_t capacity) {
  std::int64_t best = 0;
  const int n = static_cast<int>(w.size());
  for (std::uint32_t mask = 0; mask < (1u << n); ++mask) {
    std::int64_t sum = 0;
    for (int i = 0; i < n; ++i) sum += (mask >> i & 1u) ? w[i] : 0;
    if (sum <= capacity) best = std::max(best, sum);
  }
  return best;
}

TEST(ReachableWeight, ByHand) {
  // Sums of {6, 10}: 0, 6, 10, 16; within 15 the largest is 10.
  EXPECT_EQ(reachable_weight_bound({6, 10}, 15, 1024), 10);
  EXPECT_EQ(reachable_weight_bound({6, 10}, 16, 1024), 16);
  EXPECT_EQ(reachable_weight_bound({6, 10}, 5, 1024), 0);
  EXPECT_EQ(reachable_weight_bound({}, 7, 1024), 0);
  // Sums of {100, 200, 1}: 0, 1, 100, 101, 200, 201, 300, 301; within 299: 201.
  EXPECT_EQ(reachable_weight_bound({100, 200, 1}, 299, 1024), 201);
  // Two intervals at most: [0, 1] and [100, 101] join with [200, 201] when the third comes,
  // so [100, 201] and more; within 299 the set ends at 299 or below, never below 201.
  const std::int64_t coarse = reachable_weight_bound({100, 200, 1}, 299, 2);
  EXPECT_GE(coarse, 201);
  EXPECT_LE(coarse, 299);
}

TEST(ReachableWeight, NeverBelowTheLargestSubsetSumAgainstBruteForce) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 1 + trial % 14;
    const std::int64_t top = trial % 3 == 0 ? 20 : trial % 3 == 1 ? 1000 : 1000000;
    std::uniform_int_distribution<std::int64_t> draw(1, top);
    std::vector<std::int64_t> w;
    std::int64_t total = 0;
    for (int i = 0; i < n; ++i) {
      w.push_back(draw(rng));
      total += w.back();
    }
    const std::int64_t capacity = std::uniform_int_distribution<std::int64_t>(0, total)(rng);
    const std::int64_t exact = largest_subset_sum(w, capacity);
    EXPECT_EQ(reachable_weight_bound(w, capacity, 1 << 15), exact) << trial;
    for (const std::int64_t intervals : {2, 3, 8}) {
      const std::int64_t bound = reachable_weight_bound(w, capacity, intervals);
      EXPECT_GE(bound, exact) << trial << " " << intervals;
      EXPECT_LE(bound, capacity) << trial << " " << intervals;
    }
  }
}

}  // namespace
}  // namespace permbb::knapsack
