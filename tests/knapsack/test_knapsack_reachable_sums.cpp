// The subset sums kept as intervals (reachable_sums.hpp), by hand and against brute force over
// every subset: the largest point never below the largest subset sum within the capacity, never
// above the capacity, and equal to it when no intervals are joined for their count; the profit
// bound never below the most profitable subset within any room, and exact when no intervals
// are joined at all (even weights: no two sums touch).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "reachable_sums.hpp"

namespace permbb::knapsack {
namespace {

std::vector<int> all_of(const std::vector<std::int64_t>& w) {
  std::vector<int> all(w.size());
  std::iota(all.begin(), all.end(), 0);
  return all;
}

std::int64_t largest(const std::vector<std::int64_t>& w, std::int64_t capacity,
                     std::int64_t max_intervals) {
  const std::vector<std::int64_t> p(w.size(), 1);
  return ReachableSums(p, w, all_of(w), ItemRatio{1, 1}, capacity, max_intervals).largest();
}

// The largest subset sum within `room` and the most profit of a subset within it (brute force).
struct Best {
  std::int64_t weight = 0;
  std::int64_t profit = 0;
};

Best brute_force(const std::vector<std::int64_t>& p, const std::vector<std::int64_t>& w,
                 std::int64_t room) {
  Best best;
  const int n = static_cast<int>(w.size());
  for (std::uint32_t mask = 0; mask < (1u << n); ++mask) {
    std::int64_t weight = 0, profit = 0;
    for (int i = 0; i < n; ++i) {
      if ((mask >> i & 1u) == 0) continue;
      weight += w[i];
      profit += p[i];
    }
    if (weight > room) continue;
    best.weight = std::max(best.weight, weight);
    best.profit = std::max(best.profit, profit);
  }
  return best;
}

TEST(ReachableSums, LargestByHand) {
  // Sums of {6, 10}: 0, 6, 10, 16; within 15 the largest is 10.
  EXPECT_EQ(largest({6, 10}, 15, 1024), 10);
  EXPECT_EQ(largest({6, 10}, 16, 1024), 16);
  EXPECT_EQ(largest({6, 10}, 5, 1024), 0);
  EXPECT_EQ(largest({}, 7, 1024), 0);
  // Sums of {100, 200, 1}: 0, 1, 100, 101, 200, 201, 300, 301; within 299: 201.
  EXPECT_EQ(largest({100, 200, 1}, 299, 1024), 201);
  // Two intervals at most: joined, the set ends at 299 or below, never below 201.
  const std::int64_t coarse = largest({100, 200, 1}, 299, 2);
  EXPECT_GE(coarse, 201);
  EXPECT_LE(coarse, 299);
}

TEST(ReachableSums, ProfitBoundByHand) {
  // (p, w): (7, 6), (9, 10), capacity 16, ratio 1: excesses 1 and -1. Sums 0 (excess 0),
  // 6 (1), 10 (-1), 16 (0): within 9 the best is 6 + 1 = 7; within 12, 10 - 1 = 9; within
  // 16, 16 + 0 = 16; below 0, none.
  const ReachableSums sums({7, 9}, {6, 10}, {0, 1}, ItemRatio{1, 1}, 16, 1024);
  EXPECT_EQ(sums.best_profit(9), 7);
  EXPECT_EQ(sums.best_profit(12), 9);
  EXPECT_EQ(sums.best_profit(16), 16);
  EXPECT_EQ(sums.best_profit(5), 0);
  EXPECT_EQ(sums.best_profit(-1), -1);
  // One interval: the Lagrangian bound at ratio 1, room + the positive excess: 12 + 1.
  const ReachableSums one({7, 9}, {6, 10}, {0, 1}, ItemRatio{1, 1}, 16, 2);
  EXPECT_GE(one.best_profit(12), 9);
  EXPECT_LE(one.best_profit(12), 13);
}

TEST(ReachableSums, NeverBelowTheBestSubsetAgainstBruteForce) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 1 + trial % 13;
    const std::int64_t top = trial % 3 == 0 ? 20 : trial % 3 == 1 ? 1000 : 1000000;
    std::uniform_int_distribution<std::int64_t> draw(1, top);
    const bool even = trial % 2 == 0;
    std::vector<std::int64_t> w, p;
    std::int64_t total = 0;
    for (int i = 0; i < n; ++i) {
      w.push_back(draw(rng) * (even ? 2 : 1));
      p.push_back(draw(rng));
      total += w.back();
    }
    const std::int64_t capacity = std::uniform_int_distribution<std::int64_t>(0, total)(rng);
    const ItemRatio ratio{draw(rng), draw(rng)};
    const std::vector<std::int64_t> rooms = {0, capacity / 3, capacity / 2, capacity};
    for (const std::int64_t intervals : {2, 3, 8, 1 << 15}) {
      const ReachableSums sums(p, w, all_of(w), ratio, capacity, intervals);
      EXPECT_LE(sums.largest(), capacity) << trial;
      for (const std::int64_t room : rooms) {
        const Best exact = brute_force(p, w, room);
        EXPECT_GE(sums.best_profit(room), exact.profit) << trial << " " << intervals;
        if (even && intervals == 1 << 15) {
          EXPECT_EQ(sums.best_profit(room), exact.profit) << trial;
        }
      }
      const Best whole = brute_force(p, w, capacity);
      EXPECT_GE(sums.largest(), whole.weight) << trial;
      if (intervals == 1 << 15) {
        EXPECT_EQ(sums.largest(), whole.weight) << trial;
      }
    }
  }
}

}  // namespace
}  // namespace permbb::knapsack
