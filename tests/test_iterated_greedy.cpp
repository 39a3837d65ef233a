// The insertion local search (local_search.hpp) and the iterated greedy (iterated_greedy.hpp),
// checked against the naive evaluation and the brute force of test_support.hpp.
#include "iterated_greedy.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <stdexcept>
#include <thread>
#include <ctime>
#include <numeric>
#include <vector>

#include "deadline.hpp"
#include "elite_restart.hpp"
#include "incumbent.hpp"
#include "local_search.hpp"
#include "neh.hpp"
#include "path_relinking.hpp"
#include "taillard.hpp"
#include "test_support.hpp"

namespace permbb {
namespace {

using testing::is_permutation_of_all_jobs;
using testing::random_permutation;

using testing::brute_force_optimum;
using testing::naive_makespan;
using testing::random_instance;

// Whether some single move (take a job out, put it back elsewhere) shortens the schedule,
// tried exhaustively with the naive evaluation.
bool some_insertion_improves(const Instance& instance, const std::vector<int>& permutation) {
  const Time current = naive_makespan(instance, permutation);
  const int n = static_cast<int>(permutation.size());
  for (int from = 0; from < n; ++from) {
    std::vector<int> rest = permutation;
    const int job = rest[from];
    rest.erase(rest.begin() + from);
    for (int to = 0; to < n; ++to) {
      std::vector<int> moved = rest;
      moved.insert(moved.begin() + to, job);
      if (naive_makespan(instance, moved) < current) return true;
    }
  }
  return false;
}

IteratedGreedyOptions iterations(std::uint64_t count, std::uint64_t seed) {
  IteratedGreedyOptions options;
  options.iteration_limit = count;
  options.seed = seed;
  return options;
}

TEST(BestRemoval, LeftmostShortestRemainderAmongUnskippedJobs) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, 15)(rng);
    const int m = std::uniform_int_distribution<int>(1, 6)(rng);
    const Instance instance = random_instance(rng, n, m);
    const std::vector<int> permutation = random_permutation(rng, n);
    std::vector<char> skip(static_cast<std::size_t>(n), 0);
    for (int j = 0; j < n; ++j) skip[j] = std::uniform_int_distribution<int>(0, 3)(rng) == 0;
    int expected_position = -1;
    Time expected = kInfiniteTime;
    for (int i = 0; i < n; ++i) {
      if (skip[permutation[i]]) continue;
      std::vector<int> rest = permutation;
      rest.erase(rest.begin() + i);
      const Time span = naive_makespan(instance, rest);
      if (span < expected) expected = span, expected_position = i;
    }
    LocalSearchWorkspace workspace(instance);
    const Removal removal = best_removal(instance, permutation, skip, workspace);
    EXPECT_EQ(removal.position, expected_position);
    if (expected_position >= 0) {
      EXPECT_EQ(removal.makespan, expected);
    }
  }
}

struct MoveTrial {
  Schedule before;
  Schedule after;
  bool improved = false;
};

// One k_insert_move from a random position of a random schedule of `instance`; checks that
// the result is a schedule of all the jobs with its true makespan.
MoveTrial random_move(std::mt19937& rng, const Instance& instance, const LocalSearchRules& rules) {
  const int n = instance.jobs();
  MoveTrial trial;
  trial.before = Schedule{random_permutation(rng, n), 0};
  trial.before.makespan = naive_makespan(instance, trial.before.permutation);
  trial.after = trial.before;
  LocalSearchWorkspace workspace(instance);
  const int position = std::uniform_int_distribution<int>(0, n - 1)(rng);
  trial.improved = k_insert_move(instance, trial.after, position, rules, workspace);
  EXPECT_TRUE(is_permutation_of_all_jobs(trial.after.permutation, n));
  EXPECT_EQ(trial.after.makespan, naive_makespan(instance, trial.after.permutation));
  return trial;
}

TEST(KInsertMove, KeepsAnImprovementOrRestoresTheSchedule) {
  std::mt19937 rng(12);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = std::uniform_int_distribution<int>(2, 20)(rng);
    const int m = std::uniform_int_distribution<int>(1, 6)(rng);
    const Instance instance = random_instance(rng, n, m);
    LocalSearchRules rules;
    rules.k_max = std::uniform_int_distribution<int>(1, 5)(rng);
    rules.ties = static_cast<InsertionTies>(trial % 3);
    const auto [before, schedule, improved] = random_move(rng, instance, rules);
    if (improved) {
      EXPECT_LT(schedule.makespan, before.makespan);
    } else {
      EXPECT_EQ(schedule.permutation, before.permutation);
      EXPECT_EQ(schedule.makespan, before.makespan);
    }
  }
}

// A sideways move changes the schedule without changing its makespan, and only then.
TEST(KInsertMove, SidewaysMovesKeepTheMakespan) {
  std::mt19937 rng(21);
  int sideways_seen = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int n = std::uniform_int_distribution<int>(2, 15)(rng);
    const int m = std::uniform_int_distribution<int>(1, 4)(rng);
    const Instance instance = random_instance(rng, n, m, 3);  // small times: many ties
    LocalSearchRules rules;
    rules.sideways = true;
    rules.ties = trial % 2 == 0 ? InsertionTies::kRandom : InsertionTies::kTightest;
    const auto [before, schedule, improved] = random_move(rng, instance, rules);
    EXPECT_EQ(improved, schedule.makespan < before.makespan);
    EXPECT_LE(schedule.makespan, before.makespan);
    if (!improved && schedule.permutation != before.permutation) ++sideways_seen;
  }
  EXPECT_GT(sideways_seen, 10);
}

// With k_max = 1 the local search stops in a local optimum of the insertion neighbourhood.
TEST(InsertionLocalSearch, EndsWhereNoSingleInsertionImproves) {
  std::mt19937 rng(13);
  for (int trial = 0; trial < 60; ++trial) {
    const int n = std::uniform_int_distribution<int>(2, 12)(rng);
    const int m = std::uniform_int_distribution<int>(1, 5)(rng);
    const Instance instance = random_instance(rng, n, m);
    Schedule schedule{random_permutation(rng, n), 0};
    schedule.makespan = naive_makespan(instance, schedule.permutation);
    const Time before = schedule.makespan;
    LocalSearchWorkspace workspace(instance);
    std::mt19937_64 search_rng(trial);
    const bool improved =
        insertion_local_search(instance, schedule, LocalSearchRules{}, search_rng, workspace,
                               Deadline());
    EXPECT_TRUE(is_permutation_of_all_jobs(schedule.permutation, n));
    EXPECT_EQ(schedule.makespan, naive_makespan(instance, schedule.permutation));
    EXPECT_EQ(improved, schedule.makespan < before);
    EXPECT_LE(schedule.makespan, before);
    EXPECT_FALSE(some_insertion_improves(instance, schedule.permutation));
  }
}

// With max_passes = 1 the search is one pass: each job, in the order drawn from the rng, tried
// once by k_insert_move, as done here by hand from the same seed.
TEST(InsertionLocalSearch, OnePassWhenThePassesAreBounded) {
  std::mt19937 rng(16);
  for (int trial = 0; trial < 40; ++trial) {
    const int n = std::uniform_int_distribution<int>(2, 25)(rng);
    const int m = std::uniform_int_distribution<int>(1, 6)(rng);
    const Instance instance = random_instance(rng, n, m);
    LocalSearchRules rules;
    rules.max_passes = 1;
    rules.sideways = trial % 2 == 0;
    rules.ties = trial % 3 == 0 ? InsertionTies::kLeftmost : InsertionTies::kTightest;
    Schedule bounded{random_permutation(rng, n), 0};
    bounded.makespan = naive_makespan(instance, bounded.permutation);
    Schedule by_hand = bounded;
    LocalSearchWorkspace workspace(instance);
    std::mt19937_64 search_rng(trial);
    insertion_local_search(instance, bounded, rules, search_rng, workspace, Deadline());

    std::mt19937_64 hand_rng(trial);
    std::vector<int> order = by_hand.permutation;
    std::shuffle(order.begin(), order.end(), hand_rng);
    LocalSearchWorkspace hand_workspace(instance);
    for (const int job : order) {
      const auto at = std::find(by_hand.permutation.begin(), by_hand.permutation.end(), job);
      k_insert_move(instance, by_hand, static_cast<int>(at - by_hand.permutation.begin()),
                    rules, hand_workspace);
    }
    EXPECT_EQ(bounded.permutation, by_hand.permutation);
    EXPECT_EQ(bounded.makespan, naive_makespan(instance, bounded.permutation));
  }
}

TEST(InsertionLocalSearch, WorksOnPartialSchedules) {
  std::mt19937 rng(14);
  const Instance instance = random_instance(rng, 12, 4);
  Schedule partial{{7, 2, 9, 0, 5}, 0};
  partial.makespan = naive_makespan(instance, partial.permutation);
  LocalSearchWorkspace workspace(instance);
  std::mt19937_64 search_rng(3);
  insertion_local_search(instance, partial, LocalSearchRules{}, search_rng, workspace, Deadline());
  std::vector<int> sorted = partial.permutation;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<int>{0, 2, 5, 7, 9}));
  EXPECT_EQ(partial.makespan, naive_makespan(instance, partial.permutation));
}

TEST(IteratedGreedy, ValidAndNeverWorseThanTheStartOnRandomInstances) {
  std::mt19937 rng(15);
  for (int trial = 0; trial < 40; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, 30)(rng);
    const int m = std::uniform_int_distribution<int>(1, 8)(rng);
    const Instance instance = random_instance(rng, n, m);
    const std::vector<int> start = random_permutation(rng, n);
    IteratedGreedyOptions options = iterations(30, trial);
    options.local_search.k_max = trial % 2 == 0 ? 1 : 0;
    options.local_search.ties = static_cast<InsertionTies>(trial % 3);
    options.local_search.sideways = trial % 4 == 1;
    options.partial_local_search = trial % 3 == 0;
    options.prefer_slack = trial % 5 < 2;
    const IteratedGreedyResult result =
        iterated_greedy(instance, Schedule{start, 0}, options);  // makespan recomputed
    EXPECT_TRUE(is_permutation_of_all_jobs(result.best.permutation, n));
    EXPECT_EQ(result.best.makespan, naive_makespan(instance, result.best.permutation));
    EXPECT_LE(result.best.makespan, naive_makespan(instance, start));
    EXPECT_EQ(result.iterations, 30u);
  }
}

TEST(IteratedGreedy, SameSeedAndIterationLimitGiveTheSameSchedule) {
  const Instance instance = taillard::generate(21);
  const Schedule start = neh(instance);
  for (const int k_max : {1, 0}) {
    IteratedGreedyOptions options = iterations(40, 7);
    options.local_search.k_max = k_max;
    options.local_search.ties = k_max == 1 ? InsertionTies::kRandom : InsertionTies::kTightest;
    options.local_search.sideways = k_max == 1;
    options.prefer_slack = k_max == 1;
    const IteratedGreedyResult a = iterated_greedy(instance, start, options);
    const IteratedGreedyResult b = iterated_greedy(instance, start, options);
    EXPECT_EQ(a.best.permutation, b.best.permutation);
    EXPECT_EQ(a.best.makespan, b.best.makespan);
  }
}

// ta001-ta010 are solved: the best-known makespans are optimal, so no schedule is shorter,
// and the search starts from NEH's schedule, which it never loses.
TEST(IteratedGreedyTaillard, BetweenTheOptimumAndNehOnTa001ToTa010) {
  for (int index = 1; index <= 10; ++index) {
    const Instance instance = taillard::generate(index);
    const Schedule start = neh(instance);
    const IteratedGreedyResult result = iterated_greedy(instance, start, iterations(200, 1));
    EXPECT_LE(result.best.makespan, start.makespan) << instance.name();
    EXPECT_GE(result.best.makespan, taillard::best_known_makespan(index)) << instance.name();
    EXPECT_EQ(result.best.makespan, makespan(instance, result.best.permutation));
  }
}

TEST(IteratedGreedy, ReachesTheBruteForceOptimumOnTinyInstances) {
  std::mt19937 rng(16);
  for (int trial = 0; trial < 12; ++trial) {
    const int n = std::uniform_int_distribution<int>(2, 8)(rng);
    const int m = std::uniform_int_distribution<int>(2, 5)(rng);
    const Instance instance = random_instance(rng, n, m);
    const Schedule start{random_permutation(rng, n), 0};
    const IteratedGreedyResult result = iterated_greedy(instance, start, iterations(2000, trial));
    EXPECT_EQ(result.best.makespan, brute_force_optimum(instance)) << "trial " << trial;
  }
}

// A run that stalls goes on from the copies' common best (adopt_after): with the brute-force
// optimum shared and a bound-only entry ignored.
TEST(IteratedGreedy, AdoptsTheSharedScheduleAfterAStallAndIgnoresABound) {
  std::mt19937 rng(31);
  for (int trial = 0; trial < 6; ++trial) {
    const int n = 10;
    const Instance instance = random_instance(rng, n, 6);
    std::vector<int> permutation(n), optimum;
    std::iota(permutation.begin(), permutation.end(), 0);
    Time best = kInfiniteTime;
    do {
      const Time length = naive_makespan(instance, permutation);
      if (length < best) best = length, optimum = permutation;
    } while (std::next_permutation(permutation.begin(), permutation.end()));
    const Schedule start = neh(instance);

    Incumbent shared;
    shared.offer(optimum, best);
    IteratedGreedyOptions options = iterations(2, trial);
    options.adopt_after = 1;
    options.shared = &shared;
    options.destruction_size = 1;
    options.local_search.max_passes = 1;
    options.partial_local_search = false;
    IteratedGreedyResult result = iterated_greedy(instance, start, options);
    if (result.best.makespan > best) {
      ADD_FAILURE() << "trial " << trial << ": a stall should have adopted the optimum " << best;
    }
    EXPECT_EQ(result.best.makespan, naive_makespan(instance, result.best.permutation));

    Incumbent bound_only;
    bound_only.lower_to(1);  // below every makespan, with no schedule to go on from
    options.shared = &bound_only;
    result = iterated_greedy(instance, start, options);
    EXPECT_TRUE(is_permutation_of_all_jobs(result.best.permutation, n));
    EXPECT_EQ(result.best.makespan, naive_makespan(instance, result.best.permutation));
  }
}

TEST(IteratedGreedy, StopsAtTheTimeLimit) {
  const Instance instance = taillard::generate(51);
  IteratedGreedyOptions options;
  options.time_limit = 0.2;
  const auto begin = std::chrono::steady_clock::now();
  const IteratedGreedyResult result = iterated_greedy(instance, neh(instance), options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  EXPECT_GT(result.iterations, 0u);
  EXPECT_LT(seconds, 2.0);  // the limit plus one move, with room for a loaded machine
}

// The CPU time of the calling thread, read here apart from Deadline.
double thread_cpu_seconds() {
  timespec spent{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spent);
  return static_cast<double>(spent.tv_sec) + 1e-9 * static_cast<double>(spent.tv_nsec);
}

// A CPU-time deadline does not run while its thread sleeps, and runs while it works.
TEST(Deadline, OnTheThreadCpuClockCountsOnlyTheThreadsWork) {
  const Deadline deadline(0.05, nullptr, DeadlineClock::kThreadCpu);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  for (int poll = 0; poll < 64; ++poll) EXPECT_FALSE(deadline.expired());
  const double begin = thread_cpu_seconds();
  std::uint64_t polls = 0;
  while (!deadline.expired()) ++polls;
  EXPECT_GT(polls, 0u);
  EXPECT_GT(thread_cpu_seconds() - begin, 0.03);  // most of the 0.05 s were left to spend
  for (int poll = 0; poll < 64; ++poll) EXPECT_TRUE(deadline.expired());  // and stays so
}

TEST(IteratedGreedy, StopsAtTheCpuTimeLimit) {
  const Instance instance = taillard::generate(51);
  IteratedGreedyOptions options;
  options.time_limit = 0.2;
  options.cpu_time = true;
  const double begin = thread_cpu_seconds();
  const IteratedGreedyResult result = iterated_greedy(instance, neh(instance), options);
  const double spent = thread_cpu_seconds() - begin;
  EXPECT_GT(result.iterations, 0u);
  EXPECT_GE(spent, 0.2);
  EXPECT_LT(spent, 1.0);  // the limit plus a few moves
}

TEST(EliteRestart, RestartsAfterTheStallLimitFromTheEliteInTurn) {
  EliteRestart restart(3, 2);
  const Schedule a{{0, 1, 2}, 10};
  const Schedule b{{1, 0, 2}, 12};
  const Schedule c{{2, 1, 0}, 15};
  EXPECT_FALSE(restart.after_iteration(c, true));
  EXPECT_FALSE(restart.after_iteration(b, false));  // stalled 1
  EXPECT_FALSE(restart.after_iteration(a, true));   // a new best: the count starts again
  EXPECT_FALSE(restart.after_iteration(a, false));
  EXPECT_FALSE(restart.after_iteration(a, false));
  EXPECT_TRUE(restart.after_iteration(a, false));  // 3 in a row without a new best
  // The elite holds the 2 best distinct schedules, a and b (c was pushed out), best first.
  EXPECT_EQ(restart.restart_point().permutation, a.permutation);
  EXPECT_EQ(restart.restart_point().permutation, b.permutation);
  EXPECT_EQ(restart.restart_point().permutation, a.permutation);
  EXPECT_FALSE(restart.after_iteration(a, false));  // the count started again at the restart

  EliteRestart never(0, 4);
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(never.after_iteration(a, false));
}

// The relinked schedule is one of the insertion walk's (rebuilt naively here), with its true
// makespan, at least a quarter of the moves from either end, and no schedule of that middle
// part of the walk is shorter.
TEST(PathRelinking, ReturnsTheShortestMiddleScheduleOfTheWalk) {
  std::mt19937 rng(19);
  int relinked = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, 20)(rng);
    const Instance instance = random_instance(rng, n, 4);
    const std::vector<int> from = random_permutation(rng, n);
    const std::vector<int> guide = random_permutation(rng, n);
    // The walk, naively: every intermediate schedule.
    std::vector<std::vector<int>> walk;
    std::vector<int> at = from;
    for (int i = 0; i < n; ++i) {
      if (at[i] == guide[i]) continue;
      at.erase(std::find(at.begin(), at.end(), guide[i]));
      at.insert(at.begin() + i, guide[i]);
      walk.push_back(at);
    }
    const auto result = relink(instance, from, guide);
    const std::size_t moves = walk.size();
    ASSERT_EQ(result.has_value(), moves >= 4) << "trial " << trial;
    if (!result) continue;
    ++relinked;
    EXPECT_EQ(result->makespan, naive_makespan(instance, result->permutation));
    const std::size_t margin = moves / 4;
    Time shortest = kInfiniteTime;
    for (std::size_t k = margin - 1; k + margin < moves; ++k) {
      shortest = std::min(shortest, naive_makespan(instance, walk[k]));
    }
    EXPECT_EQ(result->makespan, shortest);
    const auto on_walk = std::find(walk.begin(), walk.end(), result->permutation);
    ASSERT_NE(on_walk, walk.end());
    const auto k = static_cast<std::size_t>(on_walk - walk.begin());
    EXPECT_GE(k + 1, margin);
    EXPECT_GE(moves - k - 1, margin);
    EXPECT_NE(result->permutation, from);
    EXPECT_NE(result->permutation, guide);
  }
  EXPECT_GT(relinked, 100);
}

IteratedGreedyOptions with_restarts(std::uint64_t count, std::uint64_t seed) {
  IteratedGreedyOptions options = iterations(count, seed);
  options.restart_after = 2 + seed % 4;
  options.restart_destruction = 1 + static_cast<int>(seed % 12);  // also more than n
  options.restart_elite = 1 + static_cast<int>(seed % 3);
  options.restart_relink = seed % 2 == 1;
  return options;
}

TEST(IteratedGreedyRestarts, ValidAndNeverWorseThanTheStartOnRandomInstances) {
  std::mt19937 rng(18);
  for (int trial = 0; trial < 40; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, 25)(rng);
    const int m = std::uniform_int_distribution<int>(1, 8)(rng);
    const Instance instance = random_instance(rng, n, m);
    const std::vector<int> start = random_permutation(rng, n);
    IteratedGreedyOptions options = with_restarts(40, trial);
    options.prefer_slack = trial % 2 == 0;
    options.partial_local_search = trial % 3 != 0;
    const IteratedGreedyResult result = iterated_greedy(instance, Schedule{start, 0}, options);
    EXPECT_TRUE(is_permutation_of_all_jobs(result.best.permutation, n));
    EXPECT_EQ(result.best.makespan, naive_makespan(instance, result.best.permutation));
    EXPECT_LE(result.best.makespan, naive_makespan(instance, start));
    EXPECT_EQ(result.iterations, 40u);
  }
}

TEST(IteratedGreedyRestarts, SameSeedAndIterationLimitGiveTheSameSchedule) {
  const Instance instance = taillard::generate(31);
  const Schedule start = neh(instance);
  bool some_trajectory_changed = false;
  for (const std::uint64_t seed : {1, 2, 3}) {
    const IteratedGreedyOptions options = with_restarts(150, seed);
    const IteratedGreedyResult a = iterated_greedy(instance, start, options);
    const IteratedGreedyResult b = iterated_greedy(instance, start, options);
    EXPECT_EQ(a.best.permutation, b.best.permutation);
    EXPECT_EQ(a.best.makespan, b.best.makespan);
    EXPECT_LE(a.best.makespan, start.makespan);
    EXPECT_EQ(a.best.makespan, naive_makespan(instance, a.best.permutation));
    const IteratedGreedyResult plain = iterated_greedy(instance, start, iterations(150, seed));
    some_trajectory_changed |= plain.best.permutation != a.best.permutation;
  }
  EXPECT_TRUE(some_trajectory_changed);  // the restarts do something
}

TEST(IteratedGreedy, RefusesABadStartOrNoLimit) {
  std::mt19937 rng(17);
  const Instance instance = random_instance(rng, 5, 3);
  EXPECT_THROW(iterated_greedy(instance, Schedule{{0, 1, 2, 3}, 0}, iterations(5, 0)),
               std::invalid_argument);
  EXPECT_THROW(iterated_greedy(instance, Schedule{{0, 1, 2, 3, 3}, 0}, iterations(5, 0)),
               std::invalid_argument);
  EXPECT_THROW(iterated_greedy(instance, Schedule{{0, 1, 2, 3, 4}, 0}, IteratedGreedyOptions{}),
               std::invalid_argument);
}

}  // namespace
}  // namespace permbb
