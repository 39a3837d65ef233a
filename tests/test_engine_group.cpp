// EngineGroup (gpu/engine/engine_group.hpp), driven here by CPU engines: the same contract as any
// engine. At a fixed upper bound its node count equals the sequential explorer's however the
// work is dealt and dealt again; it finds the optimum; a pause leaves the exact remaining
// work; request_stop() ends explore() promptly.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <random>
#include <thread>

#include "engine_group.hpp"
#include "explorer_reference.hpp"
#include "factoradic_mpz.hpp"
#include "multicore_engine.hpp"
#include "taillard.hpp"
#include "test_support.hpp"

namespace permbb {
namespace {

using Seconds = std::chrono::duration<double>;

std::unique_ptr<gpu::EngineGroup> make_group(const Instance& inst, const SearchSettings& settings,
                                             Incumbent& incumbent, int members,
                                             int threads_each = 1) {
  std::vector<std::unique_ptr<SearchEngine>> engines;
  for (int i = 0; i < members; ++i) {
    MulticoreOptions options;
    options.threads = threads_each;
    engines.push_back(std::make_unique<MulticoreEngine>(inst, settings, incumbent, options));
  }
  return std::make_unique<gpu::EngineGroup>(std::move(engines));
}

std::vector<Interval> whole_space(int n) { return {Interval{0, factorial(n)}}; }

// Explores to the end in slices of `slice` seconds; returns the number of slices.
int run_to_end(SearchEngine& engine, double slice) {
  int slices = 1;
  while (!engine.explore(Seconds(slice))) ++slices;
  return slices;
}

// Taillard 20 x 5 instances at their optimum: trees of 10^4 to 10^5 nodes, which the members
// share unevenly, so that idle members get work dealt again.
TEST(EngineGroup, NodeCountEqualsTheSequentialCountForEveryMemberCountAndSlice) {
  const int instances[] = {13, 12, 18};
  for (int k = 0; k < testing::scaled_trials(3); ++k) {
    const Instance inst = taillard::generate(instances[k]);
    const Time ub = taillard::best_known_makespan(instances[k]);
    // MinMin's trees (the other rules' trees of these instances are up to 10^9 nodes).
    const SearchSettings settings{k % 2 == 1 ? BoundKind::kLb2 : BoundKind::kLb1,
                                  k < 2 ? BranchingRule::kMinMin : BranchingRule::kMinMinForwardTies};
    const NodeCounters expected = testing::sequential_search(inst, settings, ub).nodes;
    std::uint64_t redeals = 0;  // the single-threaded members steal nothing themselves
    for (int members : {1, 2, 5}) {
      // Short slices pause the group often; long ones let a member run dry mid-slice.
      for (double slice : {10.0, 1e-3}) {
        Incumbent incumbent(ub);
        auto group = make_group(inst, settings, incumbent, members);
        group->set_work(whole_space(inst.jobs()));
        run_to_end(*group, slice);
        const EngineStats stats = group->stats();
        ASSERT_EQ(stats.nodes.decomposed, expected.decomposed)
            << inst.name() << " members " << members << " slice " << slice;
        EXPECT_EQ(stats.nodes.leaves, expected.leaves);
        EXPECT_EQ(stats.explorers, members);
        EXPECT_TRUE(group->remaining().empty());
        redeals += stats.steals;
      }
    }
    EXPECT_GT(redeals, 0u) << inst.name() << ": the work was never dealt again";
  }
}

TEST(EngineGroup, FindsTheBruteForceOptimumFromNoBound) {
  std::mt19937 rng(72);
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 1 + trial % 9;  // from one job up
    const Instance inst = testing::random_instance(rng, n, 1 + trial % 5);
    const Time optimum = testing::brute_force_optimum(inst);
    Incumbent incumbent;
    auto group = make_group(inst, {BoundKind::kLb1, BranchingRule::kMinMin}, incumbent,
                            2 + trial % 3, 1 + trial % 2);
    group->set_work(whole_space(n));
    run_to_end(*group, trial % 2 == 0 ? 10.0 : 1e-4);
    ASSERT_EQ(incumbent.value(), optimum) << "trial " << trial << " n " << n;
    EXPECT_EQ(testing::naive_makespan(inst, incumbent.permutation()), optimum);
  }
}

// The contract the cluster and checkpoints rely on: paused, remaining() is exactly what is
// left, and another engine finishing it counts every node once.
TEST(EngineGroup, PausedRemainingWorkFinishesElsewhereWithTheSameTotal) {
  const Instance inst = taillard::generate(13);  // 20 x 5
  const Time ub = taillard::best_known_makespan(13);
  const SearchSettings settings{BoundKind::kLb1, BranchingRule::kMinMin};
  const NodeCounters expected = testing::sequential_search(inst, settings, ub).nodes;
  Incumbent incumbent(ub);
  auto group = make_group(inst, settings, incumbent, 3);
  group->set_work(whole_space(inst.jobs()));
  ASSERT_FALSE(group->explore(Seconds(0.002)));
  const std::uint64_t before = group->stats().nodes.decomposed;
  const std::vector<Interval> left = group->remaining();
  ASSERT_FALSE(left.empty());
  for (std::size_t i = 1; i < left.size(); ++i) EXPECT_LE(left[i - 1].end, left[i].begin);

  Incumbent second_incumbent(ub);
  auto second = make_group(inst, settings, second_incumbent, 2);
  second->set_work(left);
  run_to_end(*second, 10.0);
  EXPECT_EQ(before + second->stats().nodes.decomposed, expected.decomposed);
}

TEST(EngineGroup, FewerIntervalsThanMembersAreCutSoThatEveryMemberExplores) {
  const Instance inst = taillard::generate(13);
  Incumbent incumbent(taillard::best_known_makespan(13));
  auto group = make_group(inst, {BoundKind::kLb1, BranchingRule::kMinMin}, incumbent, 4);
  group->set_work(whole_space(inst.jobs()));
  for (int i = 0; i < group->size(); ++i) {
    EXPECT_FALSE(group->member(i).remaining().empty()) << "member " << i;
  }
}

TEST(EngineGroup, RequestStopEndsExplorePromptly) {
  const Instance inst = taillard::generate(21);  // 20 x 20: minutes of search on one core
  Incumbent incumbent(taillard::best_known_makespan(21));
  auto group = make_group(inst, {BoundKind::kLb1, BranchingRule::kMinMin}, incumbent, 2);
  group->set_work(whole_space(inst.jobs()));
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    group->request_stop();
  });
  const auto start = std::chrono::steady_clock::now();
  const bool finished = group->explore(Seconds(60));
  const Seconds took = std::chrono::steady_clock::now() - start;
  stopper.join();
  EXPECT_FALSE(finished);
  EXPECT_LT(took.count(), 5.0);
  EXPECT_FALSE(group->remaining().empty());
}

}  // namespace
}  // namespace permbb
