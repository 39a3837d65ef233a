// Tests of what lets `permbb audit --time-limit` stop its sample and still say something
// true: an exploration gives up at its deadline (and says so), and the sample lists its
// subproblems in the order of their first draw, so that a re-explored prefix holds a known
// number of whole draws (docs/audit.md, "A time limit").
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "audit_sample.hpp"
#include "audit_search.hpp"
#include "certificate.hpp"
#include "test_support.hpp"

namespace permbb {
namespace {

// The audit's view of a random instance, with LB1 and MinMin.
audit::Certificate random_certificate(int jobs, int machines, unsigned seed) {
  std::mt19937 rng(seed);
  const Instance instance = testing::random_instance(rng, jobs, machines);
  audit::Certificate c;
  c.jobs = jobs;
  c.machines = machines;
  c.times.assign(machines, std::vector<audit::Time>(jobs));
  for (int k = 0; k < machines; ++k) {
    for (int j = 0; j < jobs; ++j) c.times[k][j] = instance.time(k, j);
  }
  c.bound = "lb1";
  c.branching = "minmin";
  return c;
}

TEST(AuditSearch, GivesUpAtItsDeadlineAndSaysSo) {
  const audit::Certificate c = random_certificate(9, 3, 11);
  const audit::TextbookBounds bounds(c);
  // No pruning (upper bound infinite): every node with 1 to 8 jobs fixed is decomposed,
  // 9!/(9-d)! of them at depth d.
  std::uint64_t all_nodes = 0;
  for (std::uint64_t d = 1, at_depth = 1; d <= 8; ++d) all_nodes += (at_depth *= 10 - d);
  const auto whole = audit::explore_subproblem(bounds, "minmin", {}, {}, audit::kNoBound, 0);
  EXPECT_FALSE(whole.timed_out);
  EXPECT_EQ(whole.nodes, all_nodes);

  const auto far = std::chrono::steady_clock::now() + std::chrono::hours(1);
  const auto in_time =
      audit::explore_subproblem(bounds, "minmin", {}, {}, audit::kNoBound, 0, {}, far);
  EXPECT_FALSE(in_time.timed_out);
  EXPECT_EQ(in_time.nodes, whole.nodes);
  EXPECT_EQ(in_time.leaves, whole.leaves);

  const auto past = std::chrono::steady_clock::now();
  const auto late =
      audit::explore_subproblem(bounds, "minmin", {}, {}, audit::kNoBound, 0, {}, past);
  EXPECT_TRUE(late.timed_out);
  // It looks at the clock at its kDeadlineInterval-th decomposition (the root's included).
  EXPECT_GE(late.nodes + 1, audit::kDeadlineInterval);
  EXPECT_LE(late.nodes, audit::kDeadlineInterval);
}

// Explored subproblems with unequal weights, and one pruned that is never drawn.
audit::Certificate weighted_certificate() {
  audit::Certificate c;
  for (const std::uint64_t nodes : {5, 1, 40, 0, 12, 3, 25}) {
    audit::Subproblem s;
    s.nodes = nodes;
    c.subproblems.push_back(s);
  }
  c.subproblems[3].pruned = true;
  return c;
}

TEST(AuditSample, ListsItsSubproblemsInTheOrderOfTheirFirstDraw) {
  const audit::Certificate c = weighted_certificate();
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const audit::SampleChoice sample = audit::draw_sample(c, 5, seed);
    ASSERT_FALSE(sample.complete);
    EXPECT_EQ(sample.draws, 5u);
    ASSERT_EQ(sample.first_draw.size(), sample.subproblems.size());
    ASSERT_FALSE(sample.subproblems.empty());
    EXPECT_EQ(sample.first_draw.front(), 0u);
    for (std::size_t m = 1; m < sample.first_draw.size(); ++m) {
      EXPECT_LT(sample.first_draw[m - 1], sample.first_draw[m]);
    }
    EXPECT_LT(sample.first_draw.back(), 5u);
    const std::set<std::size_t> distinct(sample.subproblems.begin(), sample.subproblems.end());
    EXPECT_EQ(distinct.size(), sample.subproblems.size());
    EXPECT_EQ(distinct.count(3), 0u);  // pruned
    // The first m subproblems hold the draws before the (m+1)-th one's first: all of them
    // once m covers the list, none before the first.
    EXPECT_EQ(sample.draws_covered(0), 0u);
    for (std::size_t m = 1; m < sample.subproblems.size(); ++m) {
      EXPECT_EQ(sample.draws_covered(m), sample.first_draw[m]);
    }
    EXPECT_EQ(sample.draws_covered(sample.subproblems.size()), 5u);
  }
}

TEST(AuditSample, TakesEveryExploredOneWhenTheSampleIsAsLarge) {
  const audit::SampleChoice sample = audit::draw_sample(weighted_certificate(), 6, 1);
  EXPECT_TRUE(sample.complete);
  EXPECT_EQ(sample.subproblems, (std::vector<std::size_t>{0, 1, 2, 4, 5, 6}));
  EXPECT_TRUE(sample.first_draw.empty());
}

}  // namespace
}  // namespace permbb
