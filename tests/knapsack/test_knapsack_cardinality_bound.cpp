// The cardinality limits and the surrogate cardinality bound (cardinality_bound.hpp) by hand
// and against brute force over every subset of small random instances: k_max never below the
// largest feasible subset, k_min never above the smallest one worth more than the lower bound,
// every multiplier's bound and the searched bound never below the best such subset.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "cardinality_bound.hpp"

namespace permbb::knapsack {
namespace {

struct Extremes {
  std::int64_t optimum = 0;
  std::int64_t most_items = 0;
  std::int64_t fewest_above_lower = -1;  // -1: no feasible subset worth more than the lower bound
};

Extremes brute_force(const std::vector<std::int64_t>& p, const std::vector<std::int64_t>& w,
                     std::int64_t capacity, std::int64_t lower) {
  Extremes e;
  const int n = static_cast<int>(p.size());
  for (std::uint32_t mask = 0; mask < (1u << n); ++mask) {
    std::int64_t profit = 0, weight = 0, items = 0;
    for (int i = 0; i < n; ++i) {
      if ((mask >> i & 1u) == 0) continue;
      profit += p[i];
      weight += w[i];
      ++items;
    }
    if (weight > capacity) continue;
    e.optimum = std::max(e.optimum, profit);
    e.most_items = std::max(e.most_items, items);
    if (profit > lower && (e.fewest_above_lower < 0 || items < e.fewest_above_lower)) {
      e.fewest_above_lower = items;
    }
  }
  return e;
}

TEST(KnapsackCardinalityBound, LimitsByHand) {
  // weights 5, 1, 4, 3 with c = 8: 1 + 3 + 4 fit, + 5 does not: k_max = 3.
  // profits 9, 2, 7, 4 with lower 9: 9 alone is not more, 9 + 7 is: k_min = 2.
  const auto limits = cardinality_limits({9, 2, 7, 4}, {5, 1, 4, 3}, 8, 9);
  EXPECT_EQ(limits.most, 3);
  EXPECT_EQ(limits.least, 2);
  EXPECT_EQ(cardinality_limits({1, 2}, {1, 1}, 5, 3).least, 3);  // nothing worth more than 3
}

TEST(KnapsackCardinalityBound, DantzigAtZeroMultiplierByHand) {
  // ratios 10/5, 6/4, 3/3, c = 8: item 0 fits, item 1 breaks: 10 + floor(3 * 6 / 4) = 14.
  const CardinalityLimits limits{3, 1};
  EXPECT_EQ(cardinality_lagrangian_bound({10, 6, 3}, {5, 4, 3}, 8, limits, 0), 14);
}

TEST(KnapsackCardinalityBound, CardinalityTightensDantzigByHand) {
  // Items (11, 10), (6, 6), (6, 6), c = 11: Dantzig takes the first, room 1, and a sixth of
  // the second: 11 + 1 = 12. No two items fit (6 + 6 > 11): k_max = 1, and at r = 0, μ = 11
  // F = 11 k_max + 0 = 11, the optimum.
  const std::vector<std::int64_t> p{11, 6, 6}, w{10, 6, 6};
  EXPECT_EQ(cardinality_lagrangian_bound(p, w, 11, {1, 1}, 0), 12);
  EXPECT_EQ(cardinality_lagrangian_bound(p, w, 11, {1, 1}, 11), 11);
  EXPECT_EQ(cardinality_upper_bound(p, w, 11, 0), 11);
}

TEST(KnapsackCardinalityBound, NeverBelowTheBestSubsetAboveTheLowerBound) {
  std::mt19937_64 random(36);
  int bound_below_dantzig = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const int n = 1 + static_cast<int>(random() % 12);
    const std::int64_t range = trial % 3 == 0 ? 10 : (trial % 3 == 1 ? 1000 : 1000000);
    std::vector<std::int64_t> p(n), w(n);
    std::int64_t total = 0;
    for (int i = 0; i < n; ++i) {
      w[i] = 1 + static_cast<std::int64_t>(random() % range);
      // strongly correlated half the time, where the cardinality constraint matters
      p[i] = trial % 2 == 0 ? w[i] + range / 10 + 1 : 1 + static_cast<std::int64_t>(random() % range);
      total += w[i];
    }
    const std::int64_t capacity = std::max(*std::max_element(w.begin(), w.end()),
                                           static_cast<std::int64_t>(random() % (total + 1)));
    const std::int64_t optimum = brute_force(p, w, capacity, 0).optimum;
    const std::int64_t lower = static_cast<std::int64_t>(random() % (optimum + 1));
    const Extremes e = brute_force(p, w, capacity, lower);
    const CardinalityLimits limits = cardinality_limits(p, w, capacity, lower);
    EXPECT_GE(limits.most, e.most_items) << "trial " << trial;
    if (e.fewest_above_lower >= 0) {
      EXPECT_LE(limits.least, e.fewest_above_lower) << "trial " << trial;
    }
    const WideSigned dantzig = cardinality_lagrangian_bound(p, w, capacity, limits, 0);
    for (const std::int64_t mu : {-range, -range / 7, -1L, 1L, range / 5, range}) {
      if (e.fewest_above_lower < 0) break;
      EXPECT_GE(cardinality_lagrangian_bound(p, w, capacity, limits, mu), WideSigned{optimum})
          << "trial " << trial << " mu " << mu;
    }
    const WideSigned searched = cardinality_upper_bound(p, w, capacity, lower);
    EXPECT_GE(std::max<WideSigned>(searched, lower), WideSigned{optimum}) << "trial " << trial;
    EXPECT_LE(searched, std::max<WideSigned>(dantzig, lower)) << "trial " << trial;
    if (searched < dantzig) ++bound_below_dantzig;
  }
  EXPECT_GT(bound_below_dantzig, 0);  // the cardinality constraints do tighten some bounds
}

}  // namespace
}  // namespace permbb::knapsack
