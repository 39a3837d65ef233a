// The truncated best-upper-bound-first branch-and-bound (truncated_bb.hpp), checked against
// the naive evaluation and the brute force of test_support.hpp.
#include "truncated_bb.hpp"

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

// A node cut from a random permutation: its first `front` jobs and its last `back` jobs.
TruncatedBbOptions nodes(std::uint64_t limit) {
  TruncatedBbOptions options;
  options.node_limit = limit;
  return options;
}

TEST(TruncatedBb, ValidAndNeverWorseThanTheStartOnRandomInstances) {
  std::mt19937 rng(21);
  for (int trial = 0; trial < 60; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, 25)(rng);
    const int m = std::uniform_int_distribution<int>(1, 8)(rng);
    const Instance instance = random_instance(rng, n, m);
    const std::vector<int> start = random_permutation(rng, n);
    const int front = std::uniform_int_distribution<int>(0, n / 2)(rng);
    const int back = std::uniform_int_distribution<int>(0, (n - front) / 2)(rng);
    const PartialSchedule node = cut(random_permutation(rng, n), front, back);
    const TruncatedBbResult result = truncated_bb(instance, node, Schedule{start, 0}, nodes(200));
    EXPECT_TRUE(is_permutation_of_all_jobs(result.best.permutation, n));
    EXPECT_EQ(result.best.makespan, naive_makespan(instance, result.best.permutation));
    EXPECT_LE(result.best.makespan, naive_makespan(instance, start));
    EXPECT_LE(result.nodes, 200u);
    if (result.best.permutation != start) {
      EXPECT_TRUE(keeps_node(result.best.permutation, node));
    }
  }
}

// Without limits the search is exact: below the root it finds the optimum; below a node
// started from one of the node's completions, the node's best completion.
TEST(TruncatedBb, ExhaustiveSearchReachesTheBruteForceOptimum) {
  std::mt19937 rng(22);
  for (int trial = 0; trial < 20; ++trial) {
    const int n = std::uniform_int_distribution<int>(2, 8)(rng);
    const int m = std::uniform_int_distribution<int>(1, 5)(rng);
    const Instance instance = random_instance(rng, n, m);
    TruncatedBbOptions unlimited;
    unlimited.stack_limit = 1 << 20;
    const TruncatedBbResult root = truncated_bb(instance, PartialSchedule{},
                                                Schedule{random_permutation(rng, n), 0}, unlimited);
    EXPECT_TRUE(root.exhausted);
    EXPECT_EQ(root.best.makespan, brute_force_optimum(instance)) << "trial " << trial;

    const std::vector<int> completion = random_permutation(rng, n);
    const PartialSchedule node = cut(completion, n / 3, n / 4);
    const TruncatedBbResult below =
        truncated_bb(instance, node, Schedule{completion, 0}, unlimited);
    EXPECT_TRUE(below.exhausted);
    EXPECT_TRUE(keeps_node(below.best.permutation, node));
    EXPECT_EQ(below.best.makespan, best_completion(instance, node.prefix, node.suffix));
  }
}

// The first upper bound is the start node completed in the start's order, which for the root
// is the start itself: an optimal start is returned unchanged, with nothing decomposed when
// LB1 at the root already equals its makespan.
TEST(TruncatedBb, ReturnsAnOptimalStartUnchanged) {
  std::mt19937 rng(23);
  for (int trial = 0; trial < 10; ++trial) {
    const int n = std::uniform_int_distribution<int>(3, 7)(rng);
    const Instance instance = random_instance(rng, n, 3);
    const Time optimum = brute_force_optimum(instance);
    std::vector<int> permutation = random_permutation(rng, n);
    std::sort(permutation.begin(), permutation.end());
    std::vector<int> optimal;
    do {
      if (naive_makespan(instance, permutation) == optimum) {
        optimal = permutation;
        break;
      }
    } while (std::next_permutation(permutation.begin(), permutation.end()));
    const TruncatedBbResult result =
        truncated_bb(instance, PartialSchedule{}, Schedule{optimal, 0}, nodes(1000));
    EXPECT_EQ(result.best.permutation, optimal);
    EXPECT_EQ(result.best.makespan, optimum);
  }
}

TEST(TruncatedBb, StackAndNodeLimitsTruncate) {
  const Instance instance = taillard::generate(31);  // 50 x 5
  std::mt19937 rng(25);
  const Schedule start{random_permutation(rng, 50), 0};
  TruncatedBbOptions narrow = nodes(500);
  narrow.stack_limit = 8;
  const TruncatedBbResult result = truncated_bb(instance, PartialSchedule{}, start, narrow);
  EXPECT_FALSE(result.exhausted);
  EXPECT_LE(result.nodes, 500u);
  EXPECT_LT(result.best.makespan, naive_makespan(instance, start.permutation));
  EXPECT_EQ(result.best.makespan, naive_makespan(instance, result.best.permutation));
}

TEST(TruncatedBb, DeterministicForTheSameInput) {
  const Instance instance = taillard::generate(11);
  const Schedule start = neh(instance);
  const TruncatedBbResult a = truncated_bb(instance, PartialSchedule{}, start, nodes(300));
  const TruncatedBbResult b = truncated_bb(instance, PartialSchedule{}, start, nodes(300));
  EXPECT_EQ(a.best.permutation, b.best.permutation);
  EXPECT_EQ(a.nodes, b.nodes);
}

TEST(TruncatedBb, RefusesABadStartOrNode) {
  std::mt19937 rng(24);
  const Instance instance = random_instance(rng, 5, 3);
  const Schedule start{{0, 1, 2, 3, 4}, 0};
  EXPECT_THROW(truncated_bb(instance, PartialSchedule{}, Schedule{{0, 1, 2}, 0}, nodes(5)),
               std::invalid_argument);
  EXPECT_THROW(truncated_bb(instance, PartialSchedule{{1, 2}, {2}}, start, nodes(5)),
               std::invalid_argument);
  EXPECT_THROW(truncated_bb(instance, PartialSchedule{{7}, {}}, start, nodes(5)),
               std::invalid_argument);
}

}  // namespace
}  // namespace permbb
