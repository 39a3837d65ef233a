// Dominance between the nodes of a level: the sort and scan by hand, then the
// branch-and-bound (with and without dominance) against the dynamic program on many instances
// of the hard classes — strongly correlated, inverse strongly correlated, subset sum — small
// and medium, drawn here, and on edge cases.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "dominance.hpp"
#include "knapsack_dp.hpp"
#include "knapsack_level_search.hpp"
#include "knapsack_test_support.hpp"

namespace permbb::knapsack {
namespace {

using testing::expect_optimal;
using testing::make_instance;

// A list whose nodes have no greedy items (s = level), so ŵ and p̂ are the decided sums.
NodeList list_of(const std::vector<std::pair<std::int64_t, std::int64_t>>& weight_profit,
                 int level) {
  NodeList list(1);
  for (const auto& [weight, profit] : weight_profit) {
    list.append({weight, profit, level, 100, 0, {0}});
  }
  return list;
}

TEST(KnapsackDominance, SortAndScanByHand) {
  // (W, P) in list order: 0 (5,10), 1 (5,12), 2 (4,9), 3 (6,12), 4 (3,9), 5 (5,12).
  // By weight: (3,9)#4 kept; (4,9)#2 no more profit than a lighter node: gone; (5,12)#1
  // kept, its twin #5 and (5,10)#0 gone; (6,12)#3 heavier for the same profit: gone.
  NodeList list = list_of({{5, 10}, {5, 12}, {4, 9}, {6, 12}, {3, 9}, {5, 12}}, 2);
  const std::vector<std::int64_t> before = {0, 1, 2, 3};  // any: no greedy items counted
  EXPECT_EQ(remove_dominated(list, {before.data(), before.data()}, 2), 4);
  ASSERT_EQ(list.size(), 2);
  EXPECT_EQ(list.record(0).weight, 5);
  EXPECT_EQ(list.record(0).profit, 12);
  EXPECT_EQ(list.record(1).weight, 3);
  EXPECT_EQ(list.record(1).profit, 9);
}

TEST(KnapsackDominance, ComparesDecidedItemsNotGreedyOnes) {
  // Items (sorted) weigh 4, 3, 2 and earn 8, 5, 3: prefix sums 0 4 7 9 / 0 8 13 16. At level
  // 1, node a holds item 0 and greedy item 1 (s = 2): ŵ 7, p̂ 13, decided (4, 8). Node b left
  // item 0 out and took greedy items 1, 2 (s = 3): ŵ 5, p̂ 8, decided (0, 0). Neither
  // dominates the other (b is lighter, a earns more), though b's ŵ is below a's.
  const std::vector<std::int64_t> weight_before = {0, 4, 7, 9};
  const std::vector<std::int64_t> profit_before = {0, 8, 13, 16};
  const PrefixSums sums{weight_before.data(), profit_before.data()};
  NodeList list(1);
  list.append({7, 13, 2, 100, 0, {0}});
  list.append({5, 8, 3, 100, 0, {1}});
  const NodeArrays nodes = list.arrays();
  EXPECT_EQ(decided_weight(sums, nodes, 0, 1), 4);
  EXPECT_EQ(decided_profit(sums, nodes, 0, 1), 8);
  EXPECT_EQ(decided_weight(sums, nodes, 1, 1), 0);
  EXPECT_EQ(decided_profit(sums, nodes, 1, 1), 0);
  EXPECT_EQ(remove_dominated(list, sums, 1), 0);
  // A third node deciding (4, 7) is dominated by a: same weight, less profit.
  list.append({4, 7, 1, 100, 0, {0}});
  EXPECT_EQ(remove_dominated(list, sums, 1), 1);
  EXPECT_EQ(list.size(), 2);
}

// Instances of the hard classes drawn here (not by the generator under test): R the range,
// the capacity a fraction of the total weight.
enum class Hard { kStronglyCorrelated, kInverseStronglyCorrelated, kSubsetSum };

KnapsackInstance hard_instance(std::mt19937_64& rng, Hard kind, int n, std::int64_t range,
                               double fraction) {
  std::uniform_int_distribution<std::int64_t> draw(1, range);
  const std::int64_t d = range / 10;
  KnapsackInstance instance = make_instance(0, {}, {});
  std::int64_t total = 0;
  for (int i = 0; i < n; ++i) {
    const std::int64_t x = draw(rng);
    const std::int64_t profit = kind == Hard::kStronglyCorrelated ? x + d : x;
    const std::int64_t weight = kind == Hard::kInverseStronglyCorrelated ? x + d : x;
    instance.profits.push_back(profit);
    instance.weights.push_back(weight);
    total += weight;
  }
  instance.capacity = static_cast<std::int64_t>(fraction * static_cast<double>(total));
  return instance;
}

void expect_both_optimal(const KnapsackInstance& instance) {
  const std::int64_t optimum = solve_dp(instance).value;
  expect_optimal(instance, solve_on_cpu(instance).solution, optimum);
  LevelSearchOptions plain;
  plain.remove_dominated = false;
  expect_optimal(instance, solve_on_cpu(instance, plain).solution, optimum);
}

TEST(KnapsackDominance, SmallHardInstancesAgreeWithTheDynamicProgram) {
  std::mt19937_64 rng(2112);
  int instances = 0;
  for (const Hard kind : {Hard::kStronglyCorrelated, Hard::kInverseStronglyCorrelated,
                          Hard::kSubsetSum}) {
    for (int trial = 0; trial < 300; ++trial) {
      const auto instance = hard_instance(rng, kind, 1 + trial % 30, trial % 2 ? 100 : 20,
                                          0.05 + (trial % 10) / 10.0);
      SCOPED_TRACE(::testing::Message() << static_cast<int>(kind) << " trial " << trial);
      expect_both_optimal(instance);
      ++instances;
    }
  }
  EXPECT_EQ(instances, 900);
}

TEST(KnapsackDominance, MediumHardInstancesAgreeWithTheDynamicProgram) {
  // n = 50..300, R = 100 and 1000, capacities from a tenth to nine tenths of the total:
  // lists where dominance removes most nodes (without it, these take far too long).
  std::mt19937_64 rng(77);
  for (const Hard kind : {Hard::kStronglyCorrelated, Hard::kInverseStronglyCorrelated,
                          Hard::kSubsetSum}) {
    for (int trial = 0; trial < 24; ++trial) {
      const int n = 50 + 50 * (trial % 6);
      const auto instance =
          hard_instance(rng, kind, n, trial % 2 ? 1000 : 100, 0.1 + 0.8 * (trial % 5) / 4.0);
      SCOPED_TRACE(::testing::Message() << static_cast<int>(kind) << " n " << n << " trial "
                                        << trial);
      expect_optimal(instance, solve_on_cpu(instance).solution, solve_dp(instance).value);
    }
  }
}

TEST(KnapsackDominance, UncorrelatedAndWeaklyCorrelatedAgreeToo) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    auto instance = testing::random_instance(rng, 1 + trial % 60, 1, trial % 2 ? 30 : 1000,
                                             (trial % 11) / 10.0);
    SCOPED_TRACE(trial);
    expect_both_optimal(instance);
  }
}

TEST(KnapsackDominance, EdgeCases) {
  // n = 1, fitting or not; capacity 0; items heavier than the capacity beside ones that fit;
  // everything fits; many copies of one item (every node but one per weight is dominated).
  expect_optimal(make_instance(5, {7}, {5}), solve_on_cpu(make_instance(5, {7}, {5})).solution,
                 7);
  expect_optimal(make_instance(4, {7}, {5}), solve_on_cpu(make_instance(4, {7}, {5})).solution,
                 0);
  const auto zero = make_instance(0, {3, 4}, {1, 2});
  expect_optimal(zero, solve_on_cpu(zero).solution, 0);
  // 9 + 11 (weights 4 + 5 = 9); the 100-profit item weighs 10.
  const auto heavy = make_instance(9, {100, 9, 11, 2}, {10, 4, 5, 4});
  expect_optimal(heavy, solve_on_cpu(heavy).solution, 20);
  const auto all = make_instance(50, {1, 2, 3, 4}, {10, 10, 10, 10});
  expect_optimal(all, solve_on_cpu(all).solution, 10);
  // Twelve copies of (p 5, w 3), c = 20: six fit, 30.
  const auto copies = make_instance(20, std::vector<std::int64_t>(12, 5),
                                    std::vector<std::int64_t>(12, 3));
  const LevelSearchResult result = solve_on_cpu(copies);
  expect_optimal(copies, result.solution, 30);
}

}  // namespace
}  // namespace permbb::knapsack
