// The branch-and-bound on the CPU against the dynamic program (hundreds of generated
// instances of every class) and brute force (64-bit magnitudes the DP cannot take), edge
// cases, and a search traced by hand.
#include <gtest/gtest.h>

#include <random>

#include "knapsack_dp.hpp"
#include "knapsack_generator.hpp"
#include "knapsack_level_search.hpp"
#include "knapsack_test_support.hpp"

namespace permbb::knapsack {
namespace {

using testing::brute_force_value;
using testing::expect_optimal;
using testing::make_instance;

TEST(KnapsackLevelSearch, SearchTracedByHand) {
  // Sorted (10, 5), (6, 4), (3, 3), c = 8 (node_bounds tests): the root has U = 14, L = 13
  // (items 0 and 2); level 0 adds its x_0 = 0 child, U = 9 <= 13, dropped; level 1 kills the
  // root (item 1 does not fit) and its x_1 = 0 child has U = 13 <= 13: the search ends after
  // branching 2 nodes with the root's greedy solution. Input order: item 2 first.
  const auto instance = make_instance(8, {3, 10, 6}, {3, 5, 4});
  const LevelSearchResult result = solve_on_cpu(instance);
  expect_optimal(instance, result.solution, 13);
  EXPECT_EQ(result.solution.items, (std::vector<int>{0, 1}));
  EXPECT_EQ(result.statistics.nodes_explored, 2u);
  EXPECT_EQ(result.statistics.levels_small, 2u);
}

TEST(KnapsackLevelSearch, AgreesWithTheDynamicProgramOnEveryClass) {
  int instances = 0;
  for (const auto& name : instance_class_names()) {
    for (int seed = 1; seed <= 200; ++seed) {
      const GeneratorSpec spec{parse_instance_class(name), 1 + seed % 40,
                               seed % 3 == 0 ? 10 : (seed % 3 == 1 ? 30 : 100),
                               static_cast<std::uint64_t>(seed)};
      const KnapsackInstance instance = generate_instance(spec);
      SCOPED_TRACE(instance.name);
      expect_optimal(instance, solve_on_cpu(instance).solution, solve_dp(instance).value);
      ++instances;
    }
  }
  EXPECT_EQ(instances, 1000);
}

TEST(KnapsackLevelSearch, AgreesWithTheDynamicProgramAtAnyCapacity) {
  // Capacities from 0 (nothing fits) past the total weight (everything fits).
  std::mt19937_64 rng(21);
  for (int trial = 0; trial < 200; ++trial) {
    auto instance = testing::random_instance(rng, 1 + trial % 25, 1, 40, (trial % 13) / 10.0);
    SCOPED_TRACE(trial);
    expect_optimal(instance, solve_on_cpu(instance).solution, solve_dp(instance).value);
  }
}

TEST(KnapsackLevelSearch, EdgeCases) {
  // Everything fits: all items, no branching.
  auto all = make_instance(100, {5, 6, 7}, {10, 20, 30});
  auto result = solve_on_cpu(all);
  expect_optimal(all, result.solution, 18);
  EXPECT_EQ(result.solution.items, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(result.statistics.nodes_explored, 0u);
  // Nothing fits.
  auto none = make_instance(4, {5, 6}, {10, 5});
  result = solve_on_cpu(none);
  expect_optimal(none, result.solution, 0);
  EXPECT_TRUE(result.solution.items.empty());
  auto zero = make_instance(0, {5}, {1});
  expect_optimal(zero, solve_on_cpu(zero).solution, 0);
  // One item, fitting exactly or not.
  auto one = make_instance(7, {3}, {7});
  expect_optimal(one, solve_on_cpu(one).solution, 3);
  auto one_too_heavy = make_instance(6, {3}, {7});
  expect_optimal(one_too_heavy, solve_on_cpu(one_too_heavy).solution, 0);
}

TEST(KnapsackLevelSearch, EqualRatiosAgreeWithBruteForce) {
  // Every item has p = 3w: all ratios tie, the bound is the same for many nodes.
  std::mt19937_64 rng(8);
  std::uniform_int_distribution<std::int64_t> weight(1, 50);
  for (int trial = 0; trial < 60; ++trial) {
    auto instance = make_instance(0, {}, {});
    std::int64_t total = 0;
    for (int i = 0; i < 1 + trial % 16; ++i) {
      instance.weights.push_back(weight(rng));
      instance.profits.push_back(3 * instance.weights.back());
      total += instance.weights.back();
    }
    instance.capacity = total * (1 + trial % 4) / 5;
    SCOPED_TRACE(trial);
    expect_optimal(instance, solve_on_cpu(instance).solution, brute_force_value(instance));
  }
}

TEST(KnapsackLevelSearch, LargeValuesNeed128BitProducts) {
  // Profits and weights near 2^40 and near 2^58: (c - w) * p_s reaches 2^84 and 2^120. Totals
  // stay below 2^63 (16 items of at most 2^58 + 2^57).
  std::mt19937_64 rng(99);
  for (const int bits : {40, 58}) {
    const std::int64_t base = std::int64_t{1} << bits;
    for (int trial = 0; trial < 25; ++trial) {
      auto instance = testing::random_instance(rng, 1 + trial % 16, base, base + base / 2,
                                               0.15 + (trial % 6) / 7.0);
      SCOPED_TRACE(::testing::Message() << bits << " bits, trial " << trial);
      expect_optimal(instance, solve_on_cpu(instance).solution, brute_force_value(instance));
    }
  }
}

TEST(KnapsackLevelSearch, TimeLimitStopsWithAFeasibleSolution) {
  // The limit is checked before each level: a limit already passed stops at the root, whose
  // greedy solution is reported.
  const auto instance = generate_instance({InstanceClass::kStronglyCorrelated, 60, 100, 4});
  LevelSearchOptions options;
  options.time_limit_seconds = 1e-9;
  const LevelSearchResult result = solve_on_cpu(instance, options);
  EXPECT_FALSE(result.complete);
  EXPECT_EQ(result.statistics.nodes_explored, 0u);
  EXPECT_LE(result.solution.value, solve_dp(instance).value);
  EXPECT_NO_THROW(check_solution(instance, result.solution));
  EXPECT_TRUE(solve_on_cpu(instance).complete);
}

TEST(KnapsackLevelSearch, AtLeastConfirmsTheOptimumOrFindsNone) {
  // At the DP's optimum the search finds it itself; one above it, it proves that no solution
  // gets there; far below it, the search is the plain one. Never more nodes than without.
  std::mt19937_64 rng(53);
  for (int trial = 0; trial < 300; ++trial) {
    const auto instance = testing::random_instance(rng, 2 + trial % 30, 1, 60, 0.5);
    SCOPED_TRACE(trial);
    const std::int64_t optimum = solve_dp(instance).value;
    if (optimum == 0) continue;
    const LevelSearchResult plain = solve_on_cpu(instance);
    LevelSearchOptions options;
    options.at_least = optimum;
    const LevelSearchResult confirmed = solve_on_cpu(instance, options);
    EXPECT_TRUE(confirmed.complete);
    EXPECT_FALSE(confirmed.none_at_least);
    expect_optimal(instance, confirmed.solution, optimum);
    EXPECT_LE(confirmed.statistics.nodes_explored, plain.statistics.nodes_explored);
    options.at_least = optimum + 1;
    const LevelSearchResult above = solve_on_cpu(instance, options);
    EXPECT_TRUE(above.complete);
    EXPECT_TRUE(above.none_at_least);
    EXPECT_LT(above.solution.value, optimum + 1);
    EXPECT_NO_THROW(check_solution(instance, above.solution));
    options.at_least = 1;
    EXPECT_EQ(solve_on_cpu(instance, options).statistics.nodes_explored,
              plain.statistics.nodes_explored);
  }
}

TEST(KnapsackLevelSearch, RefusesOptionsOutOfRange) {
  const auto instance = make_instance(8, {3, 10, 6}, {3, 5, 4});
  LevelSearchOptions options;
  options.max_list_nodes = 1;
  EXPECT_THROW(solve_on_cpu(instance, options), std::invalid_argument);
  options = {};
  options.switch_threshold = 0;
  EXPECT_THROW(solve_on_cpu(instance, options), std::invalid_argument);
  options = {};
  options.time_limit_seconds = -1;
  EXPECT_THROW(solve_on_cpu(instance, options), std::invalid_argument);
}

}  // namespace
}  // namespace permbb::knapsack
