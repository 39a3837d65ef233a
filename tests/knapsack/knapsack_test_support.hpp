#pragma once
// Independent references for the knapsack tests: brute force over all subsets, random
// instances drawn here (not by the generator under test), and the checks every solver's
// answer must pass.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "knapsack_instance.hpp"
#include "knapsack_solution.hpp"

namespace permbb::knapsack::testing {

// The optimal value by enumerating all 2^n subsets (n <= 24).
inline std::int64_t brute_force_value(const KnapsackInstance& instance) {
  const int n = instance.items();
  std::int64_t best = 0;
  for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << n); ++mask) {
    std::int64_t weight = 0;
    std::int64_t value = 0;
    for (int i = 0; i < n; ++i) {
      if ((mask >> i) & 1u) {
        weight += instance.weights[i];
        value += instance.profits[i];
      }
    }
    if (weight <= instance.capacity && value > best) best = value;
  }
  return best;
}

inline KnapsackInstance make_instance(std::int64_t capacity, std::vector<std::int64_t> profits,
                                      std::vector<std::int64_t> weights) {
  KnapsackInstance instance;
  instance.name = "test";
  instance.capacity = capacity;
  instance.profits = std::move(profits);
  instance.weights = std::move(weights);
  return instance;
}

// n items with profits and weights uniform in [low, high] and the given capacity fraction of
// the total weight.
inline KnapsackInstance random_instance(std::mt19937_64& rng, int n, std::int64_t low,
                                        std::int64_t high, double capacity_fraction) {
  std::uniform_int_distribution<std::int64_t> value(low, high);
  KnapsackInstance instance = make_instance(0, {}, {});
  std::int64_t total = 0;
  for (int i = 0; i < n; ++i) {
    instance.profits.push_back(value(rng));
    instance.weights.push_back(value(rng));
    total += instance.weights.back();
  }
  instance.capacity = static_cast<std::int64_t>(capacity_fraction * static_cast<double>(total));
  return instance;
}

// The solution is feasible, its items exist and add up to its value and weight, and its value
// is `optimum`.
inline void expect_optimal(const KnapsackInstance& instance, const KnapsackSolution& solution,
                           std::int64_t optimum) {
  EXPECT_EQ(solution.value, optimum);
  std::int64_t weight = 0;
  std::int64_t value = 0;
  for (std::size_t k = 0; k < solution.items.size(); ++k) {
    const int i = solution.items[k];
    ASSERT_GE(i, 0);
    ASSERT_LT(i, instance.items());
    if (k > 0) {
      EXPECT_LT(solution.items[k - 1], i) << "items not strictly increasing";
    }
    weight += instance.weights[i];
    value += instance.profits[i];
  }
  EXPECT_LE(weight, instance.capacity);
  EXPECT_EQ(weight, solution.weight);
  EXPECT_EQ(value, solution.value);
}

}  // namespace permbb::knapsack::testing
