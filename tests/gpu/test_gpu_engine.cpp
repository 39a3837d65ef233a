// The GPU engine against the sequential IvmExplorer: at a fixed upper bound that never
// improves, the decomposed-node count is a property of the tree (docs/architecture.md), so
// the GPU count must equal the CPU count however the IVMs cut, steal and pause; from no
// upper bound the optimum must be the CPU's (brute force on the smallest instances).
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <stdexcept>

#include "explorer_reference.hpp"
#include "factoradic_mpz.hpp"
#include "device_types.hpp"
#include "gpu_engine.hpp"
#include "taillard.hpp"
#include "lb1.hpp"
#include "test_support.hpp"

namespace permbb::gpu {
namespace {

using std::chrono::duration;

const BranchingRule kRules[] = {BranchingRule::kMinMin, BranchingRule::kMinMinForwardTies,
                                BranchingRule::kMaxSum, BranchingRule::kForward,
                                BranchingRule::kBackward};

std::vector<Interval> whole_space(int n) {
  return {Interval{0, factorial(n)}};
}

GpuOptions options(int ivms, int steps, int placement, double trigger = 0.8,
                   bool warp_select = true) {
  GpuOptions o;
  o.warp_select = warp_select;
  o.ivms = ivms;
  o.steps_per_launch = steps;
  o.placement = placement;
  o.steal_trigger = trigger;
  return o;
}

// Explores to the end; returns the engine's statistics.
EngineStats gpu_search(const Instance& inst, BranchingRule rule, Incumbent& incumbent,
                       const GpuOptions& o, const std::vector<Interval>& work,
                       BoundKind bound = BoundKind::kLb1) {
  GpuEngine engine(inst, {bound, rule}, incumbent, o);
  engine.set_work(work);
  EXPECT_TRUE(engine.explore(duration<double>(600)));
  EXPECT_TRUE(engine.remaining().empty());
  return engine.stats();
}

TEST(GpuEngine, NodeCountsEqualTheCpuAtTheOptimumForEveryRuleAndConfiguration) {
  std::mt19937 rng(21);
  for (int trial = 0; trial < 36; ++trial) {
    const int n = 5 + trial % 8;
    const Instance inst = testing::random_instance(rng, n, 2 + trial % 7);
    const BranchingRule rule = kRules[trial % 5];
    const Time optimum =
        n <= 8 ? testing::brute_force_optimum(inst)
               : testing::sequential_search(inst, {BoundKind::kLb1, rule}, kInfiniteTime).best;
    const auto cpu = testing::sequential_search(inst, {BoundKind::kLb1, rule}, optimum);
    const int ivms[] = {4, 37, 256, 2048};
    const int steps[] = {1, 3, 17, 256};
    GpuOptions o = options(ivms[trial % 4], steps[(trial / 4) % 4], 1 + trial % 3,
                           trial % 2 ? 0.8 : 1.0, (trial / 2) % 2 == 0);
    // 32, 16, 8 with every placement where teams are built (PERMBB_GPU_TEAMS), else 32.
    o.team_width = kTeamWidths[(trial / 3) % (PERMBB_GPU_TEAMS ? 3 : 1)];
    o.steal_rule = (trial / 6) % 2 == 0 ? StealRule::kMean : StealRule::kLargestNeighbour;
    o.persistent = trial % 4 >= 2;  // the persistent explorer, or rounds with either rule
    o.chunk_steps = steps[(trial / 4) % 4];
    Incumbent incumbent(optimum);
    const EngineStats s = gpu_search(inst, rule, incumbent, o, whole_space(n));
    ASSERT_EQ(s.nodes.decomposed, cpu.nodes.decomposed)
        << "trial " << trial << " n " << n << " K " << o.ivms << " steps " << o.steps_per_launch
        << " placement " << o.placement << " team " << o.team_width << " steal rule "
        << static_cast<int>(o.steal_rule) << " persistent " << o.persistent;
    EXPECT_EQ(s.nodes.leaves, cpu.nodes.leaves);
    EXPECT_EQ(incumbent.value(), optimum);
    EXPECT_EQ(s.explorers, o.ivms);
  }
}

// LB2 kernels: every LB2 bound kind, both mappings, LB2 in two phases (several screens), with
// shared terms and one lane per child, Johnson's tables in shared and in global memory, every
// placement, blocks of the default size, of 16, 3 and 1 warps (K not a multiple of them: a
// last block part empty); counts equal the sequential CPU explorer's.
TEST(GpuEngine, Lb2NodeCountsEqualTheCpuForEveryBoundMappingAndPlacement) {
  std::mt19937 rng(28);
  const BoundKind bounds[] = {BoundKind::kLb2, BoundKind::kLb2Adjacent, BoundKind::kLb1ThenLb2};
  for (int trial = 0; trial < 36; ++trial) {
    const int n = 5 + trial % 6;
    const Instance inst = testing::random_instance(rng, n, 2 + trial % 9);
    const BranchingRule rule = kRules[trial % 5];
    const BoundKind bound = bounds[trial % 3];
    const Time optimum = testing::brute_force_optimum(inst);
    const auto cpu = testing::sequential_search(inst, {bound, rule}, optimum);
    GpuOptions o = options(trial % 2 ? 64 : 512, 1 + trial % 40, 1 + (trial / 3) % 3);
    o.remap = (trial / 2) % 2 == 0;
    o.johnson_placement = 1 + (trial / 4) % 2;
    const int block_sizes[] = {0, kMaxWarpsPerBlock, 3, 1};
    o.warps_per_block = block_sizes[(trial / 8) % 4];
    const int screens[] = {kDefaultLb2Screen, kLb2ScreenOff, 0, 7};
    o.lb2_screen = screens[(trial / 3) % 4];
    const int shared[] = {-1, kLb2SharedOff, 1, 3};  // -1: the default
    o.lb2_shared = shared[(trial / 5) % 4];
    o.persistent = (trial / 7) % 2 == 0;
    Incumbent incumbent(optimum);
    const EngineStats s = gpu_search(inst, rule, incumbent, o, whole_space(n), bound);
    ASSERT_EQ(s.nodes.decomposed, cpu.nodes.decomposed)
        << "trial " << trial << " bound " << to_string(bound) << " rule " << to_string(rule);
    EXPECT_EQ(s.nodes.leaves, cpu.nodes.leaves);
    EXPECT_EQ(incumbent.value(), optimum);
  }
}

// The sequential explorer on one interval at a fixed upper bound.
NodeCounters cpu_interval_count(const Instance& inst, const SearchSettings& settings, Time ub,
                                const Interval& interval) {
  std::vector<int> begin(inst.jobs());
  std::vector<int> end(inst.jobs());
  from_mpz(interval.begin, inst.jobs(), begin.data());
  from_mpz(interval.end, inst.jobs(), end.data());
  return testing::sequential_search(inst, settings, ub, begin, end).nodes;
}

// ta021-ta030 (20 x 20) at their optima (shared/notes/taillard.md) with lb2 and lb1+lb2: on a
// slice of each search space (the whole trees take the CPU minutes; bench/gpu_lb2.py measures
// whole trees), the GPU decomposes exactly the nodes the CPU does. At the optimum most slices
// hold no node; the slice taken is the first of a fixed sequence where the CPU finds some.
TEST(GpuEngine, Lb2CountsEqualTheCpuOnSlicesOfTa021ToTa030) {
  constexpr int kSlices = 3000;
  for (int index = 21; index <= 30; ++index) {
    const Instance inst = taillard::generate(index);
    const Time optimum = taillard::best_known_makespan(index);
    const mpz_class slice = factorial(inst.jobs()) / kSlices;
    for (BoundKind bound : {BoundKind::kLb2, BoundKind::kLb1ThenLb2}) {
      const SearchSettings settings{bound, BranchingRule::kMinMin};
      Interval interval;
      NodeCounters cpu;
      for (int k = index; k < kSlices && cpu.decomposed == 0; k += 97) {
        interval = Interval{slice * k, slice * (k + 1)};
        cpu = cpu_interval_count(inst, settings, optimum, interval);
      }
      ASSERT_GT(cpu.decomposed, 0u) << "ta0" << index;
      Incumbent incumbent(optimum);
      const EngineStats s =
          gpu_search(inst, BranchingRule::kMinMin, incumbent, {}, {interval}, bound);
      EXPECT_EQ(s.nodes.decomposed, cpu.decomposed) << "ta0" << index << " " << to_string(bound);
      EXPECT_EQ(s.nodes.leaves, cpu.leaves);
    }
  }
}

TEST(GpuEngine, FindsTheOptimumFromNoUpperBound) {
  std::mt19937 rng(22);
  for (int trial = 0; trial < 30; ++trial) {
    const int n = 2 + trial % 9;
    const Instance inst = testing::random_instance(rng, n, 1 + trial % 6);
    const BranchingRule rule = kRules[trial % 5];
    const Time optimum = testing::brute_force_optimum(inst);
    Incumbent incumbent;
    gpu_search(inst, rule, incumbent, options(trial % 2 ? 64 : 1024, 7, 1 + trial % 3),
               whole_space(n));
    ASSERT_EQ(incumbent.value(), optimum) << "trial " << trial;
    ASSERT_TRUE(incumbent.has_schedule());
    EXPECT_EQ(testing::naive_makespan(inst, incumbent.permutation()), optimum);
  }
}

// Paused at small budgets and restarted from remaining() in a fresh engine each time, or the
// same engine continued: the counts add up to the CPU's.
TEST(GpuEngine, StopAndResumeCountsEveryNodeOnce) {
  std::mt19937 rng(23);
  for (int trial = 0; trial < 6; ++trial) {
    const int n = 9 + trial % 2;
    const Instance inst = testing::random_instance(rng, n, 8);
    const BranchingRule rule = kRules[trial % 3];
    const SearchSettings settings{BoundKind::kLb1, rule};
    const Time optimum =
        testing::sequential_search(inst, {BoundKind::kLb1, rule}, kInfiniteTime).best;
    const auto cpu = testing::sequential_search(inst, {BoundKind::kLb1, rule}, optimum);
    GpuOptions o = options(4, 1, 1 + trial % 3);
    o.persistent = trial % 4 < 2;  // both ways of pausing: launches end at their deadline
    o.chunk_steps = 1;             // a team looks at its deadline after every step
    Incumbent incumbent(optimum);
    std::uint64_t total = 0;
    int pauses = 0;
    if (trial % 2 == 0) {
      std::vector<Interval> work = whole_space(n);
      while (!work.empty()) {
        GpuEngine engine(inst, settings, incumbent, o);
        engine.set_work(work);
        const bool done = engine.explore(duration<double>(0));
        work = engine.remaining();
        total += engine.stats().nodes.decomposed;
        if (done) {
          ASSERT_TRUE(work.empty());
        }
        ASSERT_LT(++pauses, 100000);
      }
    } else {
      GpuEngine engine(inst, settings, incumbent, o);
      engine.set_work(whole_space(n));
      while (!engine.explore(duration<double>(0))) {
        const auto work = engine.remaining();
        ASSERT_FALSE(work.empty());
        if (pauses % 3 == 2) engine.set_work(work);  // replacing the work by itself
        ASSERT_LT(++pauses, 100000);
      }
      total = engine.stats().nodes.decomposed;
    }
    EXPECT_EQ(total, cpu.nodes.decomposed) << "trial " << trial << " pauses " << pauses;
    EXPECT_GT(pauses, 1);
  }
}

// The persistent explorer's teams share work on the device (warp_persistent.cuh): on trees
// large enough for hungry teams to wait, halves are queued and taken, and every node is still
// counted once, for every chunk length.
TEST(GpuEngine, PersistentTeamsShareWorkAndCountOnce) {
  std::mt19937 rng(29);
  for (int trial = 0; trial < 6; ++trial) {
    const int n = 11 + trial % 3;
    const Instance inst = testing::random_instance(rng, n, 10);
    const BranchingRule rule = kRules[trial % 5];
    const Time optimum =
        testing::sequential_search(inst, {BoundKind::kLb1, rule}, kInfiniteTime).best;
    const auto cpu = testing::sequential_search(inst, {BoundKind::kLb1, rule}, optimum);
    GpuOptions o = options(trial % 2 ? 64 : 1024, 0, 0);
    o.chunk_steps = 1 + 7 * trial;
    Incumbent incumbent(optimum);
    const EngineStats s = gpu_search(inst, rule, incumbent, o, whole_space(n));
    ASSERT_EQ(s.nodes.decomposed, cpu.nodes.decomposed) << "trial " << trial;
    EXPECT_EQ(s.nodes.leaves, cpu.nodes.leaves);
    EXPECT_GT(s.steals, 0u) << "trial " << trial << ": no half was queued";
  }
}

TEST(GpuEngine, ManyIntervalsQueueOnTheHostAndCountOnce) {
  std::mt19937 rng(24);
  const int n = 9;
  const Instance inst = testing::random_instance(rng, n, 4);
  const Time optimum = testing::brute_force_optimum(inst);
  const auto cpu =
      testing::sequential_search(inst, {BoundKind::kLb1, BranchingRule::kMinMin}, optimum);
  std::vector<Interval> work;
  const std::uint64_t space = testing::factorial(n);
  for (std::uint64_t a = 0; a < space; a += 997) {
    work.push_back({mpz_class(static_cast<unsigned long>(a)),
                    mpz_class(static_cast<unsigned long>(std::min(a + 997, space)))});
  }
  Incumbent incumbent(optimum);
  const EngineStats s =
      gpu_search(inst, BranchingRule::kMinMin, incumbent, options(16, 5, 1), work);
  EXPECT_EQ(s.nodes.decomposed, cpu.nodes.decomposed);
}

// Beyond 127 jobs the matrix holds int16_t cells. LB1 is tight on these random instances:
// from the root bound + 20 the search is short, and both engines must reach the same optimum;
// at the optimum both must count the same (tiny) tree.
TEST(GpuEngine, LargeInstancesUseWideCellsAndFindTheCpuOptimum) {
  std::mt19937 rng(25);
  for (int n : {60, 140}) {
    const int m = 6;
    const Instance inst = testing::random_instance(rng, n, m);
    const FlowshopTables tables(inst);
    std::vector<Time> f(3 * m);
    const FlowshopView v = tables.view();
    lb1_root(v, f.data(), f.data() + m, f.data() + 2 * m);
    const Time start = lb1_bound(v, f.data(), f.data() + m, f.data() + 2 * m) + 20;
    const auto cpu =
        testing::sequential_search(inst, {BoundKind::kLb1, BranchingRule::kMinMin}, start);
    const auto at_optimum =
        testing::sequential_search(inst, {BoundKind::kLb1, BranchingRule::kMinMin}, cpu.best);
    for (int placement : {0, 3}) {
      Incumbent incumbent(start);
      gpu_search(inst, BranchingRule::kMinMin, incumbent, options(512, 64, placement),
                 whole_space(n));
      EXPECT_EQ(incumbent.value(), cpu.best) << "n " << n << " placement " << placement;
      Incumbent fixed(cpu.best);
      const EngineStats s = gpu_search(inst, BranchingRule::kMinMin, fixed,
                                       options(512, 64, placement), whole_space(n));
      EXPECT_EQ(s.nodes.decomposed, at_optimum.nodes.decomposed) << "n " << n;
    }
  }
}

TEST(GpuEngine, ABoundLoweredOnTheHostReachesTheDevice) {
  std::mt19937 rng(26);
  const Instance inst = testing::random_instance(rng, 11, 6);
  const auto best =
      testing::sequential_search(inst, {BoundKind::kLb1, BranchingRule::kMinMin}, kInfiniteTime);
  Incumbent incumbent;
  GpuEngine engine(inst, {BoundKind::kLb1, BranchingRule::kMinMin}, incumbent, options(64, 4, 1));
  engine.set_work(whole_space(11));
  engine.explore(duration<double>(0.0001));
  incumbent.lower_to(best.best);  // proves the optimum from here: nothing better exists
  while (!engine.explore(duration<double>(1))) {
  }
  EXPECT_EQ(incumbent.value(), best.best);
}

TEST(GpuEngine, RefusesLb2BeyondItsMachineLimitUnknownDevicesBadBlocksAndBadTeams) {
  std::mt19937 rng(27);
  const Instance inst = testing::random_instance(rng, 6, 3);
  Incumbent incumbent;
  const Instance wide = testing::random_instance(rng, 6, kMaxGpuLb2Machines + 1);
  EXPECT_THROW(GpuEngine(wide, {BoundKind::kLb2, BranchingRule::kMinMin}, incumbent, {}),
               std::invalid_argument);
  GpuOptions bad;
  bad.device = 99;
  EXPECT_THROW(GpuEngine(inst, {BoundKind::kLb1, BranchingRule::kMinMin}, incumbent, bad),
               std::invalid_argument);
  for (int warps : {-1, kMaxWarpsPerBlock + 1}) {
    GpuOptions blocks;
    blocks.warps_per_block = warps;
    EXPECT_THROW(GpuEngine(inst, {BoundKind::kLb2, BranchingRule::kMinMin}, incumbent, blocks),
                 std::invalid_argument);
  }
  for (int width : {-8, 4, 12, 64}) {
    GpuOptions teams;
    teams.team_width = width;
    EXPECT_THROW(GpuEngine(inst, {BoundKind::kLb1, BranchingRule::kMinMin}, incumbent, teams),
                 std::invalid_argument);
  }
  GpuOptions packed_lb2;
  packed_lb2.team_width = 16;  // the LB2 kernels run whole warps
  EXPECT_THROW(GpuEngine(inst, {BoundKind::kLb2, BranchingRule::kMinMin}, incumbent, packed_lb2),
               std::invalid_argument);
}

// One job, refused until the warp code explored it like IvmExplorer: one leaf, no node.
TEST(GpuEngine, OneJobIsTheRootsOnlyLeaf) {
  const Instance one("one", 1, 3, {4, 0, 7});
  for (BoundKind bound : {BoundKind::kLb1, BoundKind::kLb2, BoundKind::kLb1ThenLb2}) {
    Incumbent incumbent;
    const EngineStats stats =
        gpu_search(one, BranchingRule::kMinMin, incumbent, options(8, 2, 1), whole_space(1),
                   bound);
    EXPECT_EQ(incumbent.value(), 11);
    EXPECT_EQ(incumbent.permutation(), std::vector<int>{0});
    EXPECT_EQ(stats.nodes.decomposed, 0u);
    EXPECT_EQ(stats.nodes.leaves, 1u);
  }
}

TEST(GpuEngine, AnImpossibleNumberOfIvmsIsExplained) {
  std::mt19937 rng(28);
  const Instance inst = testing::random_instance(rng, 100, 20);
  Incumbent incumbent;
  GpuOptions huge;
  huge.ivms = 2000000000;
  try {
    GpuEngine engine(inst, {BoundKind::kLb1, BranchingRule::kMinMin}, incumbent, huge);
    FAIL() << "expected an out-of-memory error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("--ivms"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace permbb::gpu
