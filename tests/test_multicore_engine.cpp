// The multi-core engine: exact for every thread count, and at a fixed upper bound its node
// count equals the sequential explorer's however the steals fall; stop/resume keeps it.
#include <gtest/gtest.h>

#include <random>

#include "explorer_reference.hpp"
#include "factoradic_mpz.hpp"
#include "multicore_engine.hpp"
#include "taillard.hpp"
#include "test_support.hpp"

namespace permbb {
namespace {

std::vector<Interval> whole_space(int n) {
  return {Interval{0, factorial(n)}};
}

// Runs the engine to the end, in slices of `slice` seconds.
EngineStats run_to_end(MulticoreEngine& engine, double slice = 10.0) {
  while (!engine.explore(std::chrono::duration<double>(slice))) {
  }
  return engine.stats();
}

TEST(MulticoreEngine, FindsTheBruteForceOptimumForEveryThreadCount) {
  std::mt19937 rng(41);
  for (int trial = 0; trial < testing::scaled_trials(40); ++trial) {
    const int n = 4 + trial % 6;
    const Instance inst = testing::random_instance(rng, n, 2 + trial % 4);
    const Time optimum = testing::brute_force_optimum(inst);
    for (int threads = 1; threads <= 8; ++threads) {
      Incumbent incumbent;
      MulticoreOptions options;
      options.threads = threads;
      options.policy = static_cast<StealPolicy>(threads % 3);
      MulticoreEngine engine(inst, {BoundKind::kLb1, BranchingRule::kMinMin}, incumbent, options);
      engine.set_work(whole_space(n));
      run_to_end(engine);
      ASSERT_EQ(incumbent.value(), optimum) << "trial " << trial << " threads " << threads;
      EXPECT_EQ(testing::naive_makespan(inst, incumbent.permutation()), optimum);
      EXPECT_TRUE(engine.remaining().empty());
    }
  }
}

// Regression: one job was refused by the explorers (n >= 2), so a cluster worker's engine
// failed under mpirun. Its one leaf is found by any number of threads, paused or not.
TEST(MulticoreEngine, OneJobIsSolvedByAnyThreadCount) {
  const Instance inst("one", 1, 2, {5, 6});
  for (int threads = 1; threads <= 3; ++threads) {
    Incumbent incumbent;
    MulticoreOptions options;
    options.threads = threads;
    MulticoreEngine engine(inst, {BoundKind::kLb2, BranchingRule::kMinMin}, incumbent, options);
    engine.set_work(whole_space(1));
    const EngineStats stats = run_to_end(engine, threads == 2 ? 1e-4 : 10.0);
    EXPECT_EQ(incumbent.value(), 11);
    EXPECT_EQ(incumbent.permutation(), std::vector<int>{0});
    EXPECT_EQ(stats.nodes.decomposed, 0u);
    EXPECT_EQ(stats.nodes.leaves, 1u);
    EXPECT_TRUE(engine.remaining().empty());
  }
}

TEST(MulticoreEngine, NodeCountEqualsTheSequentialCountAtAFixedUpperBound) {
  std::mt19937 rng(42);
  for (int trial = 0; trial < testing::scaled_trials(30); ++trial) {
    const int n = 7 + trial % 4;
    const Instance inst = testing::random_instance(rng, n, 3 + trial % 5);
    const Time optimum = testing::brute_force_optimum(inst);
    const SearchSettings settings{trial % 3 == 0 ? BoundKind::kLb2 : BoundKind::kLb1,
                                  static_cast<BranchingRule>(trial % 5)};
    const NodeCounters expected = testing::sequential_search(inst, settings, optimum).nodes;
    for (int threads : {2, 3, 5, 8}) {
      Incumbent incumbent(optimum);
      MulticoreOptions options;
      options.threads = threads;
      options.policy = static_cast<StealPolicy>(trial % 3);
      MulticoreEngine engine(inst, settings, incumbent, options);
      engine.set_work(whole_space(n));
      const EngineStats stats = run_to_end(engine);
      ASSERT_EQ(stats.nodes.decomposed, expected.decomposed)
          << "trial " << trial << " T " << threads;
      ASSERT_EQ(stats.nodes.leaves, expected.leaves);
      EXPECT_EQ(incumbent.value(), optimum);
    }
  }
}

TEST(MulticoreEngine, TaillardCountsMatchTheSequentialExplorerAndStealsHappen) {
  // ta011 (20 x 10) at its optimum 1582 (shared/notes/taillard.md): the bound never improves.
  const Instance inst = taillard::generate(11);
  const SearchSettings settings{BoundKind::kLb1, BranchingRule::kMinMin};
  const NodeCounters expected = testing::sequential_search(inst, settings, 1582).nodes;
  for (StealPolicy policy : {StealPolicy::kRing, StealPolicy::kRandom, StealPolicy::kLargest}) {
    // Whether steals happen depends on the OS: on a loaded 2-core machine the thread that
    // took the whole space may finish it before the others run at all. The count must be
    // exact on every attempt; a few attempts must see stealing.
    std::uint64_t steals = 0;
    for (int attempt = 0; attempt < 8 && steals == 0; ++attempt) {
      Incumbent incumbent(1582);
      MulticoreOptions options;
      options.threads = 4;
      options.policy = policy;
      MulticoreEngine engine(inst, settings, incumbent, options);
      engine.set_work(whole_space(20));
      const EngineStats stats = run_to_end(engine);
      ASSERT_EQ(stats.nodes.decomposed, expected.decomposed) << to_string(policy);
      steals = stats.steals;
    }
    EXPECT_GT(steals, 0u) << to_string(policy);
  }
}

TEST(MulticoreEngine, StopAndResumeInAnotherEngineCountsEveryNodeOnce) {
  const Instance inst = taillard::generate(13);  // optimum 1496
  const SearchSettings settings{BoundKind::kLb1, BranchingRule::kMinMin};
  const NodeCounters expected = testing::sequential_search(inst, settings, 1496).nodes;
  std::vector<Interval> work = whole_space(20);
  std::uint64_t total = 0;
  int slices = 0;
  // Each slice runs a fresh engine (another thread count each time) on what the last left.
  while (!work.empty()) {
    Incumbent incumbent(1496);
    MulticoreOptions options;
    options.threads = 1 + slices % 4;
    MulticoreEngine engine(inst, settings, incumbent, options);
    engine.set_work(work);
    engine.explore(std::chrono::duration<double>(0.002));
    work = engine.remaining();
    total += engine.stats().nodes.decomposed;
    ++slices;
  }
  EXPECT_GT(slices, 2);
  EXPECT_EQ(total, expected.decomposed);
}

// New work replaces the old entirely, even when the engine pauses before its threads took
// the new work (a regression: a stale interval came back beside the new one).
TEST(MulticoreEngine, NewWorkReplacesTheOldEvenWhenPausedAtOnce) {
  const Instance inst = taillard::generate(17);
  Incumbent incumbent(1484);
  MulticoreOptions options;
  options.threads = 2;
  MulticoreEngine engine(inst, {BoundKind::kLb1, BranchingRule::kMinMin}, incumbent, options);
  const mpz_class space = factorial(20);
  engine.set_work(whole_space(20));
  engine.explore(std::chrono::duration<double>(0.01));
  for (int round = 0; round < 300; ++round) {
    // A sub-interval of the space, shifted each round.
    const Interval fresh{space * (round % 7) / 8, space * (round % 7 + 1) / 8};
    engine.set_work({fresh});
    engine.explore(std::chrono::duration<double>(0));
    const std::vector<Interval> left = engine.remaining();
    for (size_t i = 0; i < left.size(); ++i) {
      ASSERT_GE(left[i].begin, fresh.begin) << "round " << round;
      ASSERT_LE(left[i].end, fresh.end) << "round " << round;
      if (i > 0) {
        ASSERT_GE(left[i].begin, left[i - 1].end) << "round " << round;
      }
    }
  }
}

TEST(MulticoreEngine, ABetterIncumbentFromOutsideIsPrunedAgainst) {
  // Lowering the incumbent to the optimum while the engine runs from NEH's bound gives at
  // most the nodes of the search at the optimum plus what ran before (no more than from
  // scratch at the higher bound).
  const Instance inst = taillard::generate(13);
  Incumbent incumbent(1600);
  MulticoreOptions options;
  options.threads = 2;
  MulticoreEngine engine(inst, {BoundKind::kLb1, BranchingRule::kMinMin}, incumbent, options);
  engine.set_work(whole_space(20));
  engine.explore(std::chrono::duration<double>(0.001));
  incumbent.lower_to(1496);
  run_to_end(engine);
  EXPECT_EQ(incumbent.value(), 1496);
  EXPECT_FALSE(incumbent.has_schedule());  // nothing below the optimum exists
}

}  // namespace
}  // namespace permbb

namespace permbb {
namespace {

bool is_permutation_of(const std::vector<int>& s, int n) {
  std::vector<int> seen(n, 0);
  for (int j : s) {
    if (j < 0 || j >= n || seen[j]++) return false;
  }
  return static_cast<int>(s.size()) == n;
}

// Hybridization (2022 §4.2.3): between slices the paused engine promotes its IVMs'
// subproblems to complete schedules, and doing so changes nothing in the search.
TEST(MulticoreEngine, SampleSubproblemsGivesNodesAndLeavesTheSearchExact) {
  std::mt19937 rng(43);
  for (int trial = 0; trial < 6; ++trial) {
    const int n = 8 + trial % 2;
    const Instance inst = testing::random_instance(rng, n, 3 + trial % 3);
    const Time optimum = testing::brute_force_optimum(inst);
    Incumbent incumbent;
    MulticoreOptions options;
    options.threads = 3;
    MulticoreEngine engine(inst, {BoundKind::kLb1, BranchingRule::kMinMin}, incumbent, options);
    EXPECT_TRUE(engine.sample_subproblems(4).empty());  // no work yet
    engine.set_work(whole_space(n));
    while (!engine.explore(std::chrono::duration<double>(0.0005))) {
      const auto samples = engine.sample_subproblems(2);
      EXPECT_LE(samples.size(), 2u);
      EXPECT_TRUE(engine.sample_subproblems(0).empty());
      for (const auto& s : samples) {
        EXPECT_TRUE(is_permutation_of(s.schedule, n));
        EXPECT_GE(s.prefix + s.suffix, 1);  // a node below the root
        EXPECT_LE(s.prefix + s.suffix, n);
      }
    }
    EXPECT_EQ(incumbent.value(), optimum) << "trial " << trial;
    EXPECT_TRUE(engine.sample_subproblems(4).empty());  // exhausted
  }
}

TEST(MulticoreEngine, SampleSubproblemsOnAPausedTaillardSearch) {
  const Instance inst = taillard::generate(21);  // 20 x 20: far from done after 50 ms
  Incumbent incumbent(taillard::best_known_makespan(21));
  MulticoreOptions options;
  options.threads = 2;
  MulticoreEngine engine(inst, {BoundKind::kLb1, BranchingRule::kMinMin}, incumbent, options);
  engine.set_work(whole_space(inst.jobs()));
  ASSERT_FALSE(engine.explore(std::chrono::duration<double>(0.05)));
  const auto samples = engine.sample_subproblems(8);
  ASSERT_FALSE(samples.empty());
  EXPECT_LE(samples.size(), 2u);  // at most one per explorer
  for (const auto& s : samples) {
    EXPECT_TRUE(is_permutation_of(s.schedule, inst.jobs()));
    EXPECT_GE(testing::naive_makespan(inst, s.schedule), taillard::best_known_makespan(21));
  }
  const auto before = engine.remaining();
  engine.sample_subproblems(8);
  EXPECT_EQ(engine.remaining(), before);  // sampling explores nothing
}

}  // namespace
}  // namespace permbb
