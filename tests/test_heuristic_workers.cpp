// The hybridization's heuristic threads: they improve a bad incumbent on a Taillard instance
// within seconds, feed the pool, and stop promptly even in the middle of a long run; the
// promotion of a paused engine's subproblems feeds the pool, the incumbent and the board; dives
// search inside the board's subproblems at the depth asked for; the ILS copies that adopt
// their shared best.
#include <gtest/gtest.h>

#include <chrono>
#include <numeric>
#include <random>
#include <thread>

#include "factoradic_mpz.hpp"
#include "heuristic_method.hpp"
#include "heuristic_workers.hpp"
#include "multicore_engine.hpp"
#include "neh.hpp"
#include "taillard.hpp"
#include "test_support.hpp"

namespace permbb {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

std::vector<int> identity(int n) {
  std::vector<int> p(n);
  std::iota(p.begin(), p.end(), 0);
  return p;
}

// The ILS copies of run_heuristic share one incumbent, offering to it and adopting from it
// while the others write (IteratedGreedyOptions::adopt_after): under ThreadSanitizer here.
TEST(HeuristicCopies, AdoptingTheSharedBestKeepsEveryScheduleTrue) {
  const Instance inst = taillard::generate(11);  // 20 x 10
  const Time neh_value = neh(inst).makespan;
  for (const bool followed : {false, true}) {
    Incumbent followed_best;
    HeuristicOptions options;
    options.iteration_limit = 300;
    options.threads = 3;
    options.seed = 5;
    options.iterated_greedy.adopt_after = 2;
    if (followed) options.best_so_far = &followed_best;
    const Schedule found = run_heuristic(inst, HeuristicMethod::kIls, options);
    EXPECT_TRUE(testing::is_permutation_of_all_jobs(found.permutation, inst.jobs()));
    EXPECT_EQ(found.makespan, testing::naive_makespan(inst, found.permutation));
    EXPECT_LE(found.makespan, neh_value);
    EXPECT_GE(found.makespan, taillard::best_known_makespan(11));
    if (followed) {
      EXPECT_EQ(followed_best.value(), found.makespan);
    }
  }
}

TEST(HeuristicWorkers, ImproveABadIncumbentAndStopPromptly) {
  const Instance inst = taillard::generate(21);  // 20 x 20
  const Time bad = makespan(inst, identity(inst.jobs()));
  const Time neh_value = neh(inst).makespan;
  ASSERT_LT(neh_value, bad);
  Incumbent incumbent;
  ASSERT_TRUE(incumbent.offer(identity(inst.jobs()), bad));
  SolutionPool pool(2);
  SubproblemBoard board;
  HeuristicWorkerOptions options;
  options.threads = 1;
  options.seconds_per_run = 0.3;
  options.seed = 5;
  HeuristicWorkers workers(inst, incumbent, pool, board, options);
  const auto started = Clock::now();
  while (incumbent.value() > neh_value && seconds_since(started) < 8) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  // Iterated greedy from the identity beats NEH on ta021 well within a few runs.
  EXPECT_LE(incumbent.value(), neh_value);
  EXPECT_GE(incumbent.value(), taillard::best_known_makespan(21));
  EXPECT_EQ(testing::naive_makespan(inst, incumbent.permutation()), incumbent.value());
  const auto stopping = Clock::now();
  workers.stop();
  EXPECT_LT(seconds_since(stopping), 1.0);
  EXPECT_GE(workers.runs(), 1u);  // the interrupted run counts too
  EXPECT_GE(workers.improvements(), 1u);
  EXPECT_GE(pool.size(), 1);
  EXPECT_TRUE(workers.error().empty());
}

TEST(HeuristicWorkers, StopInterruptsALongRun) {
  const Instance inst = taillard::generate(31);  // 50 x 5
  Incumbent incumbent;
  SolutionPool pool(4);
  SubproblemBoard board;
  HeuristicWorkerOptions options;
  options.threads = 2;
  options.seconds_per_run = 600;
  {
    HeuristicWorkers workers(inst, incumbent, pool, board, options);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const auto stopping = Clock::now();
    workers.stop();
    EXPECT_LT(seconds_since(stopping), 1.0);
    EXPECT_EQ(workers.runs(), 2u);  // each run ended by the flag, not by its time budget
  }
  // Interrupted runs still hand their best (at least NEH's) to the incumbent.
  EXPECT_LE(incumbent.value(), neh(inst).makespan);
}

TEST(HeuristicWorkers, PromotionFeedsThePoolAndTheIncumbent) {
  const Instance inst = taillard::generate(21);
  Incumbent incumbent;  // no schedule yet: the first promotion gives one
  MulticoreOptions engine_options;
  engine_options.threads = 2;
  MulticoreEngine engine(inst, {BoundKind::kLb1, BranchingRule::kMinMin}, incumbent,
                         engine_options);
  engine.set_work({Interval{0, factorial(inst.jobs())}});
  ASSERT_FALSE(engine.explore(std::chrono::duration<double>(0.02)));
  HeuristicWorkerOptions options;
  options.threads = 0;  // the promotion alone
  Hybridization hybrid(inst, incumbent, options, 1.0);
  EXPECT_EQ(hybrid.pool().capacity(), 2);
  const Time before = incumbent.value();
  hybrid.between_slices(engine);
  EXPECT_EQ(hybrid.promotions(), 1u);
  EXPECT_GE(hybrid.pool().size(), 1);
  const auto best = hybrid.pool().best();
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(testing::naive_makespan(inst, best->permutation), best->makespan);
  EXPECT_LE(incumbent.value(), std::min(before, best->makespan));
  EXPECT_EQ(hybrid.board().size(), static_cast<std::size_t>(hybrid.pool().size()));
  hybrid.between_slices(engine);  // within the period: no second promotion
  EXPECT_EQ(hybrid.promotions(), 1u);
}

TEST(SubproblemBoard, NodeAtDepthKeepsTheFirstFixedJobsOfEachSide) {
  // Jobs 4 1 6 fixed in front, 2 0 at the back, 3 5 7 unscheduled.
  const PromotedSubproblem s{{4, 1, 6, 3, 5, 7, 2, 0}, 3, 2};
  const PartialSchedule root = node_at_depth(s, 0);
  EXPECT_TRUE(root.prefix.empty());
  EXPECT_TRUE(root.suffix.empty());
  const PartialSchedule whole = node_at_depth(s, 5);
  EXPECT_EQ(whole.prefix, (std::vector<int>{4, 1, 6}));
  EXPECT_EQ(whole.suffix, (std::vector<int>{2, 0}));
  // Depth 3: floor(3 * 2 / 5) = 1 job of the suffix (its last), the rest from the prefix.
  const PartialSchedule three = node_at_depth(s, 3);
  EXPECT_EQ(three.prefix, (std::vector<int>{4, 1}));
  EXPECT_EQ(three.suffix, (std::vector<int>{0}));
  EXPECT_EQ(node_at_depth(s, 9).prefix.size(), 3u);  // clamped to the fixed jobs
  EXPECT_TRUE(node_at_depth(s, -1).prefix.empty());

  std::mt19937_64 rng(3);
  for (int i = 0; i < 50; ++i) {
    const int depth = random_dive_depth(s, rng);
    EXPECT_GE(depth, 0);
    EXPECT_LE(depth, 5);
  }
}

TEST(SubproblemBoard, TakesInTurnAndReplacesOnPromotion) {
  SubproblemBoard board;
  EXPECT_FALSE(board.take().has_value());
  board.replace({{{0, 1, 2}, 1, 0}, {}, {{2, 1, 0}, 0, 1}});
  EXPECT_EQ(board.size(), 2u);  // the empty one is dropped
  EXPECT_EQ(board.take()->schedule, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(board.take()->schedule, (std::vector<int>{2, 1, 0}));
  EXPECT_EQ(board.take()->schedule, (std::vector<int>{0, 1, 2}));
  board.replace({{{1, 0, 2}, 2, 0}});
  EXPECT_EQ(board.take()->schedule, (std::vector<int>{1, 0, 2}));
}

TEST(HeuristicWorkers, DivesRunInsideTheBoardsSubproblems) {
  const Instance inst = taillard::generate(21);  // 20 x 20
  Incumbent incumbent;
  SolutionPool pool(4);
  SubproblemBoard board;
  // One subproblem on the board: 8 jobs of a bad schedule fixed in front, 6 at the back.
  const std::vector<int> bad = identity(inst.jobs());
  board.replace({{bad, 8, 6}});
  HeuristicWorkerOptions options;
  options.threads = 2;
  options.seconds_per_run = 0.1;
  options.subproblem_dives = true;
  HeuristicWorkers workers(inst, incumbent, pool, board, options);
  const auto started = Clock::now();
  while (workers.dives() < 3 && seconds_since(started) < 10) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  workers.stop();
  EXPECT_GE(workers.dives(), 3u);
  EXPECT_GT(workers.runs(), workers.dives());  // thread 0 runs the iterated greedy
  EXPECT_LT(workers.best_of_dives(), kInfiniteTime);
  EXPECT_LT(workers.best_of_greedy(), kInfiniteTime);
  EXPECT_EQ(incumbent.value(), std::min(workers.best_of_dives(), workers.best_of_greedy()));
  EXPECT_TRUE(workers.error().empty());
  EXPECT_LT(incumbent.value(), makespan(inst, bad));
  EXPECT_EQ(testing::naive_makespan(inst, incumbent.permutation()), incumbent.value());
  for (const Schedule& kept : pool.contents()) {
    EXPECT_EQ(testing::naive_makespan(inst, kept.permutation), kept.makespan);
  }
}

// The root beam search prunes with the incumbent's value even when it is only a bound (the
// solver's --ub): one above the optimum, its complete pass finds the optimum (brute force).
TEST(HeuristicWorkers, RootBeamFindsTheOptimumBelowABoundWithoutASchedule) {
  std::mt19937 rng(41);
  for (int trial = 0; trial < 4; ++trial) {
    const Instance inst = testing::random_instance(rng, 8, 4);
    const Time optimum = testing::brute_force_optimum(inst);
    Incumbent incumbent(optimum + 1);
    SolutionPool pool(2);
    SubproblemBoard board;
    HeuristicWorkerOptions options;
    options.threads = 1;
    options.seconds_per_run = 0.1;
    options.root_beam = true;
    HeuristicWorkers workers(inst, incumbent, pool, board, options);
    const auto started = Clock::now();
    while (incumbent.value() > optimum && seconds_since(started) < 10) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    workers.stop();
    EXPECT_EQ(incumbent.value(), optimum) << "trial " << trial;
    EXPECT_EQ(workers.best_of_root_beam(), optimum);
    EXPECT_EQ(testing::naive_makespan(inst, incumbent.permutation()), optimum);
    EXPECT_TRUE(workers.error().empty());
  }
}

}  // namespace
}  // namespace permbb
