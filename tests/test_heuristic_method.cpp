// The heuristic dispatch (heuristic_method.hpp): names, every method's output, determinism,
// parallel copies and the start schedule.
#include "heuristic_method.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <random>
#include <stdexcept>
#include <vector>

#include "input_error.hpp"
#include "neh.hpp"
#include "taillard.hpp"
#include "test_support.hpp"

namespace permbb {
namespace {

using testing::is_permutation_of_all_jobs;

using testing::naive_makespan;
using testing::random_instance;

const HeuristicMethod kAll[] = {HeuristicMethod::kNeh, HeuristicMethod::kIls,
                                HeuristicMethod::kTruncatedBb, HeuristicMethod::kBeam};

HeuristicOptions iterations(std::uint64_t count, std::uint64_t seed = 0, int threads = 1) {
  HeuristicOptions options;
  options.iteration_limit = count;
  options.seed = seed;
  options.threads = threads;
  return options;
}

TEST(HeuristicMethod, NamesRoundTripAndUnknownNamesAreInputErrors) {
  EXPECT_EQ(heuristic_method_names(),
            (std::vector<std::string>{"neh", "ils", "truncated-bb", "beam"}));
  for (const HeuristicMethod method : kAll) {
    EXPECT_EQ(parse_heuristic_method(to_string(method)), method);
  }
  EXPECT_THROW(parse_heuristic_method("tabu"), InputError);
}

TEST(HeuristicMethod, EveryMethodGivesAValidScheduleWithItsMakespan) {
  std::mt19937 rng(41);
  for (int trial = 0; trial < 12; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, 30)(rng);
    const int m = std::uniform_int_distribution<int>(1, 8)(rng);
    const Instance instance = random_instance(rng, n, m);
    for (const HeuristicMethod method : kAll) {
      for (const int threads : {1, 3}) {
        const Schedule s = run_heuristic(instance, method, iterations(20, trial, threads));
        EXPECT_TRUE(is_permutation_of_all_jobs(s.permutation, n)) << to_string(method);
        EXPECT_EQ(s.makespan, naive_makespan(instance, s.permutation)) << to_string(method);
      }
    }
  }
}

TEST(HeuristicMethod, SameSeedAndIterationLimitGiveTheSameScheduleSingleThreaded) {
  const Instance instance = taillard::generate(12);
  for (const HeuristicMethod method : kAll) {
    const Schedule a = run_heuristic(instance, method, iterations(25, 5));
    const Schedule b = run_heuristic(instance, method, iterations(25, 5));
    EXPECT_EQ(a.permutation, b.permutation) << to_string(method);
  }
}

// Copy 0 of a parallel run is the single-threaded run with the same seed, and the best copy
// is kept: more threads never give a worse schedule for the same iteration limit.
TEST(HeuristicMethod, ParallelCopiesAreNeverWorseThanOneThread) {
  const Instance instance = taillard::generate(22);
  for (const HeuristicMethod method : {HeuristicMethod::kIls, HeuristicMethod::kBeam}) {
    const Schedule one = run_heuristic(instance, method, iterations(6, 3, 1));
    const Schedule four = run_heuristic(instance, method, iterations(6, 3, 4));
    EXPECT_LE(four.makespan, one.makespan) << to_string(method);
  }
}

// Under an iteration limit alone every copy makes exactly that many iterations, and the
// counter adds up all copies'.
TEST(HeuristicMethod, CountsTheIterationsOfAllIlsCopies) {
  const Instance instance = taillard::generate(3);
  for (const int threads : {1, 3}) {
    std::atomic<std::uint64_t> done{0};
    HeuristicOptions options = iterations(17, 4, threads);
    options.iterations_done = &done;
    run_heuristic(instance, HeuristicMethod::kIls, options);
    EXPECT_EQ(done.load(), 17U * static_cast<std::uint64_t>(threads));
  }
}

TEST(HeuristicMethod, SearchesAreNeverWorseThanTheGivenStart) {
  const Instance instance = taillard::generate(1);
  // A start better than NEH's (a short ILS from it): every search must keep at least as good.
  const Schedule good = run_heuristic(instance, HeuristicMethod::kIls, iterations(300, 1));
  HeuristicOptions options = iterations(30, 2);
  options.start = good.permutation;
  for (const HeuristicMethod method :
       {HeuristicMethod::kIls, HeuristicMethod::kTruncatedBb, HeuristicMethod::kBeam}) {
    EXPECT_LE(run_heuristic(instance, method, options).makespan, good.makespan)
        << to_string(method);
  }
}

TEST(HeuristicMethod, RefusesSearchesWithoutALimitAndBadStarts) {
  const Instance instance = taillard::generate(1);
  EXPECT_THROW(run_heuristic(instance, HeuristicMethod::kIls, HeuristicOptions{}),
               std::invalid_argument);
  HeuristicOptions bad = iterations(5);
  bad.start = std::vector<int>{0, 1, 2};
  EXPECT_THROW(run_heuristic(instance, HeuristicMethod::kBeam, bad), std::invalid_argument);
  bad = iterations(5, 0, 0);
  EXPECT_THROW(run_heuristic(instance, HeuristicMethod::kIls, bad), std::invalid_argument);
  // NEH needs no limit.
  EXPECT_EQ(run_heuristic(instance, HeuristicMethod::kNeh, HeuristicOptions{}).makespan,
            neh(instance).makespan);
}

}  // namespace
}  // namespace permbb

namespace permbb {
namespace {

// What progress lines show: every copy offers its improvements, so the shared best is the
// returned schedule's makespan (threads = 3: the copies' best), and never above the start's.
TEST(HeuristicMethod, TheFollowedIncumbentEndsAtTheReturnedSchedule) {
  std::mt19937 rng(71);
  for (int trial = 0; trial < 12; ++trial) {
    const Instance inst = random_instance(rng, 6 + trial % 10, 2 + trial % 4);
    for (const HeuristicMethod method : kAll) {
      Incumbent best;
      HeuristicOptions options = iterations(30, trial, 1 + trial % 3);
      options.best_so_far = &best;
      const Schedule found = run_heuristic(inst, method, options);
      EXPECT_EQ(best.value(), found.makespan) << to_string(method) << " trial " << trial;
      EXPECT_EQ(naive_makespan(inst, best.permutation()), found.makespan);
      EXPECT_EQ(naive_makespan(inst, found.permutation), found.makespan);
    }
  }
}

}  // namespace
}  // namespace permbb
