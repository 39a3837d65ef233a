// LPT's companions: First Fit Decreasing and MULTIFIT against hand-worked packings and brute
// force, and the local search: loads recomputed from scratch, every job placed exactly once,
// never longer, and a local optimum checked here by trying every move and exchange.
#include <gtest/gtest.h>

#include <numeric>
#include <random>
#include <stdexcept>

#include "schedule_improvement.hpp"
#include "multifit.hpp"
#include "pcmax_test_support.hpp"

namespace permbb::pcmax {
namespace {

using testing::checked_makespan;
using testing::exact_makespan;
using testing::random_instance;

TEST(FirstFitDecreasing, PacksAsWorkedByHand) {
  PcmaxSchedule s;
  // Capacity 10: 6 -> bin 1, 5 -> bin 2, 4 -> bin 1 (full), 3 -> bin 2, 2 -> bin 2 (full).
  ASSERT_TRUE(first_fit_decreasing({"a", 3, {3, 6, 2, 5, 4}}, 10, s));
  EXPECT_EQ(s.machine_of_job, (std::vector<int>{1, 0, 1, 1, 0}));
  EXPECT_EQ(s.loads, (std::vector<Duration>{10, 10, 0}));
  EXPECT_EQ(s.makespan, 10);
  // Capacity 9: 6 -> 1, 5 -> 2, 4 -> 2 (9), 3 -> 1 (9), 2 -> 3.
  ASSERT_TRUE(first_fit_decreasing({"a", 3, {3, 6, 2, 5, 4}}, 9, s));
  EXPECT_EQ(s.loads, (std::vector<Duration>{9, 9, 2}));
  // Capacity 7 on two bins: 6, 5, then 4 fits neither.
  EXPECT_FALSE(first_fit_decreasing({"a", 2, {6, 5, 4}}, 7, s));
}

TEST(Multifit, ValidAndWithinItsWorstCaseRatioOfTheOptimum) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    const int machines = 2 + trial % 4;
    const PcmaxInstance instance = random_instance(rng, 4 + trial % 7, machines, 1 + trial % 100);
    const PcmaxSchedule s = build_multifit_schedule(instance);
    ASSERT_EQ(checked_makespan(instance.times, machines, s.machine_of_job), s.makespan);
    // Coffman, Garey & Johnson: MULTIFIT with k iterations is within 1.22 + 2^-k of OPT.
    const Duration opt = exact_makespan(instance.times, machines);
    EXPECT_LE(static_cast<double>(s.makespan), (1.22 + 1.0 / 128) * static_cast<double>(opt));
  }
}

// Every move of a job from `a` to another machine and every exchange of a job of `a` with
// one of another machine leaves the larger of the two loads at least load(a).
bool no_step_helps(const PcmaxInstance& instance, const std::vector<int>& machine_of_job, int a) {
  std::vector<Duration> loads(instance.machines, 0);
  for (std::size_t j = 0; j < machine_of_job.size(); ++j) loads[machine_of_job[j]] += instance.times[j];
  for (std::size_t x = 0; x < machine_of_job.size(); ++x) {
    if (machine_of_job[x] != a) continue;
    for (int b = 0; b < instance.machines; ++b) {
      if (b == a) continue;
      if (loads[b] + instance.times[x] < loads[a]) return false;  // a move
      for (std::size_t y = 0; y < machine_of_job.size(); ++y) {
        if (machine_of_job[y] != b) continue;
        const Duration d = instance.times[x] - instance.times[y];
        if (d > 0 && loads[b] + d < loads[a]) return false;  // an exchange
      }
    }
  }
  return true;
}

TEST(LocalSearch, KeepsEveryJobOnceRecomputesLoadsAndEndsInALocalOptimum) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 400; ++trial) {
    const int machines = 2 + trial % 6;
    const PcmaxInstance instance = random_instance(rng, 3 + trial % 25, machines, 1 + trial % 300);
    PcmaxSchedule s;
    for (int j = 0; j < instance.jobs(); ++j) s.machine_of_job.push_back(static_cast<int>(rng() % machines));
    const Duration before = checked_makespan(instance.times, machines, s.machine_of_job);
    s.loads.assign(machines, 12345);  // wrong on purpose: the search must not trust them
    s.makespan = 1;
    improve_schedule(instance, s);
    const Duration after = checked_makespan(instance.times, machines, s.machine_of_job);
    ASSERT_GE(after, 0);  // every job on exactly one machine in range
    EXPECT_EQ(after, s.makespan);
    EXPECT_LE(after, before);
    std::vector<Duration> loads(machines, 0);
    for (int j = 0; j < instance.jobs(); ++j) loads[s.machine_of_job[j]] += instance.times[j];
    EXPECT_EQ(loads, s.loads);
    const int a = static_cast<int>(std::max_element(loads.begin(), loads.end()) - loads.begin());
    EXPECT_TRUE(no_step_helps(instance, s.machine_of_job, a)) << "trial " << trial;
  }
}

TEST(LocalSearch, ImprovesByHand) {
  // {8, 7} | {3} | {2}, loads 15 3 2. Out of machine 1, least loaded partner first: the
  // exchange of 8 with 2 (pair maximum 9) is found before the move of 7 (also 9), giving
  // {7, 2} | {3} | {8}, loads 9 3 8. Out of machine 1 again: the exchange of 7 with 3
  // (pair maximum 7) comes before the move of 2 (also 7): {3, 2} | {7} | {8}, makespan
  // 8 = max t, and machine 3 has no step.
  PcmaxSchedule s{{0, 0, 1, 2}, {}, 0};
  const PcmaxInstance instance{"hand", 3, {8, 7, 3, 2}};
  improve_schedule(instance, s);
  EXPECT_EQ(s.machine_of_job, (std::vector<int>{2, 1, 0, 0}));
  EXPECT_EQ(s.makespan, 8);
}

TEST(LocalSearch, RefusesAScheduleWithAJobOffTheMachines) {
  PcmaxSchedule s{{0, 3}, {}, 0};
  EXPECT_THROW(recompute_loads({"bad", 2, {4, 5}}, s), std::logic_error);
  PcmaxSchedule short_schedule{{0}, {}, 0};
  EXPECT_THROW(recompute_loads({"bad", 2, {4, 5}}, short_schedule), std::logic_error);
}

}  // namespace
}  // namespace permbb::pcmax
