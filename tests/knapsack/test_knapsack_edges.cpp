// The knapsack solvers at the edges of their input: every instance of up to three small items
// at every capacity (n = 1, 2, 3, capacity 0, nothing fits, everything fits, ratios tied),
// duplicated and proportional items, and profits, weights and capacities at the largest
// values validation lets through (totals of exactly 2^63 - 1). The branch-and-bound, with
// the default list and with the smallest list cap (every level cut, sub-lists set aside),
// and the dynamic program are checked against brute force over all subsets.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "input_error.hpp"
#include "knapsack_dp.hpp"
#include "knapsack_generator.hpp"
#include "knapsack_level_search.hpp"
#include "knapsack_test_support.hpp"

namespace permbb::knapsack {
namespace {

using testing::brute_force_value;
using testing::expect_optimal;
using testing::make_instance;

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

// The smallest memory the search accepts: a list of 2 slots, 1 node set aside.
LevelSearchOptions smallest_caps() {
  LevelSearchOptions options;
  options.max_list_nodes = 2;
  options.max_set_aside_nodes = 1;
  return options;
}

// Both searches (and the dynamic program when its table is small) find the brute-force
// optimum with a feasible, consistent solution.
void expect_every_solver_optimal(const KnapsackInstance& instance) {
  const std::int64_t optimum = brute_force_value(instance);
  const LevelSearchResult plain = solve_on_cpu(instance);
  EXPECT_TRUE(plain.complete);
  expect_optimal(instance, plain.solution, optimum);
  expect_optimal(instance, solve_on_cpu(instance, smallest_caps()).solution, optimum);
  if (instance.capacity <= 1 << 16) expect_optimal(instance, solve_dp(instance), optimum);
}

// Calls visit(values) for every vector of `length` values in [1, most].
template <class Visit>
void for_each_values(int length, std::int64_t most, Visit visit) {
  std::vector<std::int64_t> values(static_cast<std::size_t>(length), 1);
  while (true) {
    visit(values);
    int d = 0;
    while (d < length && values[d] == most) values[d++] = 1;
    if (d == length) return;
    ++values[d];
  }
}

TEST(KnapsackEdges, EveryInstanceOfUpToThreeSmallItemsAtEveryCapacity) {
  int instances = 0;
  for (int n = 1; n <= 3; ++n) {
    for_each_values(n, 3, [&](const std::vector<std::int64_t>& profits) {
      for_each_values(n, 3, [&](const std::vector<std::int64_t>& weights) {
        std::int64_t total = 0;
        for (const std::int64_t w : weights) total += w;
        // 0 (nothing fits), then up to past the total (everything fits).
        for (std::int64_t capacity = 0; capacity <= total + 1; ++capacity) {
          const auto instance = make_instance(capacity, profits, weights);
          SCOPED_TRACE(::testing::Message() << "n " << n << " capacity " << capacity);
          expect_every_solver_optimal(instance);
          ++instances;
        }
      });
    });
  }
  EXPECT_GT(instances, 5000);
}

TEST(KnapsackEdges, NothingFitsAndEverythingFits) {
  // Every item heavier than the capacity: no item survives into the search.
  const auto heavy = make_instance(9, {5, 7, 100}, {10, 11, 12});
  const LevelSearchResult none = solve_on_cpu(heavy);
  expect_optimal(heavy, none.solution, 0);
  EXPECT_TRUE(none.solution.items.empty());
  EXPECT_TRUE(none.complete);
  EXPECT_EQ(solve_dp(heavy).value, 0);
  // The capacity equals the total weight: everything, at the root, without branching.
  const auto exact = make_instance(33, {5, 7, 100}, {10, 11, 12});
  const LevelSearchResult all = solve_on_cpu(exact);
  expect_optimal(exact, all.solution, 112);
  EXPECT_EQ(all.solution.items, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(all.statistics.nodes_explored, 0u);
  EXPECT_EQ(solve_dp(exact).items, (std::vector<int>{0, 1, 2}));
  // One less: the lightest item is the one left out (100 + 7 beats 100 + 5 and 5 + 7).
  expect_every_solver_optimal(make_instance(32, {5, 7, 100}, {10, 11, 12}));
}

TEST(KnapsackEdges, DuplicatedAndProportionalItems) {
  // Items drawn from a few kinds, several with the same ratio (1, 2 and 3 per unit of
  // weight), many identical: every order of equal ratios has to give the same optimum.
  const std::vector<std::pair<std::int64_t, std::int64_t>> kinds = {
      {1, 1}, {2, 2}, {3, 3}, {7, 7}, {2, 1}, {4, 2}, {6, 3}, {3, 1}, {9, 3}};
  std::mt19937_64 rng(17);
  for (int trial = 0; trial < 150; ++trial) {
    auto instance = make_instance(0, {}, {});
    std::int64_t total = 0;
    const int n = 1 + trial % 16;
    for (int i = 0; i < n; ++i) {
      const auto& [p, w] = kinds[rng() % (trial % 3 == 0 ? 4 : kinds.size())];
      instance.profits.push_back(p);
      instance.weights.push_back(w);
      total += w;
    }
    instance.capacity = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(total + 2));
    SCOPED_TRACE(trial);
    expect_every_solver_optimal(instance);
  }
}

TEST(KnapsackEdges, TheLargestProfitsWeightsAndCapacity) {
  // One item of 2^63 - 1 in a knapsack of 2^63 - 1, fitting exactly, and one unit too heavy.
  expect_every_solver_optimal(make_instance(kMax, {kMax}, {kMax}));
  expect_every_solver_optimal(make_instance(kMax - 1, {kMax}, {kMax}));
  // Totals of exactly 2^63 - 1, the largest validation accepts, both items fitting.
  const std::int64_t half = std::int64_t{1} << 62;
  const auto full = make_instance(kMax, {half, half - 1}, {half - 1, half});
  EXPECT_NO_THROW(validate_instance(full));
  expect_every_solver_optimal(full);
  // Either one alone: the larger profit wins.
  expect_every_solver_optimal(make_instance(half, {half, half - 1}, {half - 1, half}));
  // A huge capacity over small items (everything fits), and tiny weights with huge profits
  // (the dynamic program's table stays small).
  expect_every_solver_optimal(make_instance(kMax, {3, 1, 2}, {1, 5, 2}));
  expect_every_solver_optimal(make_instance(4, {half, half / 2, half / 2 - 1}, {3, 2, 2}));
}

TEST(KnapsackEdges, NearlyEqualRatiosOfHugeValues) {
  // 16 items of about 2^59 with ratios a few units apart in 2^59: ordering them takes the
  // exact 128-bit comparison, and bounds take 128-bit products; totals stay below 2^63.
  std::mt19937_64 rng(23);
  const std::int64_t base = std::int64_t{1} << 59;
  for (int trial = 0; trial < 40; ++trial) {
    auto instance = make_instance(0, {}, {});
    std::int64_t total = 0;
    for (int i = 0; i < 1 + trial % 15; ++i) {
      const auto spread = static_cast<std::int64_t>(rng() % 8);
      instance.weights.push_back(base - static_cast<std::int64_t>(rng() % 5));
      instance.profits.push_back(base - spread);
      total += instance.weights.back();
    }
    instance.capacity = total / 2 + static_cast<std::int64_t>(rng() % 3);
    SCOPED_TRACE(trial);
    expect_every_solver_optimal(instance);
  }
}

TEST(KnapsackEdges, GeneratedWithTheLargestRangeAndSeed) {
  // R = 2^60: profits and weights up to 2^60 + 2^60 / 10, the capacity half the total.
  for (const InstanceClass c :
       {InstanceClass::kUncorrelated, InstanceClass::kWeaklyCorrelated,
        InstanceClass::kStronglyCorrelated, InstanceClass::kInverseStronglyCorrelated,
        InstanceClass::kSubsetSum}) {
    const auto instance = generate_instance({c, 6, kMaxRange, ~std::uint64_t{0}});
    SCOPED_TRACE(instance.name);
    expect_every_solver_optimal(instance);
  }
}

TEST(KnapsackEdges, TotalsPast63BitsAreRefused) {
  const std::int64_t half = std::int64_t{1} << 62;
  EXPECT_THROW(validate_instance(make_instance(1, {half, half}, {1, 1})), InputError);
  EXPECT_THROW(validate_instance(make_instance(1, {1, 1}, {half, half})), InputError);
  EXPECT_THROW(validate_instance(make_instance(1, {kMax, 1}, {1, 1})), InputError);
}

TEST(KnapsackEdges, DynamicProgramBeyondItsLimitIsRefusedBeforeAllocating) {
  // 2^62 columns: past 2^65 bytes, saturated to 2^64 - 1 and refused, never allocated.
  const auto instance = make_instance(kMax / 2, {1, 2}, {1, 2});
  EXPECT_EQ(dp_memory_bytes(2, kMax), std::numeric_limits<std::uint64_t>::max());
  EXPECT_THROW(solve_dp(instance, std::numeric_limits<std::uint64_t>::max() - 1), InputError);
  // At exactly its need it runs: 11 values and one word per item, 104 bytes.
  const auto small = make_instance(10, {3, 4}, {6, 5});
  EXPECT_THROW(solve_dp(small, 103), InputError);
  expect_optimal(small, solve_dp(small, 104), 4);
}

}  // namespace
}  // namespace permbb::knapsack
