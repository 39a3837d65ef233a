// The dynamic program, the reference of the other knapsack tests, against brute force and
// hand-computed instances, and its memory limit.
#include <gtest/gtest.h>

#include <random>

#include "input_error.hpp"
#include "knapsack_dp.hpp"
#include "knapsack_test_support.hpp"

namespace permbb::knapsack {
namespace {

using testing::brute_force_value;
using testing::expect_optimal;
using testing::make_instance;

TEST(KnapsackDp, HandComputedInstance) {
  // c = 10: {20/6, 18/5, 15/4}: the two lighter items (9 <= 10) give 33; 20 + 15 (w 10) gives 35.
  const auto instance = make_instance(10, {20, 18, 15}, {6, 5, 4});
  const KnapsackSolution solution = solve_dp(instance);
  expect_optimal(instance, solution, 35);
  EXPECT_EQ(solution.items, (std::vector<int>{0, 2}));
}

TEST(KnapsackDp, AgreesWithBruteForceOnRandomInstances) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 1 + trial % 14;
    const auto instance = testing::random_instance(rng, n, 1, 30, (trial % 7) / 6.0);
    SCOPED_TRACE(trial);
    expect_optimal(instance, solve_dp(instance), brute_force_value(instance));
  }
}

TEST(KnapsackDp, RefusesACapacityBeyondItsMemoryLimit) {
  const auto instance = make_instance(std::int64_t{1} << 40, {1, 2}, {1, 2});
  EXPECT_GT(dp_memory_bytes(2, std::int64_t{1} << 40), std::uint64_t{1} << 40);
  try {
    solve_dp(instance);
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("MiB allowed"), std::string::npos) << e.what();
  }
  // Small ones stay within a small limit: 11 values + 2 items x 1 word = 104 bytes.
  EXPECT_EQ(dp_memory_bytes(2, 10), 104u);
  expect_optimal(make_instance(10, {3, 4}, {6, 5}),
                 solve_dp(make_instance(10, {3, 4}, {6, 5}), 104), 4);
}

}  // namespace
}  // namespace permbb::knapsack
