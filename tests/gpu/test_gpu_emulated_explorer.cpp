// CPU-side test of the device explorer: the very warp code of the exploration kernel
// (gpu/warp/warp_explorer.cuh) and the stealing functions, run on the host with emulated warps
// (tests/gpu/warp_emulation.hpp), rounds driven like GpuEngine's host loop. Node counts at the
// optimum must equal the sequential IvmExplorer's for every rule, placement, K and step
// count; from no bound the optimum must be found; pausing at clean points and restarting from
// the remaining intervals must count every node once. The persistent explorer's teams (work
// shared on the device) likewise. The GPU tests repeat this on a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "emulated_gpu_engine.hpp"
#include "explorer_reference.hpp"
#include "factoradic_mpz.hpp"
#include "ivm_explorer.hpp"
#include "lb1.hpp"
#include "flowshop_tables.hpp"
#include "test_support.hpp"

namespace permbb::gpu {
namespace {

const BranchingRule kRules[] = {BranchingRule::kMinMin, BranchingRule::kMinMinForwardTies,
                                BranchingRule::kMaxSum, BranchingRule::kForward,
                                BranchingRule::kBackward};
const Placement kPlacements[] = {Placement::kShared, Placement::kStackGlobal, Placement::kGlobal};

template <class Cell>
void expect_counts_equal(int seed, int trials, int min_n, int max_n) {
  std::mt19937 rng(seed);
  std::uint64_t steals = 0;
  std::uint64_t nodes = 0;
  for (int trial = 0; trial < trials; ++trial) {
    const int n = min_n + trial % (max_n - min_n + 1);
    const Instance inst = testing::random_instance(rng, n, 1 + static_cast<int>(rng() % 40));
    const BranchingRule rule = kRules[trial % 5];
    const Time optimum = testing::brute_force_optimum(inst);
    const auto cpu = testing::sequential_search(inst, {BoundKind::kLb1, rule}, optimum);
    const int ivms[] = {1, 5, 16, 64};
    EmulatedGpuConfig config{ivms[trial % 4], 1 + static_cast<int>(rng() % 9),
                             kPlacements[trial % 3], trial % 2 ? 0.8 : 1.0,
                             (trial / 2) % 2 ? kSelectLane0 : kSelectWarp};
    config.team_width = kTeamWidths[(trial / 3) % 3];  // every width with every placement
    EmulatedEngine<Cell> gpu(inst, rule, optimum, config);
    gpu.set_work({Interval{0, permbb::factorial(n)}});
    int rounds = 0;
    while (gpu.round()) ASSERT_LT(++rounds, 1000000);
    ASSERT_EQ(gpu.decomposed(), cpu.nodes.decomposed)
        << "trial " << trial << " n " << n << " K " << config.ivms << " steps " << config.steps
        << " team " << config.team_width;
    EXPECT_EQ(gpu.leaves(), cpu.nodes.leaves);
    EXPECT_EQ(gpu.best(), optimum);
    steals += gpu.steals();
    nodes += gpu.decomposed();
  }
  EXPECT_GT(steals, 0u) << "stealing was never exercised";
  std::printf("%llu nodes, %llu steals\n", static_cast<unsigned long long>(nodes),
              static_cast<unsigned long long>(steals));
}

TEST(GpuEmulatedExplorer, NodeCountsEqualTheCpuAtTheOptimum) {
  expect_counts_equal<std::int8_t>(41, 60, 2, 8);
}

TEST(GpuEmulatedExplorer, WideCellsCountTheSame) {
  expect_counts_equal<std::int16_t>(42, 15, 3, 7);
}

// Teams narrower than the rows (warp packing: rows of more than 8 or 16 jobs take several
// passes, scans over more machines than lanes take several chunks): counts equal the CPU's,
// and from no bound the optimum is found.
TEST(GpuEmulatedExplorer, TeamsNarrowerThanTheRowsCountTheSame) {
  std::mt19937 rng(46);
  std::uint64_t nodes = 0;
  for (int trial = 0; trial < 8; ++trial) {
    const int width = trial % 2 ? 8 : 16;
    const int n = width == 8 ? 9 + trial % 4 : 17 + trial % 3;
    const Instance inst = testing::random_instance(rng, n, 3 + static_cast<int>(rng() % 38));
    const BranchingRule rule = kRules[trial % 5];
    const SearchSettings settings{BoundKind::kLb1, rule};
    // A bound above the root's LB1 that is never improved (proving "no schedule below it"),
    // raised until the tree has a thousand nodes or so: small enough for emulated lanes.
    const FlowshopTables tables(inst);
    const int m = inst.machines();
    std::vector<Time> root(3 * m);
    lb1_root(tables.view(), root.data(), root.data() + m, root.data() + 2 * m);
    const Time root_bound =
        lb1_bound(tables.view(), root.data(), root.data() + m, root.data() + 2 * m);
    Time ub = root_bound;
    auto cpu = testing::sequential_search(inst, settings, ub);
    for (Time raised = root_bound + 1; cpu.nodes.decomposed < 1000; ++raised) {
      const auto higher = testing::sequential_search(inst, settings, raised);
      if (higher.best < raised || higher.nodes.decomposed > 20000) break;
      ub = raised;
      cpu = higher;
    }
    EmulatedGpuConfig config{1 + trial % 6, 1 + static_cast<int>(rng() % 40),
                             kPlacements[trial % 3], 0.8, kSelectWarp};
    config.team_width = width;
    EmulatedEngine<std::int8_t> gpu(inst, rule, ub, config);
    gpu.set_work({Interval{0, permbb::factorial(n)}});
    int rounds = 0;
    while (gpu.round()) ASSERT_LT(++rounds, 1000000);
    ASSERT_EQ(gpu.decomposed(), cpu.nodes.decomposed) << "trial " << trial << " team " << width;
    EXPECT_EQ(gpu.leaves(), cpu.nodes.leaves);
    nodes += gpu.decomposed();
    std::printf("team %d, n %d: %llu nodes\n", width, n,
                static_cast<unsigned long long>(gpu.decomposed()));
  }
  EXPECT_GT(nodes, 8000u);
}

// The LB2 kernels (lb2, lb2-adjacent, lb1+lb2), both mappings, with and without the shared
// pair terms: counts equal the CPU's.
TEST(GpuEmulatedExplorer, Lb2CountsEqualTheCpuForEveryBoundAndMapping) {
  std::mt19937 rng(45);
  const BoundKind bounds[] = {BoundKind::kLb2, BoundKind::kLb2Adjacent, BoundKind::kLb1ThenLb2};
  for (int trial = 0; trial < 48; ++trial) {
    const int n = 3 + trial % 6;
    const Instance inst = testing::random_instance(rng, n, 2 + static_cast<int>(rng() % 12));
    const BranchingRule rule = kRules[trial % 5];
    const BoundKind bound = bounds[trial % 3];
    const Time optimum = testing::brute_force_optimum(inst);
    const auto cpu = testing::sequential_search(inst, {bound, rule}, optimum);
    EmulatedGpuConfig config{1 + static_cast<int>(rng() % 12), 1 + static_cast<int>(rng() % 9),
                             kPlacements[(trial / 3) % 3], 0.8, kSelectWarp,
                             (trial / 9) % 2 ? GpuMapping::kStatic : GpuMapping::kRemap};
    // The shared pair terms from 1 to 4 open children on, or never (2 trials in 3 share).
    config.lb2_shared = (trial / 2) % 3 == 0 ? kLb2SharedOff : 1 + trial % 4;
    config.persistent = (trial / 6) % 2 == 1;  // the persistent explorer's LB2 kernels
    EmulatedEngine<std::int8_t> gpu(inst, rule, optimum, config, bound);
    gpu.set_work({Interval{0, permbb::factorial(n)}});
    int rounds = 0;
    while (gpu.round()) ASSERT_LT(++rounds, 1000000);
    ASSERT_EQ(gpu.decomposed(), cpu.nodes.decomposed)
        << "trial " << trial << " bound " << to_string(bound) << " rule " << to_string(rule);
    EXPECT_EQ(gpu.leaves(), cpu.nodes.leaves);
    EXPECT_EQ(gpu.best(), optimum);
  }
}

TEST(GpuEmulatedExplorer, FindsTheOptimumFromNoBound) {
  std::mt19937 rng(43);
  for (int trial = 0; trial < 40; ++trial) {
    const int n = 2 + trial % 7;
    const Instance inst = testing::random_instance(rng, n, 1 + trial % 35);
    const Time optimum = testing::brute_force_optimum(inst);
    EmulatedGpuConfig config{1 + trial % 9, 2 + trial % 5, kPlacements[trial % 3], 0.8,
                             trial % 4 < 2 ? kSelectWarp : kSelectLane0};
    config.persistent = trial % 2 == 1;  // its teams share the device incumbent too
    EmulatedEngine<std::int8_t> gpu(inst, kRules[trial % 5], kInfiniteTime, config);
    gpu.set_work({Interval{0, permbb::factorial(n)}});
    while (gpu.round()) {
    }
    ASSERT_EQ(gpu.best(), optimum) << "trial " << trial;
    EXPECT_EQ(testing::naive_makespan(inst, gpu.best_schedule()), optimum);
  }
}

// Regression: one job was refused (GpuEngine) and the warp code generated a row past the
// matrix for it. The root is the leaf parent, as in IvmExplorer: one leaf, no node counted.
TEST(GpuEmulatedExplorer, OneJobIsTheRootsOnlyLeaf) {
  const Instance inst("one", 1, 3, {4, 0, 7});
  const BoundKind bounds[] = {BoundKind::kLb1, BoundKind::kLb2, BoundKind::kLb1ThenLb2};
  for (int trial = 0; trial < 30; ++trial) {
    const Time ub = trial % 3 == 0 ? 11 : kInfiniteTime;  // 11: the makespan, pruned at the root
    EmulatedGpuConfig config{1 + trial % 4, 1 + trial % 3, kPlacements[trial % 3], 0.8,
                             trial % 2 ? kSelectWarp : kSelectLane0};
    config.persistent = (trial / 2) % 2 == 1;
    EmulatedEngine<std::int8_t> gpu(inst, kRules[trial % 5], ub, config, bounds[trial % 3]);
    gpu.set_work({Interval{0, 1}});
    int rounds = 0;
    while (gpu.round()) ASSERT_LT(++rounds, 100);
    EXPECT_EQ(gpu.decomposed(), 0u) << "trial " << trial;
    EXPECT_EQ(gpu.leaves(), ub == 11 ? 0u : 1u) << "trial " << trial;
    EXPECT_EQ(gpu.best(), 11) << "trial " << trial;
    EXPECT_EQ(gpu.best_schedule(), ub == 11 ? std::vector<int>{} : std::vector<int>{0});
  }
}

TEST(GpuEmulatedExplorer, SettledRemainingIntervalsRestartWithoutDoubleCounting) {
  std::mt19937 rng(44);
  for (int trial = 0; trial < 12; ++trial) {
    const int n = 6 + trial % 3;
    const Instance inst = testing::random_instance(rng, n, 3 + trial % 5);
    const BranchingRule rule = kRules[trial % 5];
    const Time optimum = testing::brute_force_optimum(inst);
    const auto cpu = testing::sequential_search(inst, {BoundKind::kLb1, rule}, optimum);
    EmulatedGpuConfig config{4 + trial % 13, 1 + trial % 3, kPlacements[trial % 3], 0.8,
                             trial % 4 < 2 ? kSelectWarp : kSelectLane0};
    config.team_width = kTeamWidths[(trial / 3) % 3];
    config.persistent = trial % 2 == 1;  // launches end midway, then a settle
    config.chunks = 1 + trial % 5;
    std::vector<Interval> work{Interval{0, permbb::factorial(n)}};
    std::uint64_t total = 0;
    int restarts = 0;
    while (!work.empty()) {
      EmulatedEngine<std::int8_t> gpu(inst, rule, optimum, config);
      gpu.set_work(work);
      const int rounds = 1 + static_cast<int>(rng() % 3);
      bool busy = true;
      for (int r = 0; r < rounds && busy; ++r) busy = gpu.round();
      if (busy) gpu.settle();
      work = gpu.remaining();
      total += gpu.decomposed();
      ASSERT_LT(++restarts, 100000);
    }
    EXPECT_EQ(total, cpu.nodes.decomposed) << "trial " << trial << " restarts " << restarts;
  }
}

// The persistent explorer (warp_persistent.cuh): teams side by side, work shared through the
// device queue, launches ended after a few chunks. Every node is counted once, whatever the
// teams, chunks, widths and placements; halves were queued and taken.
TEST(GpuEmulatedExplorer, PersistentTeamsCountTheSameAsTheCpu) {
  std::mt19937 rng(61);
  std::uint64_t shares = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const int n = 5 + trial % 4;
    const Instance inst = testing::random_instance(rng, n, 1 + static_cast<int>(rng() % 30));
    const BranchingRule rule = kRules[trial % 5];
    const Time optimum = testing::brute_force_optimum(inst);
    const auto cpu = testing::sequential_search(inst, {BoundKind::kLb1, rule}, optimum);
    const int ivms[] = {1, 3, 8, 16};
    EmulatedGpuConfig config{ivms[trial % 4], 1, kPlacements[trial % 3], 0.8,
                             (trial / 2) % 2 ? kSelectLane0 : kSelectWarp};
    config.team_width = kTeamWidths[(trial / 3) % 3];
    config.persistent = true;
    config.chunk_steps = 1 + static_cast<int>(rng() % 4);
    config.chunks = 1 + static_cast<int>(rng() % 30);
    config.max_shares = 1 + trial % 4;
    EmulatedEngine<std::int8_t> gpu(inst, rule, optimum, config);
    gpu.set_work({Interval{0, permbb::factorial(n)}});
    int launches = 0;
    while (gpu.round()) ASSERT_LT(++launches, 1000000);
    ASSERT_EQ(gpu.decomposed(), cpu.nodes.decomposed)
        << "trial " << trial << " n " << n << " K " << config.ivms << " chunk "
        << config.chunk_steps << " chunks " << config.chunks << " team " << config.team_width;
    EXPECT_EQ(gpu.leaves(), cpu.nodes.leaves);
    EXPECT_EQ(gpu.best(), optimum);
    shares += gpu.steals();
  }
  EXPECT_GT(shares, 0u) << "no half was ever queued";
}

}  // namespace
}  // namespace permbb::gpu
