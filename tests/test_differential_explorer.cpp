// The sequential IVM explorer against brute force, for every bound and branching rule, on
// random instances of 1 to 8 jobs and 1 to 6 machines (differential_cases.hpp): the optimum
// and a schedule that has it from no bound and from just above the optimum, no schedule and
// an unchanged bound from the optimum and below it.
#include <gtest/gtest.h>

#include "differential_cases.hpp"
#include "explorer_reference.hpp"
#include "test_support.hpp"

namespace permbb {
namespace {

// Instances per machine count, for each number of jobs (about 5000 in all, 15 s): sizes up
// to 6 jobs are sampled densely, the brute force and the searches of 7 and 8 jobs cost more.
int cases_per_machine_count(int jobs) {
  const int cases[] = {0, 50, 300, 300, 300, 200, 150, 60, 25};
  return cases[jobs];
}

void expect_exact(const Instance& inst) {
  const Time optimum = testing::brute_force_optimum(inst);
  for (const SearchSettings& settings : testing::all_search_settings()) {
    for (Time ub : testing::upper_bounds_around(optimum)) {
      const auto result = testing::sequential_search(inst, settings, ub);
      ASSERT_EQ(testing::outcome_error(inst, optimum, ub, result.best, result.schedule), "")
          << testing::describe(settings) << " on " << testing::describe(inst);
    }
  }
}

class DifferentialExplorer : public ::testing::TestWithParam<int> {};

TEST_P(DifferentialExplorer, MatchesBruteForceForEveryBoundRuleAndUpperBound) {
  const int jobs = GetParam();
  for (int machines = 1; machines <= 6; ++machines) {
    const int cases = cases_per_machine_count(jobs) * testing::differential_scale();
    for (int seed = 0; seed < cases; ++seed) {
      expect_exact(testing::differential_instance(seed, jobs, machines));
      if (HasFatalFailure()) return;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Jobs, DifferentialExplorer, ::testing::Range(1, 9),
                         [](const auto& info) { return std::to_string(info.param) + "Jobs"; });

}  // namespace
}  // namespace permbb
