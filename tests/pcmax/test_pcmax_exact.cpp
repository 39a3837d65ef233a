// The exact mode and the solver around it: the packing test and the proof of the optimum
// against brute force up to 12 jobs; the solver never worse than LPT or MULTIFIT, within the
// PTAS's guarantee, and never worse at a smaller epsilon.
#include <gtest/gtest.h>

#include <random>

#include "cpu_dp.hpp"
#include "exact_search.hpp"
#include "fullest_bins.hpp"
#include "machine_packing.hpp"
#include "multifit.hpp"
#include "pcmax_solver.hpp"
#include "pcmax_test_support.hpp"

namespace permbb::pcmax {
namespace {

using testing::checked_makespan;
using testing::exact_makespan;
using testing::lpt_makespan;
using testing::random_instance;

PcmaxInstance instance_of_trial(std::mt19937_64& rng, int trial, int max_jobs) {
  const int machines = 2 + trial % 4;
  const std::int64_t tops[] = {10, 100, 1000};
  const int jobs = machines + 1 + static_cast<int>(rng() % (max_jobs - machines));
  return random_instance(rng, jobs, machines, tops[trial % 3]);
}

TEST(MachinePacking, FeasibleAtTheOptimumAndNotBelow) {
  std::mt19937_64 rng(23);
  for (int trial = 0; trial < 200; ++trial) {
    const PcmaxInstance instance = instance_of_trial(rng, trial, 11);
    const Duration opt = exact_makespan(instance.times, instance.machines);
    const PackingResult at = pack_machines(instance, opt);
    ASSERT_EQ(at.answer, PackingAnswer::kFeasible);
    EXPECT_EQ(checked_makespan(instance.times, instance.machines, at.schedule.machine_of_job), opt);
    EXPECT_EQ(pack_machines(instance, opt - 1).answer, PackingAnswer::kInfeasible);
  }
}

TEST(FullestBins, AnyPackingItFindsIsValidAndItFindsOneWellAboveTheOptimum) {
  std::mt19937_64 rng(43);
  int found_at_opt = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const PcmaxInstance instance = instance_of_trial(rng, trial, 11);
    const Duration opt = exact_makespan(instance.times, instance.machines);
    for (const Duration capacity : {opt - 1, opt, 2 * opt}) {
      const auto packed = pack_fullest_bins(instance, capacity);
      if (capacity < opt) {
        EXPECT_FALSE(packed.has_value()) << "trial " << trial;  // nothing below the optimum
        continue;
      }
      // At 2·OPT it always succeeds: a machine closed while job j is left holds more than
      // 2·OPT − t_j ≥ OPT (the fullest set would take j otherwise), and m such machines
      // would hold more than m·OPT ≥ Σt.
      if (capacity == 2 * opt) {
        ASSERT_TRUE(packed.has_value()) << "trial " << trial;
      }
      if (!packed) continue;
      found_at_opt += capacity == opt ? 1 : 0;
      EXPECT_LE(packed->makespan, capacity);
      EXPECT_EQ(checked_makespan(instance.times, instance.machines, packed->machine_of_job),
                packed->makespan);
    }
  }
  EXPECT_GT(found_at_opt, 0);
}

TEST(FullestBins, FillsEachMachineAsFullAsItCanHandWorked) {
  // Capacity 10: 7 with the fullest of {6, 5, 4, 3, 2} in 3 (that is 3), then 6 with 4, then
  // 5 with 2. Two machines of capacity 13 cannot hold Σt = 27.
  const PcmaxInstance instance{"hand", 3, {7, 6, 5, 4, 3, 2}};
  const auto packed = pack_fullest_bins(instance, 10);
  ASSERT_TRUE(packed.has_value());
  EXPECT_EQ(packed->loads, (std::vector<Duration>{10, 10, 7}));
  EXPECT_FALSE(pack_fullest_bins({"tight", 2, {7, 6, 5, 4, 3, 2}}, 13).has_value());
}

TEST(ExactSearch, ProvesTheBruteForceOptimumUpToTwelveJobs) {
  std::mt19937_64 rng(29);
  for (int trial = 0; trial < 300; ++trial) {
    const PcmaxInstance instance = instance_of_trial(rng, trial, 12);
    const Duration opt = exact_makespan(instance.times, instance.machines);
    const ExactResult r =
        prove_optimum(instance, simple_lower_bound(instance), build_lpt_schedule(instance));
    ASSERT_TRUE(r.proven) << "trial " << trial;
    EXPECT_EQ(r.lower, opt);
    EXPECT_EQ(r.upper, opt);
    EXPECT_EQ(checked_makespan(instance.times, instance.machines, r.schedule.machine_of_job), opt);
  }
}

TEST(ExactSearch, ANodeLimitLeavesItIncompleteWithBoundsAroundTheOptimum) {
  std::mt19937_64 rng(31);
  int incomplete = 0;
  for (int trial = 0; trial < 100; ++trial) {
    const PcmaxInstance instance = instance_of_trial(rng, trial, 12);
    const Duration opt = exact_makespan(instance.times, instance.machines);
    ExactLimits limits;
    limits.max_nodes_per_target = 2;
    const ExactResult r = prove_optimum(instance, simple_lower_bound(instance),
                                        build_lpt_schedule(instance), limits);
    EXPECT_LE(r.lower, opt);
    EXPECT_GE(r.upper, opt);
    EXPECT_EQ(checked_makespan(instance.times, instance.machines, r.schedule.machine_of_job),
              r.upper);
    if (!r.proven) {
      ++incomplete;
      EXPECT_EQ(r.stopped_because, "node limit");
    }
  }
  EXPECT_GT(incomplete, 0);
}

SolverResult solve(const PcmaxInstance& instance, double epsilon, bool exact = false) {
  CpuTableFiller filler(1);
  SolverOptions options;
  if (epsilon > 0) {
    PtasOptions ptas;
    ptas.epsilon = epsilon;
    options.ptas = ptas;
  }
  options.exact = exact;
  return solve_instance(instance, options, filler);
}

TEST(Solver, NeverWorseThanLptOrMultifitAndMonotoneInEpsilon) {
  std::mt19937_64 rng(37);
  const double epsilons[] = {1, 0.5, 0.34, 0.25, 0.2};  // k = 1 .. 5
  for (int trial = 0; trial < 60; ++trial) {
    const PcmaxInstance instance = instance_of_trial(rng, trial, 12);
    const Duration opt = exact_makespan(instance.times, instance.machines);
    const Duration lpt = lpt_makespan(instance.times, instance.machines);
    const Duration multifit = build_multifit_schedule(instance).makespan;
    Duration previous = lpt;
    for (const double epsilon : epsilons) {
      const SolverResult r = solve(instance, epsilon);
      const Duration makespan =
          checked_makespan(instance.times, instance.machines, r.schedule.machine_of_job);
      ASSERT_EQ(makespan, r.schedule.makespan);
      EXPECT_LE(makespan, lpt);
      EXPECT_LE(makespan, multifit);
      EXPECT_LE(makespan, previous) << "trial " << trial << ", epsilon " << epsilon;
      EXPECT_LE(r.best_lower_bound, opt);
      const int k = r.ptas->k;
      EXPECT_LT(makespan * k, (k + 1) * r.ptas->final_target);
      EXPECT_EQ(r.proven_optimal(), makespan == r.best_lower_bound);
      previous = makespan;
    }
  }
}

TEST(Solver, ExactModeAloneAndWithThePtasGiveTheOptimum) {
  std::mt19937_64 rng(41);
  for (int trial = 0; trial < 60; ++trial) {
    const PcmaxInstance instance = instance_of_trial(rng, trial, 12);
    const Duration opt = exact_makespan(instance.times, instance.machines);
    for (const double epsilon : {0.0, 0.5}) {
      const SolverResult r = solve(instance, epsilon, true);
      EXPECT_TRUE(r.complete);
      EXPECT_TRUE(r.proven_optimal());
      EXPECT_EQ(r.schedule.makespan, opt);
      EXPECT_EQ(r.best_lower_bound, opt);
      EXPECT_EQ(checked_makespan(instance.times, instance.machines, r.schedule.machine_of_job), opt);
    }
  }
}

TEST(Solver, IdleMachinesArePaddedAndTheBoundIsTheLongestJob) {
  const SolverResult r = solve({"idle", 6, {4, 9, 2}}, 0.3, true);
  EXPECT_EQ(r.schedule.makespan, 9);
  EXPECT_EQ(r.schedule.loads.size(), 6u);
  EXPECT_TRUE(r.proven_optimal());
}

}  // namespace
}  // namespace permbb::pcmax
