// The knapsack GPU list against the CPU (run on a GPU machine; label gpu). The device level
// step must give exactly the host step's list (every field of every node, in order), best
// lower bound and witness; whole searches on the GPU, with switches to the CPU and back and
// with the memory cap cutting lists, must give the dynamic program's optimum, and without
// cuts the very node count and items of the CPU search.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "host_list_backend.hpp"
#include "knapsack/knapsack_test_support.hpp"
#include "knapsack_dp.hpp"
#include "knapsack_generator.hpp"
#include "knapsack_gpu.hpp"
#include "knapsack_level_search.hpp"

namespace permbb::knapsack {
namespace {

using testing::expect_optimal;

std::unique_ptr<LevelListBackend> device_list(const ItemTable& items,
                                              std::int64_t max_list_nodes = kMaxListSlots) {
  return gpu::make_device_list_backend(items, {0, max_list_nodes});
}

NodeList copy_of(LevelListBackend& backend) {
  NodeList nodes = backend.release();
  NodeList copy(nodes.words());
  for (std::int64_t j = 0; j < nodes.size(); ++j) copy.append(nodes.record(j));
  backend.assign(std::move(nodes));
  return copy;
}

void expect_same_records(const NodeRecord& a, const NodeRecord& b) {
  EXPECT_EQ(a.weight, b.weight);
  EXPECT_EQ(a.profit, b.profit);
  EXPECT_EQ(a.slack, b.slack);
  EXPECT_EQ(a.upper, b.upper);
  EXPECT_EQ(a.lower, b.lower);
  EXPECT_EQ(a.excluded, b.excluded);
}

void expect_same_lists(LevelListBackend& host, LevelListBackend& device) {
  NodeList h = copy_of(host);
  NodeList d = copy_of(device);
  ASSERT_EQ(h.size(), d.size());
  for (std::int64_t j = 0; j < h.size(); ++j) {
    SCOPED_TRACE(j);
    expect_same_records(h.record(j), d.record(j));
  }
}

KnapsackInstance generated(const std::string& name, int n, std::int64_t range, int seed) {
  return generate_instance(
      {parse_instance_class(name), n, range, static_cast<std::uint64_t>(seed)});
}

TEST(KnapsackGpu, DeviceLevelStepIsTheHostLevelStep) {
  std::int64_t levels = 0;
  for (const auto& name : instance_class_names()) {
    for (int seed = 1; seed <= 20; ++seed) {
      const auto instance = generated(name, 20 + seed, seed % 2 ? 100 : 1000, seed);
      SCOPED_TRACE(instance.name);
      const ItemTable items(instance);
      HostListBackend host(items);
      auto device = device_list(items);
      NodeList root = root_list(items);
      std::int64_t best = root.record(0).lower;
      root.retain_above(best);
      device->assign(NodeList(root));
      host.assign(std::move(root));
      for (int level = 0; host.size() > 0; ++level) {
        const LevelOutcome h = host.step(level, best);
        const LevelOutcome d = device->step(level, best);
        ASSERT_EQ(h.best_lower, d.best_lower) << "level " << level;
        ASSERT_EQ(h.witness.has_value(), d.witness.has_value());
        if (h.witness) expect_same_records(*h.witness, *d.witness);
        ASSERT_EQ(host.size(), device->size()) << "level " << level;
        expect_same_lists(host, *device);
        best = h.best_lower;
        ++levels;
      }
    }
  }
  EXPECT_GT(levels, 1000);
}

TEST(KnapsackGpu, GpuSearchIsTheCpuSearchOnEveryClass) {
  // Threshold 1: every level on the device; no cut: the same levels as the CPU search.
  int instances = 0;
  for (const auto& name : instance_class_names()) {
    for (int seed = 1; seed <= 200; ++seed) {
      const std::int64_t range = seed % 3 == 0 ? 10 : (seed % 3 == 1 ? 100 : 1000);
      const auto instance = generated(name, 1 + seed % 60, range, seed);
      SCOPED_TRACE(instance.name);
      const LevelSearchResult cpu = solve_on_cpu(instance);
      const ItemTable items(instance);
      HostListBackend host(items);
      auto device = device_list(items);
      LevelSearchOptions options;
      options.switch_threshold = 1;
      const LevelSearchResult gpu = run_level_search(items, host, device.get(), options);
      expect_optimal(instance, gpu.solution, solve_dp(instance).value);
      EXPECT_EQ(gpu.solution.items, cpu.solution.items);
      EXPECT_EQ(gpu.statistics.nodes_explored, cpu.statistics.nodes_explored);
      EXPECT_EQ(gpu.statistics.levels_small, 0u);
      ++instances;
    }
  }
  EXPECT_EQ(instances, 1000);
}

TEST(KnapsackGpu, LongListsGrowTheDeviceBuffers) {
  // Strongly correlated n = 100, R = 100, seeds 1 and 8, without dominance (which keeps lists
  // short): lists of several 100,000 nodes.
  LevelSearchOptions without_dominance;
  without_dominance.remove_dominated = false;
  for (const int seed : {1, 8}) {
    const auto instance = generated("strongly-correlated", 100, 100, seed);
    SCOPED_TRACE(instance.name);
    const LevelSearchResult cpu = solve_on_cpu(instance, without_dominance);
    const ItemTable items(instance);
    HostListBackend host(items);
    auto device = device_list(items);
    const LevelSearchResult gpu =
        run_level_search(items, host, device.get(), without_dominance);
    expect_optimal(instance, gpu.solution, solve_dp(instance).value);
    EXPECT_EQ(gpu.solution.items, cpu.solution.items);
    EXPECT_EQ(gpu.statistics.nodes_explored, cpu.statistics.nodes_explored);
    EXPECT_GT(gpu.statistics.largest_list, 100000);
    EXPECT_GT(gpu.statistics.levels_large, 0u);
    EXPECT_GT(gpu.statistics.levels_small, 0u);
  }
}

TEST(KnapsackGpu, SwitchesBetweenCpuAndGpuKeepTheSearch) {
  std::uint64_t switches = 0;
  for (const auto& name : instance_class_names()) {
    for (int seed = 1; seed <= 40; ++seed) {
      const auto instance = generated(name, 30 + seed % 25, 100, seed);
      SCOPED_TRACE(instance.name);
      const LevelSearchResult cpu = solve_on_cpu(instance);
      const ItemTable items(instance);
      HostListBackend host(items);
      auto device = device_list(items);
      LevelSearchOptions options;
      options.switch_threshold = 2 + seed % 30;
      const LevelSearchResult gpu = run_level_search(items, host, device.get(), options);
      expect_optimal(instance, gpu.solution, solve_dp(instance).value);
      EXPECT_EQ(gpu.solution.items, cpu.solution.items);
      EXPECT_EQ(gpu.statistics.nodes_explored, cpu.statistics.nodes_explored);
      switches += gpu.statistics.switches;
    }
  }
  EXPECT_GT(switches, 100u);
}

TEST(KnapsackGpu, MemoryCapCutsListsOnTheDevice) {
  std::uint64_t splits = 0;
  for (const auto& name : instance_class_names()) {
    for (int seed = 1; seed <= 30; ++seed) {
      const auto instance = generated(name, 20 + seed % 20, seed % 2 ? 100 : 1000, seed);
      SCOPED_TRACE(instance.name);
      const ItemTable items(instance);
      HostListBackend host(items);
      LevelSearchOptions options;
      options.switch_threshold = 1 + seed % 8;
      options.max_list_nodes = 4 + 13 * (seed % 9);
      options.max_set_aside_nodes = 50 * (seed % 5);
      auto device = device_list(items, options.max_list_nodes);
      const LevelSearchResult gpu = run_level_search(items, host, device.get(), options);
      expect_optimal(instance, gpu.solution, solve_dp(instance).value);
      EXPECT_LE(gpu.statistics.largest_list, options.max_list_nodes / 2);
      EXPECT_LE(gpu.statistics.largest_set_aside,
                options.max_set_aside_nodes + 2 * instance.items());
      splits += gpu.statistics.splits;
    }
  }
  EXPECT_GT(splits, 1000u);
}

TEST(KnapsackGpu, LargeValuesUse128BitProductsOnTheDevice) {
  std::mt19937_64 rng(77);
  for (const int bits : {40, 58}) {
    const std::int64_t base = std::int64_t{1} << bits;
    for (int trial = 0; trial < 30; ++trial) {
      const auto instance = testing::random_instance(rng, 1 + trial % 16, base, base + base / 2,
                                                     0.15 + (trial % 6) / 7.0);
      SCOPED_TRACE(::testing::Message() << bits << " bits, trial " << trial);
      const ItemTable items(instance);
      HostListBackend host(items);
      auto device = device_list(items);
      LevelSearchOptions options;
      options.switch_threshold = 1;
      const LevelSearchResult gpu = run_level_search(items, host, device.get(), options);
      expect_optimal(instance, gpu.solution, testing::brute_force_value(instance));
      EXPECT_EQ(gpu.statistics.nodes_explored, solve_on_cpu(instance).statistics.nodes_explored);
    }
  }
}

}  // namespace
}  // namespace permbb::knapsack
