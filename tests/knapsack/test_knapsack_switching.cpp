// The level loop's host logic, the part the GPU path adds: moving the list between two
// backends by size and cutting it at the memory cap. A second HostListBackend stands in for
// the GPU (every backend does the same level step), so the switching and the depth-first
// sub-lists are exercised here; tests/gpu/test_knapsack_gpu.cpp runs them with the real device.
#include <gtest/gtest.h>

#include "host_list_backend.hpp"
#include "knapsack_dp.hpp"
#include "knapsack_generator.hpp"
#include "knapsack_level_search.hpp"
#include "knapsack_test_support.hpp"

namespace permbb::knapsack {
namespace {

using testing::expect_optimal;

LevelSearchResult solve_with_two_backends(const KnapsackInstance& instance,
                                          const LevelSearchOptions& options) {
  const ItemTable items(instance);
  HostListBackend small(items, "cpu");
  HostListBackend large(items, "stand-in");
  return run_level_search(items, small, &large, options);
}

TEST(KnapsackSwitching, SwitchingChangesNothingButWhereLevelsRun) {
  // Without a cut, the levels are the same whatever backend runs them: same node count, same
  // solution, however often the list moves.
  std::uint64_t switches = 0;
  for (const auto& name : instance_class_names()) {
    for (int seed = 1; seed <= 30; ++seed) {
      const auto instance = generate_instance(
          {parse_instance_class(name), 20 + seed, 100, static_cast<std::uint64_t>(seed)});
      SCOPED_TRACE(instance.name);
      const LevelSearchResult alone = solve_on_cpu(instance);
      for (const std::int64_t threshold : {1, 3, 8, 40}) {
        LevelSearchOptions options;
        options.switch_threshold = threshold;
        const LevelSearchResult both = solve_with_two_backends(instance, options);
        EXPECT_EQ(both.solution.items, alone.solution.items);
        EXPECT_EQ(both.solution.value, alone.solution.value);
        EXPECT_EQ(both.statistics.nodes_explored, alone.statistics.nodes_explored);
        EXPECT_EQ(both.statistics.levels_small + both.statistics.levels_large,
                  alone.statistics.levels_small);
        EXPECT_EQ(both.statistics.splits, 0u);
        switches += both.statistics.switches;
      }
    }
  }
  EXPECT_GT(switches, 500u);
}

TEST(KnapsackSwitching, MemoryCapAndSwitchesStillFindTheOptimum) {
  std::uint64_t splits = 0;
  std::uint64_t switches = 0;
  int instances = 0;
  for (const auto& name : instance_class_names()) {
    for (int seed = 1; seed <= 100; ++seed) {
      const auto instance =
          generate_instance({parse_instance_class(name), 5 + seed % 40, seed % 2 == 0 ? 30 : 100,
                             static_cast<std::uint64_t>(seed)});
      SCOPED_TRACE(instance.name);
      const std::int64_t optimum = solve_dp(instance).value;
      LevelSearchOptions options;
      options.switch_threshold = 2 + seed % 5;
      options.max_list_nodes = 2 + seed % 11;
      const LevelSearchResult result = solve_with_two_backends(instance, options);
      expect_optimal(instance, result.solution, optimum);
      EXPECT_LE(result.statistics.largest_list, options.max_list_nodes / 2);
      splits += result.statistics.splits;
      switches += result.statistics.switches;
      ++instances;
    }
  }
  EXPECT_EQ(instances, 500);
  EXPECT_GT(splits, 500u);
  EXPECT_GT(switches, 500u);
}

TEST(KnapsackSwitching, SetAsideNodesStayWithinTheirBudget) {
  // The budget B bounds the nodes set aside at once, up to 2 per level (level_search.cpp).
  std::uint64_t splits = 0;
  for (const auto& name : instance_class_names()) {
    for (int seed = 1; seed <= 60; ++seed) {
      const auto instance = generate_instance(
          {parse_instance_class(name), 20 + seed % 25, 100, static_cast<std::uint64_t>(seed)});
      SCOPED_TRACE(instance.name);
      LevelSearchOptions options;
      options.switch_threshold = 4;
      options.max_list_nodes = 64;
      options.max_set_aside_nodes = (seed % 4) * 40;
      const LevelSearchResult result = solve_with_two_backends(instance, options);
      expect_optimal(instance, result.solution, solve_dp(instance).value);
      EXPECT_LE(result.statistics.largest_set_aside,
                options.max_set_aside_nodes + 2 * instance.items());
      splits += result.statistics.splits;
    }
  }
  EXPECT_GT(splits, 200u);
}

TEST(KnapsackSwitching, TheSmallestCapIsADepthFirstSearch) {
  // max_list_nodes = 2: one node per level, every sibling set aside.
  std::uint64_t splits = 0;
  for (int seed = 1; seed <= 20; ++seed) {
    const auto instance = generate_instance(
        {InstanceClass::kStronglyCorrelated, 18, 50, static_cast<std::uint64_t>(seed)});
    LevelSearchOptions options;
    options.max_list_nodes = 2;
    const LevelSearchResult result = solve_on_cpu(instance, options);
    SCOPED_TRACE(instance.name);
    expect_optimal(instance, result.solution, solve_dp(instance).value);
    EXPECT_LE(result.statistics.largest_list, 1);
    splits += result.statistics.splits;
  }
  EXPECT_GT(splits, 20u);
}

}  // namespace
}  // namespace permbb::knapsack
