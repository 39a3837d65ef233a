// The group search (group_search.hpp) and its parts: the covers of base sums and the groups'
// tables against brute force, then whole searches against brute force (Jooken's class, and
// random instances with no groups at all) and the dynamic program, --at-least both ways, the
// time limit and the table budget.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "base_sum_intervals.hpp"
#include "core_search.hpp"
#include "group_search.hpp"
#include "input_error.hpp"
#include "jooken_generator.hpp"
#include "knapsack_dp.hpp"
#include "knapsack_test_support.hpp"
#include "weight_groups.hpp"

namespace permbb::knapsack {
namespace {

using testing::brute_force_value;
using testing::expect_optimal;

KnapsackInstance jooken(int n, const std::string& c, int g, const std::string& f,
                        const std::string& eps, int s, int seed) {
  return generate_jooken_instance(parse_jooken_spec(
      "jooken," + std::to_string(n) + "," + c + "," + std::to_string(g) + "," + f + "," + eps +
      "," + std::to_string(s) + "," + std::to_string(seed)));
}

// Every sum of k_j * b_j within the limit is covered, even with few intervals: the bound on
// the largest covered sum <= x is never below the true largest, nor above x.
TEST(BaseSumIntervals, CoverEverySumWithinTheLimit) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 40; ++trial) {
    const std::int64_t limit = 2000 + static_cast<std::int64_t>(rng() % 3000);
    const std::int64_t most_intervals = trial % 2 ? 4 : 1000;
    std::set<std::int64_t> sums{0};
    BaseSumIntervals cover;
    for (int j = 0; j < 4; ++j) {
      const std::int64_t base = 7 + static_cast<std::int64_t>(rng() % 400);
      const int most = static_cast<int>(rng() % 6);
      std::set<std::int64_t> next;
      for (const std::int64_t s : sums) {
        for (int k = 0; k <= most && s + k * base <= limit; ++k) next.insert(s + k * base);
      }
      sums = next;
      cover = cover.plus(base, most, limit, most_intervals);
      EXPECT_LE(cover.size(), most_intervals);
    }
    for (std::int64_t x = 0; x <= limit + 10; ++x) {
      const std::int64_t truth = *std::prev(sums.upper_bound(x));
      const std::int64_t bound = cover.largest_at_most(x);
      ASSERT_GE(bound, truth) << "x " << x;
      ASSERT_LE(bound, x);
      if (most_intervals == 1000) {
        ASSERT_EQ(bound, truth) << "x " << x;  // nothing joined
      }
    }
  }
}

// A group's row k at room r: the most extra profit of exactly k of its items within r.
TEST(WeightGroups, TablesAgreeWithBruteForce) {
  const KnapsackInstance instance = jooken(16, "1000000", 3, "0.2", "0.01", 100, 3);
  const WeightGroups groups = make_weight_groups(instance, 1024, 1 << 20);
  ASSERT_EQ(groups.groups.size(), 2u);
  EXPECT_EQ(groups.light.items.size(), 4u);
  EXPECT_GT(groups.groups[0].base, groups.groups[1].base);  // heaviest first
  for (const WeightGroup& g : groups.groups) {
    const int n = static_cast<int>(g.items.size());
    for (int k = 0; k <= g.most_taken; ++k) {
      for (std::int64_t room = 0; room <= k * g.span + 2; room += 7) {
        std::int64_t best = kNoProfit;
        for (int mask = 0; mask < (1 << n); ++mask) {
          if (__builtin_popcount(mask) != k) continue;
          std::int64_t w = 0;
          std::int64_t p = 0;
          for (int i = 0; i < n; ++i) {
            if ((mask >> i) & 1) {
              w += g.extra_weight[i];
              p += g.extra_profit[i];
            }
          }
          if (w <= room) best = std::max(best, p);
        }
        EXPECT_EQ(g.best_within(k, room), best) << "k " << k << " room " << room;
      }
    }
  }
}

void expect_groups_optimal(const KnapsackInstance& instance, std::int64_t optimum) {
  const GroupSearchResult r = solve_by_groups(instance);
  EXPECT_TRUE(r.complete);
  EXPECT_FALSE(r.none_at_least);
  expect_optimal(instance, r.solution, optimum);
}

TEST(GroupSearch, SmallJookenInstancesAgreeWithBruteForce) {
  const char* capacities[] = {"1000", "1000000", "10000000000"};
  const char* epsilons[] = {"0", "0.00001", "0.01", "0.1"};
  for (int trial = 0; trial < 72; ++trial) {
    const int n = 8 + trial % 11;  // 8..18
    const KnapsackInstance instance =
        jooken(n, capacities[trial % 3], 2 + trial % 4, "0." + std::to_string(1 + trial % 3),
               epsilons[trial % 4], 100 * (1 + trial % 3), trial);
    SCOPED_TRACE(instance.name);
    expect_groups_optimal(instance, brute_force_value(instance));
  }
}

// Items in no groups at all (each its own, or a few light ones): slower, never wrong.
TEST(GroupSearch, RandomInstancesAgreeWithBruteForce) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 60; ++trial) {
    const std::int64_t high = trial % 3 == 0 ? 50 : trial % 3 == 1 ? 5000 : 5'000'000;
    const KnapsackInstance instance =
        testing::random_instance(rng, 4 + trial % 12, 1, high, 0.2 + 0.1 * (trial % 6));
    SCOPED_TRACE("trial " + std::to_string(trial));
    expect_groups_optimal(instance, brute_force_value(instance));
  }
}

// Few groups and a small capacity, so that the dynamic program's table is small.
TEST(GroupSearch, MediumJookenInstancesAgreeWithTheDynamicProgram) {
  const char* epsilons[] = {"0", "0.0001", "0.001", "0.01"};
  for (int trial = 0; trial < 8; ++trial) {
    const KnapsackInstance instance = jooken(60 + 20 * trial, "100000", 3 + trial % 3, "0.2",
                                             epsilons[trial % 4], 100, trial);
    SCOPED_TRACE(instance.name);
    expect_groups_optimal(instance, solve_dp(instance).value);
  }
}

// A capacity near 2^63 and profits far above the weights: the bounds (a capacity plus
// profits, added in 128 bits) come close to 2^63.
TEST(GroupSearch, CapacityNearTheLargestIntegerAgreesWithBruteForce) {
  for (const std::int64_t weight_base : {std::int64_t{100'000'000'000'000'000},
                                         std::int64_t{900'000'000'000'000'000}}) {
    std::vector<std::int64_t> profits;
    std::vector<std::int64_t> weights;
    for (int i = 0; i < 10; ++i) {
      weights.push_back(weight_base + 1000 * i);
      profits.push_back(800'000'000'000'000'000 + 700 * ((i * 7) % 10));
    }
    for (const std::int64_t capacity : {std::int64_t{9'200'000'000'000'000'000},
                                        weight_base * 5 + 3000}) {
      const KnapsackInstance instance = testing::make_instance(capacity, profits, weights);
      SCOPED_TRACE(std::to_string(weight_base) + " " + std::to_string(capacity));
      expect_groups_optimal(instance, brute_force_value(instance));
    }
  }
}

// --at-least V: the optimum when it reaches V; none-at-least, complete, when it does not.
TEST(GroupSearch, AtLeastConfirmsOrRefutesAValue) {
  const KnapsackInstance instance = jooken(18, "1000000", 4, "0.2", "0.001", 200, 9);
  const std::int64_t optimum = brute_force_value(instance);
  GroupSearchOptions options;
  options.at_least = optimum;
  const GroupSearchResult reached = solve_by_groups(instance, options);
  EXPECT_TRUE(reached.complete);
  EXPECT_FALSE(reached.none_at_least);
  expect_optimal(instance, reached.solution, optimum);
  options.at_least = optimum + 1;
  const GroupSearchResult beyond = solve_by_groups(instance, options);
  EXPECT_TRUE(beyond.complete);
  EXPECT_TRUE(beyond.none_at_least);
  EXPECT_LT(beyond.solution.value, optimum + 1);
}

// W* = c (the bases' sums dense up to c): the counts to enumerate are many. Progress comes
// every 0.1 s on the way.
TEST(GroupSearch, TimeLimitLeavesAFeasibleSolution) {
  const KnapsackInstance instance = jooken(1200, "10000000000", 14, "0.3", "0.00001", 100, 1);
  GroupSearchOptions options;
  options.time_limit_seconds = 0.5;
  std::vector<GroupSearchProgress> reports;
  options.progress_seconds = 0.1;
  options.on_progress = [&](const GroupSearchProgress& p) { reports.push_back(p); };
  const GroupSearchResult r = solve_by_groups(instance, options);
  ASSERT_GE(reports.size(), 1u);  // at the first node at least (the tables take a while)
  for (std::size_t k = 1; k < reports.size(); ++k) {
    EXPECT_GE(reports[k].seconds, reports[k - 1].seconds + 0.1);
    EXPECT_GE(reports[k].nodes, reports[k - 1].nodes);
  }
  EXPECT_LE(reports.back().best, r.solution.value);
  EXPECT_FALSE(r.complete);
  EXPECT_FALSE(r.none_at_least);
  EXPECT_GT(r.solution.value, 0);
  check_solution(instance, r.solution);
}

TEST(GroupSearch, RefusesTablesPastTheBudgetAndTooManyGroups) {
  const KnapsackInstance instance = jooken(400, "10000000000", 10, "0.1", "0.00001", 200, 1);
  GroupSearchOptions options;
  options.max_table_cells = 1000;
  EXPECT_THROW(solve_by_groups(instance, options), InputError);
  std::mt19937_64 rng(3);
  const KnapsackInstance scattered = testing::random_instance(rng, 70, 1, 1'000'000'000, 0.5);
  EXPECT_THROW(solve_by_groups(scattered), InputError);  // 70 groups of one item
}

// Instances of the published set's shape at c = 10^10, where the expanding core (a method
// sharing no code with this one) proves the optimum too: with W* < c (the bases leave no sum
// near c) and W* = c.
TEST(GroupSearch, AgreesWithTheExpandingCoreOnJookenInstances) {
  const KnapsackInstance instances[] = {
      jooken(200, "10000000000", 10, "0.1", "0.00001", 200, 4),
      jooken(150, "10000000000", 6, "0.2", "0.001", 100, 1),
      jooken(150, "10000000000", 14, "0.2", "0.0001", 100, 1),
  };
  for (const KnapsackInstance& instance : instances) {
    SCOPED_TRACE(instance.name);
    const CoreSearchResult core = solve_core(instance);
    ASSERT_TRUE(core.complete);
    expect_groups_optimal(instance, core.solution.value);
  }
}

}  // namespace
}  // namespace permbb::knapsack
