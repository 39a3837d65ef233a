// The host+device node functions (node_bounds.hpp, node_branching.hpp), the 128-bit arithmetic
// and the item order, on hand-computed cases, and the invariants of every node of a search
// without pruning checked against brute force over the node's subtree.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "core_bounds.hpp"
#include "item_table.hpp"
#include "knapsack_solution.hpp"
#include "knapsack_test_support.hpp"
#include "node_bounds.hpp"
#include "node_branching.hpp"
#include "node_list.hpp"
#include "wide_arithmetic.hpp"

namespace permbb::knapsack {
namespace {

using testing::make_instance;

TEST(KnapsackWideArithmetic, MulDivFloor) {
  EXPECT_EQ(mul_div_floor(10, 7, 4), 17);  // 70 / 4 = 17.5
  EXPECT_EQ(mul_div_floor(0, 7, 4), 0);
  EXPECT_EQ(mul_div_floor(std::int64_t{1} << 40, std::int64_t{1} << 40, std::int64_t{1} << 20),
            std::int64_t{1} << 60);
  // 6 * 2^62 does not fit in 64 bits; / 4 = 3 * 2^61.
  EXPECT_EQ(mul_div_floor(std::int64_t{1} << 62, 6, 4), 3 * (std::int64_t{1} << 61));
  // (x + 1)(x - 1) / x = x - 1/x with x = 2^62 - 2, floored: x - 1.
  const std::int64_t x = (std::int64_t{1} << 62) - 2;
  EXPECT_EQ(mul_div_floor(x + 1, x - 1, x), x - 1);
}

// The host's one-instruction division against the library's, where its quotient fits (the
// high word below the divisor) and where it does not (the fallback), at the edges and drawn.
TEST(KnapsackWideArithmetic, DivideWideAgreesWithTheGenericDivision) {
  const auto wide = [](std::uint64_t high, std::uint64_t low) {
    return (static_cast<WideUnsigned>(high) << 64) | low;
  };
  const std::uint64_t top = ~std::uint64_t{0};
  EXPECT_TRUE(divide_wide(wide(0, 70), 4) == 17);
  EXPECT_TRUE(divide_wide(wide(3, 0), 4) == (std::uint64_t{3} << 62));  // 3 * 2^64 / 4
  EXPECT_TRUE(divide_wide(wide(4, 0), 4) == wide(1, 0));  // the quotient needs 65 bits
  EXPECT_TRUE(divide_wide(wide(top - 1, top), top) == top);  // (2^128 - 2^64 - 1) / (2^64 - 1)
  EXPECT_TRUE(divide_wide(wide(top, top), 1) == wide(top, top));
  std::mt19937_64 rng(53);
  for (int trial = 0; trial < 100000; ++trial) {
    const std::uint64_t divisor = std::max<std::uint64_t>(1, rng() >> (rng() % 64));
    const std::uint64_t high = rng() >> (rng() % 65 == 64 ? 63 : rng() % 64);
    const WideUnsigned n = wide(trial % 3 == 0 ? high % divisor : high, rng());
    const WideUnsigned quotient = n / divisor;
    ASSERT_TRUE(divide_wide(n, divisor) == quotient) << trial;
  }
}

// ⌊x p / w⌋ of both signs: rounded down, not toward zero.
TEST(KnapsackWideArithmetic, FloorScaledRoundsDown) {
  EXPECT_TRUE(floor_scaled(7, ItemRatio{3, 2}) == 10);    // 21 / 2 = 10.5
  EXPECT_TRUE(floor_scaled(-7, ItemRatio{3, 2}) == -11);  // -10.5
  EXPECT_TRUE(floor_scaled(-6, ItemRatio{3, 2}) == -9);
  EXPECT_TRUE(floor_scaled(0, ItemRatio{3, 2}) == 0);
  const WideSigned big = WideSigned{1} << 100;
  EXPECT_TRUE(floor_scaled(big + 1, ItemRatio{3, 4}) == (big / 4) * 3);       // 3 (2^100 + 1) / 4
  EXPECT_TRUE(floor_scaled(-(big + 1), ItemRatio{3, 4}) == -((big / 4) * 3) - 1);
}

TEST(KnapsackWideArithmetic, RatioComparisonIsExact) {
  const std::int64_t big = std::int64_t{1} << 62;
  EXPECT_TRUE(ratio_greater(big + 1, big, 1, 1));  // (2^62 + 1) / 2^62 > 1
  EXPECT_FALSE(ratio_greater(big, big + 1, 1, 1));
  EXPECT_FALSE(ratio_greater(2, 4, 3, 6));  // equal ratios
  EXPECT_FALSE(ratio_greater(3, 6, 2, 4));
  // (x + 1) / x = 1 + 1/x < x / (x - 1) = 1 + 1/(x - 1), x = 2^62 - 2: apart by about 2^-124.
  EXPECT_FALSE(ratio_greater(big - 1, big - 2, big - 2, big - 3));
  EXPECT_TRUE(ratio_greater(big - 2, big - 3, big - 1, big - 2));
}

TEST(KnapsackItemTable, SortsByRatioStablyAndDropsItemsThatNeverFit) {
  // ratios: 1, 3, 1 (tie with item 0), 5 (weight 11 > c: dropped), 2
  const auto instance = make_instance(10, {4, 6, 2, 55, 10}, {4, 2, 2, 11, 5});
  const ItemTable items(instance);
  ASSERT_EQ(items.count(), 4);
  const std::vector<int> order = {items.original_index(0), items.original_index(1),
                                  items.original_index(2), items.original_index(3)};
  EXPECT_EQ(order, (std::vector<int>{1, 4, 0, 2}));
  EXPECT_EQ(items.weights(), (std::vector<std::int64_t>{2, 5, 4, 2}));
  EXPECT_EQ(items.min_weight_from(), (std::vector<std::int64_t>{2, 2, 2, 2, INT64_MAX}));
  EXPECT_EQ(items.words_per_node(), 1);
}

// Sorted items (10, 5), (6, 4), (3, 3) with c = 8, by hand:
// root: item 0 fits, item 1 does not (9 > 8): s = 1, room 3, U = 10 + floor(3 * 6 / 4) = 14,
// L = 10 + 3 (item 2 fits the room) = 13.
TEST(KnapsackNodeBounds, RootByHand) {
  const auto instance = make_instance(8, {10, 6, 3}, {5, 4, 3});
  const ItemTable items(instance);
  NodeList root = root_list(items);
  const NodeRecord r = root.record(0);
  EXPECT_EQ(r.slack, 1);
  EXPECT_EQ(r.weight, 5);
  EXPECT_EQ(r.profit, 10);
  EXPECT_EQ(r.upper, 14);
  EXPECT_EQ(r.lower, 13);
}

TEST(KnapsackNodeBranching, BothCasesByHand) {
  const auto instance = make_instance(8, {10, 6, 3}, {5, 4, 3});
  const ItemTable items(instance);
  NodeList list = root_list(items);
  list.resize(2);
  NodeArrays nodes = list.arrays();
  // Level 0, k = 0 < s = 1: the x_0 = 1 child is the root itself; the x_0 = 0 child drops
  // item 0 and resumes at item 1: items 1 and 2 fit (7 <= 8), no slack item: U = L = 9.
  branch_node(items.view(), nodes, 0, 1, 0);
  EXPECT_EQ(list.record(0).upper, 14);
  EXPECT_EQ(list.record(1).slack, 1);  // where bounding resumes
  bound_child(items.view(), nodes, 1);
  NodeRecord child = list.record(1);
  EXPECT_EQ(child.slack, 3);
  EXPECT_EQ(child.weight, 7);
  EXPECT_EQ(child.upper, 9);
  EXPECT_EQ(child.lower, 9);
  EXPECT_EQ(child.excluded[0], 1u);
  // Level 1 on the root (s = 1 = k): item 1 does not fit, the root dies; its x_1 = 0 child
  // resumes at item 2, which fits: weight 8, U = L = 13.
  NodeList level1 = root_list(items);
  level1.resize(2);
  nodes = level1.arrays();
  branch_node(items.view(), nodes, 0, 1, 1);
  EXPECT_EQ(level1.record(0).upper, kDeadBound);
  EXPECT_FALSE(keep_node(nodes, 0, 0));
  bound_child(items.view(), nodes, 1);
  child = level1.record(1);
  EXPECT_EQ(child.slack, 3);
  EXPECT_EQ(child.weight, 8);
  EXPECT_EQ(child.upper, 13);
  EXPECT_EQ(child.lower, 13);
  EXPECT_EQ(child.excluded[0], 2u);
}

TEST(KnapsackNodeBounds, GreedyLowerBoundSkipsItemsThatDoNotFit) {
  // Sorted (9, 3), (8, 4), (3, 2), (1, 1), c = 6: root takes item 0, item 1 is the slack (7 > 6),
  // room 3: item 2 fits (room 1), item 3 fits (room 0): L = 9 + 3 + 1 = 13.
  const auto instance = make_instance(6, {9, 8, 3, 1}, {3, 4, 2, 1});
  const ItemTable items(instance);
  const NodeRecord root = root_list(items).record(0);
  EXPECT_EQ(root.slack, 1);
  EXPECT_EQ(root.upper, 9 + 3 * 8 / 4);
  EXPECT_EQ(root.lower, 13);
  const KnapsackSolution s = solution_of_node(items, root);
  EXPECT_EQ(s.items, (std::vector<int>{0, 2, 3}));
  EXPECT_EQ(s.value, 13);
}

// The best value of the subtree of a level-k node: items i < k fixed by its decision record
// (taken unless excluded), the others free; by brute force.
std::int64_t subtree_optimum(const ItemTable& items, const NodeRecord& node, int level) {
  std::int64_t fixed_weight = 0;
  std::int64_t fixed_profit = 0;
  for (int i = 0; i < level; ++i) {
    if ((node.excluded[i / 64] >> (i % 64)) & 1u) continue;
    fixed_weight += items.weights()[i];
    fixed_profit += items.profits()[i];
  }
  if (fixed_weight > items.capacity()) return -1;
  const int free = items.count() - level;
  std::int64_t best = -1;
  for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << free); ++mask) {
    std::int64_t w = fixed_weight;
    std::int64_t p = fixed_profit;
    for (int f = 0; f < free; ++f) {
      if ((mask >> f) & 1u) {
        w += items.weights()[level + f];
        p += items.profits()[level + f];
      }
    }
    if (w <= items.capacity()) best = std::max(best, p);
  }
  return best;
}

std::int64_t feasible_subsets(const ItemTable& items) {
  std::int64_t count = 0;
  for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << items.count()); ++mask) {
    std::int64_t w = 0;
    for (int i = 0; i < items.count(); ++i) {
      if ((mask >> i) & 1u) w += items.weights()[i];
    }
    if (w <= items.capacity()) ++count;
  }
  return count;
}

// A level step that keeps every live node (a backend's step prunes with the best L): branch,
// bound, drop only the killed nodes.
void branch_without_pruning(const ItemTable& items, NodeList& list, int level) {
  const std::int64_t q = list.size();
  list.resize(2 * q);
  const NodeArrays nodes = list.arrays();
  for (std::int64_t j = 0; j < q; ++j) branch_node(items.view(), nodes, j, q, level);
  for (std::int64_t j = q; j < 2 * q; ++j) bound_child(items.view(), nodes, j);
  list.retain_above(kDeadBound);
}

// Every node of every level of an unpruned search (only the killed nodes go):
// k <= s, its record matches its weight and profit, L is the value of a feasible solution in
// its subtree, and U bounds the subtree's optimum. The x_k = 1 child exists exactly when item
// k fits, so the last level holds one node per feasible subset of the items.
TEST(KnapsackNodeBounds, EveryNodeOfAnUnprunedSearchHasValidBounds) {
  std::mt19937_64 rng(5);
  int nodes_checked = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const int n = 1 + trial % 9;
    const auto instance = testing::random_instance(rng, n, 1, 20 + trial, 0.2 + (trial % 5) / 6.0);
    const ItemTable items(instance);
    NodeList list = root_list(items);
    for (int level = 0; level <= items.count(); ++level) {
      for (std::int64_t j = 0; j < list.size(); ++j) {
        const NodeRecord node = list.record(j);
        SCOPED_TRACE(::testing::Message()
                     << "trial " << trial << " level " << level << " node " << j);
        ASSERT_GE(node.slack, level);
        const KnapsackSolution completion = solution_of_node(items, node);  // checks the record
        EXPECT_EQ(completion.value, node.lower);
        const std::int64_t optimum = subtree_optimum(items, node, level);
        ASSERT_GE(optimum, node.lower);
        EXPECT_GE(node.upper, optimum);
        ++nodes_checked;
      }
      if (level == items.count()) {
        EXPECT_EQ(list.size(), feasible_subsets(items));
      } else {
        branch_without_pruning(items, list, level);
      }
    }
  }
  EXPECT_GT(nodes_checked, 500);
}

}  // namespace
}  // namespace permbb::knapsack
