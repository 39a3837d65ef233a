// The iterative beam search (beam_search.hpp), checked against the naive evaluation and the
// brute force of test_support.hpp.
#include "beam_search.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

#include "heuristic_test_support.hpp"
#include "neh.hpp"
#include "taillard.hpp"
#include "test_support.hpp"

namespace permbb {
namespace {

using testing::cut;
using testing::is_permutation_of_all_jobs;
using testing::keeps_node;
using testing::random_permutation;

using testing::best_completion;
using testing::brute_force_optimum;
using testing::naive_makespan;
using testing::random_instance;

BeamSearchOptions passes(std::uint64_t count, BeamGuide guide = BeamGuide::kBoundAndIdleTime) {
  BeamSearchOptions options;
  options.pass_limit = count;
  options.guide = guide;
  return options;
}

TEST(BeamSearch, ValidAndNeverWorseThanTheStartOnRandomInstances) {
  std::mt19937 rng(31);
  for (int trial = 0; trial < 60; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, 25)(rng);
    const int m = std::uniform_int_distribution<int>(1, 8)(rng);
    const Instance instance = random_instance(rng, n, m);
    const std::vector<int> start = random_permutation(rng, n);
    const BeamGuide guides[] = {BeamGuide::kBound, BeamGuide::kBoundAndIdleTime, BeamGuide::kGap};
    const BeamGuide guide = guides[trial % 3];
    const BeamSearchResult result =
        beam_search(instance, PartialSchedule{}, Schedule{start, 0}, passes(4, guide));
    EXPECT_TRUE(is_permutation_of_all_jobs(result.best.permutation, n));
    EXPECT_EQ(result.best.makespan, naive_makespan(instance, result.best.permutation));
    EXPECT_LE(result.best.makespan, naive_makespan(instance, start));
    EXPECT_LE(result.passes, 4u);
  }
}

// Started from a node without a start schedule, every schedule the search can return is a
// completion of the node.
TEST(BeamSearch, KeepsThePrefixAndSuffixOfTheStartNode) {
  std::mt19937 rng(32);
  for (int trial = 0; trial < 40; ++trial) {
    const int n = std::uniform_int_distribution<int>(2, 40)(rng);
    const int m = std::uniform_int_distribution<int>(1, 10)(rng);
    const Instance instance = random_instance(rng, n, m);
    const int front = std::uniform_int_distribution<int>(0, n / 2)(rng);
    const int back = std::uniform_int_distribution<int>(0, (n - front) / 2)(rng);
    const PartialSchedule node = cut(random_permutation(rng, n), front, back);
    const BeamSearchResult result = beam_search(instance, node, Schedule{}, passes(5));
    EXPECT_TRUE(is_permutation_of_all_jobs(result.best.permutation, n));
    EXPECT_TRUE(keeps_node(result.best.permutation, node));
    EXPECT_EQ(result.best.makespan, naive_makespan(instance, result.best.permutation));
  }
}

// Widths double until a pass drops nothing; that pass is a complete search of what LB1 does
// not prune, so it finds the best completion.
TEST(BeamSearch, CompleteSearchReachesTheBruteForceOptimum) {
  std::mt19937 rng(33);
  for (int trial = 0; trial < 20; ++trial) {
    const int n = std::uniform_int_distribution<int>(2, 8)(rng);
    const int m = std::uniform_int_distribution<int>(1, 5)(rng);
    const Instance instance = random_instance(rng, n, m);
    BeamSearchOptions unlimited;
    unlimited.guide = trial % 2 == 0 ? BeamGuide::kBoundAndIdleTime : BeamGuide::kGap;
    const BeamSearchResult root = beam_search(instance, PartialSchedule{}, Schedule{}, unlimited);
    EXPECT_TRUE(root.complete);
    EXPECT_EQ(root.best.makespan, brute_force_optimum(instance)) << "trial " << trial;

    const PartialSchedule node = cut(random_permutation(rng, n), n / 3, n / 4);
    const BeamSearchResult below = beam_search(instance, node, Schedule{}, unlimited);
    EXPECT_TRUE(below.complete);
    EXPECT_TRUE(keeps_node(below.best.permutation, node));
    EXPECT_EQ(below.best.makespan, best_completion(instance, node.prefix, node.suffix));
  }
}

// A cutoff prunes like a best makespan known without its schedule: one above the optimum, the
// complete search still finds the optimum; above the start's makespan it changes nothing.
TEST(BeamSearch, CutoffPrunesLikeAnUpperBound) {
  std::mt19937 rng(36);
  for (int trial = 0; trial < 30; ++trial) {
    const int n = std::uniform_int_distribution<int>(2, 8)(rng);
    const int m = std::uniform_int_distribution<int>(1, 5)(rng);
    const Instance instance = random_instance(rng, n, m);
    const Time optimum = brute_force_optimum(instance);
    const std::vector<int> start = random_permutation(rng, n);
    BeamSearchOptions options = passes(3, trial % 2 == 0 ? BeamGuide::kBound : BeamGuide::kGap);
    const BeamSearchResult plain = beam_search(instance, PartialSchedule{}, Schedule{start, 0}, options);
    options.cutoff = naive_makespan(instance, start) + 1;
    const BeamSearchResult loose = beam_search(instance, PartialSchedule{}, Schedule{start, 0}, options);
    EXPECT_EQ(loose.best.permutation, plain.best.permutation) << "trial " << trial;
    BeamSearchOptions complete;
    complete.guide = options.guide;
    complete.cutoff = optimum + 1;
    const BeamSearchResult tight = beam_search(instance, PartialSchedule{}, Schedule{start, 0}, complete);
    EXPECT_TRUE(tight.complete);
    EXPECT_EQ(tight.best.makespan, optimum) << "trial " << trial;
    EXPECT_EQ(naive_makespan(instance, tight.best.permutation), optimum);
  }
}

TEST(BeamSearch, DeterministicWithAPassLimitAndForASeedWithNoise) {
  const Instance instance = taillard::generate(21);
  BeamSearchOptions options = passes(6);
  const BeamSearchResult a = beam_search(instance, PartialSchedule{}, Schedule{}, options);
  const BeamSearchResult b = beam_search(instance, PartialSchedule{}, Schedule{}, options);
  EXPECT_EQ(a.best.permutation, b.best.permutation);
  EXPECT_EQ(a.passes, 6u);
  EXPECT_EQ(a.width, 32);  // 1, 2, 4, 8, 16, 32
  options.guide_noise = 0.01;
  options.seed = 9;
  const BeamSearchResult c = beam_search(instance, PartialSchedule{}, Schedule{}, options);
  const BeamSearchResult d = beam_search(instance, PartialSchedule{}, Schedule{}, options);
  EXPECT_EQ(c.best.permutation, d.best.permutation);
}

// On a 20 x 20 Taillard instance a few passes already beat a random schedule, and can never
// beat the proven optimum.
TEST(BeamSearchTaillard, BetweenTheOptimumAndARandomScheduleOnTa021) {
  const Instance instance = taillard::generate(21);
  std::mt19937 rng(34);
  const std::vector<int> random_start = random_permutation(rng, instance.jobs());
  const BeamSearchResult result = beam_search(instance, PartialSchedule{}, Schedule{}, passes(8));
  EXPECT_LT(result.best.makespan, naive_makespan(instance, random_start));
  EXPECT_GE(result.best.makespan, taillard::best_known_makespan(21));
}

TEST(BeamSearch, RefusesABadStartOrNode) {
  std::mt19937 rng(35);
  const Instance instance = random_instance(rng, 5, 3);
  EXPECT_THROW(beam_search(instance, PartialSchedule{}, Schedule{{0, 1, 1, 2, 3}, 0}, passes(1)),
               std::invalid_argument);
  EXPECT_THROW(beam_search(instance, PartialSchedule{{0}, {0}}, Schedule{}, passes(1)),
               std::invalid_argument);
}

}  // namespace
}  // namespace permbb
