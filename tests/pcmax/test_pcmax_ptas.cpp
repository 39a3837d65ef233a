// The PTAS: rounding, the bisection (sequential and concurrent, same result), and the
// schedules: valid, within (1 + 1/k) T* with T* <= OPT (OPT by an exact branch-and-bound,
// or known by construction), the same for every split and thread count.
#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <random>

#include "bisection.hpp"
#include "cpu_dp.hpp"
#include "input_error.hpp"
#include "instance_generator.hpp"
#include "job_rounding.hpp"
#include "pcmax_test_support.hpp"
#include "ptas.hpp"
#include "target_evaluator.hpp"

namespace permbb::pcmax {
namespace {

using testing::checked_makespan;
using testing::exact_makespan;
using testing::random_instance;

PtasResult solve(const PcmaxInstance& instance, double epsilon, int split = 2, int threads = 1,
                 std::uint64_t memory = 0) {
  CpuTableFiller filler(threads);
  PtasOptions options;
  options.epsilon = epsilon;
  options.split = split;
  options.memory_limit_bytes = memory;
  return solve_pcmax(instance, options, filler);
}

TEST(Ptas, KIsTheSmallestWithOneOverKAtMostEpsilon) {
  EXPECT_EQ(k_for_epsilon(0.3), 4);
  EXPECT_EQ(k_for_epsilon(0.25), 4);
  EXPECT_EQ(k_for_epsilon(0.2), 5);
  EXPECT_EQ(k_for_epsilon(0.1), 10);
  EXPECT_EQ(k_for_epsilon(0.34), 3);
  EXPECT_EQ(k_for_epsilon(0.5), 2);
  EXPECT_EQ(k_for_epsilon(1.0), 1);
  EXPECT_EQ(k_for_epsilon(7.0), 1);
  EXPECT_THROW(k_for_epsilon(0.0), InputError);
  EXPECT_THROW(k_for_epsilon(-0.5), InputError);
  EXPECT_THROW(k_for_epsilon(0.0001), InputError);
}

TEST(Rounding, LongJobsRoundToAtLeastKUnitsWithErrorBelowDelta) {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 400; ++trial) {
    const int k = 1 + trial % 6;
    std::vector<Duration> times;
    for (int j = 0; j < 12; ++j) times.push_back(1 + static_cast<Duration>(rng() % 200));
    const Duration longest = *std::max_element(times.begin(), times.end());
    const Duration target = longest + static_cast<Duration>(rng() % 300);
    const RoundedJobs r = round_jobs(times, target, k);
    EXPECT_EQ(r.delta, std::max<Duration>(1, target / (k * k)));  // 0 guarded to 1
    EXPECT_EQ(r.capacity, static_cast<std::uint64_t>(target / r.delta));
    int counted = static_cast<int>(r.short_jobs.size());
    for (const int j : r.short_jobs) EXPECT_LE(times[j] * k, target);
    std::uint32_t previous = 0;
    for (const JobClass& c : r.classes) {
      EXPECT_GT(c.units, previous);
      previous = c.units;
      EXPECT_GE(c.units, static_cast<std::uint32_t>(k));
      for (const int j : c.jobs) {
        EXPECT_GT(times[j] * k, target);
        EXPECT_EQ(static_cast<Duration>(c.units), times[j] / r.delta);
        EXPECT_LT(times[j] - c.units * r.delta, r.delta);
        ++counted;
      }
    }
    EXPECT_EQ(counted, 12);
  }
}

// The sequential bisection written out plainly.
Duration sequential_search(Duration lower, Duration upper,
                           const std::map<Duration, bool>& feasible) {
  while (lower < upper) {
    const Duration mid = lower + (upper - lower) / 2;
    if (feasible.at(mid)) {
      upper = mid;
    } else {
      lower = mid + 1;
    }
  }
  return lower;
}

TEST(Bisection, EverySplitEndsWhereTheSequentialSearchEnds) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 500; ++trial) {
    const Duration lower = static_cast<Duration>(rng() % 50);
    const Duration upper = lower + static_cast<Duration>(rng() % 300);
    std::map<Duration, bool> feasible;  // random, so non-monotone
    for (Duration t = lower; t <= upper; ++t) feasible[t] = rng() % 3 != 0;
    const Duration want = sequential_search(lower, upper, feasible);
    int sequential_rounds = 0;
    for (const int levels : {1, 2, 3}) {
      const BisectionResult got =
          run_bisection(lower, upper, levels, [&](const std::vector<Duration>& targets) {
            std::vector<bool> answers;
            for (const Duration t : targets) answers.push_back(feasible.at(t));
            return answers;
          });
      EXPECT_EQ(got.target, want) << "trial " << trial << " levels " << levels;
      if (levels == 1) sequential_rounds = got.rounds;
      EXPECT_LE(got.rounds, (sequential_rounds + levels - 1) / levels);
      EXPECT_LE(got.probes, got.rounds * ((1 << levels) - 1));
    }
  }
}

TEST(Bisection, ObservedIntervalsNarrowAroundTheFinalTargetWithNoEvaluatedTargetInside) {
  std::mt19937_64 rng(13);
  for (int trial = 0; trial < 200; ++trial) {
    const Duration lower = static_cast<Duration>(rng() % 50);
    const Duration upper = lower + 1 + static_cast<Duration>(rng() % 300);
    std::map<Duration, bool> feasible;
    for (Duration t = lower; t <= upper; ++t) feasible[t] = rng() % 3 != 0;
    const int levels = 1 + trial % 3;
    std::vector<Duration> evaluated;
    std::vector<std::pair<Duration, Duration>> seen;
    const BisectionResult got = run_bisection(
        lower, upper, levels,
        [&](const std::vector<Duration>& targets) {
          std::vector<bool> answers;
          for (const Duration t : targets) {
            answers.push_back(feasible.at(t));
            evaluated.push_back(t);
          }
          return answers;
        },
        [&](Duration lo, Duration hi) {
          seen.push_back({lo, hi});
          // The upper end is the initial one or a target answered feasible; none inside.
          EXPECT_TRUE(hi == upper || feasible.at(hi)) << "trial " << trial;
          for (const Duration t : evaluated) EXPECT_FALSE(lo < t && t < hi) << "trial " << trial;
        });
    ASSERT_EQ(seen.size(), static_cast<std::size_t>(got.rounds)) << "trial " << trial;
    for (std::size_t i = 1; i < seen.size(); ++i) {
      EXPECT_LE(seen[i - 1].first, seen[i].first);
      EXPECT_GE(seen[i - 1].second, seen[i].second);
    }
    EXPECT_EQ(seen.back(), std::make_pair(got.target, got.target)) << "trial " << trial;
  }
}

TEST(TargetEvaluator, KeepsOnlyTheScheduleItIsToldTo) {
  const PcmaxInstance instance{"keep", 2, {5, 4, 3, 3}};
  CpuTableFiller filler(1);
  EvaluatorSettings settings;
  settings.k = 2;
  settings.memory_limit_bytes = 1 << 20;
  TargetEvaluator evaluator(instance, settings, filler);
  ASSERT_EQ(evaluator.evaluate({8, 9, 10}, 1), (std::vector<bool>{true, true, true}));
  EXPECT_EQ(checked_makespan(instance.times, 2, evaluator.schedule(9).machine_of_job),
            evaluator.schedule(9).makespan);
  evaluator.keep_only_schedule(9);
  EXPECT_EQ(evaluator.schedule(9).machine_of_job.size(), 4u);
  EXPECT_THROW(evaluator.schedule(8), std::out_of_range);
  EXPECT_THROW(evaluator.schedule(10), std::out_of_range);
}

// Worked by hand (docs/pcmax.md): k = 4, long jobs 62 79 76 77 79 73 89 (t > T/4). At
// T = 191, delta = 11, capacity 17, units 5 7 6 7 7 6 8: {5,6,6} {8,7} {7,7} fit 3 machines.
// At T = 192, delta = 12, capacity 16, units 5 6 6 6 6 6 7: one machine takes three jobs,
// at least 5 + 6 + 6 = 17 > 16, so 3 machines do not suffice.
TEST(Bisection, FeasibilityIsNotMonotoneInTheTarget) {
  const PcmaxInstance instance{"non-monotone", 3, {62, 79, 76, 77, 1, 79, 73, 89, 31}};
  CpuTableFiller filler(1);
  EvaluatorSettings settings;
  settings.k = 4;
  settings.memory_limit_bytes = 1 << 20;
  TargetEvaluator evaluator(instance, settings, filler);
  EXPECT_EQ(evaluator.evaluate({191, 192}, 1), (std::vector<bool>{true, false}));
  EXPECT_EQ(*evaluator.records()[0].machines_needed, 3);
  EXPECT_FALSE(evaluator.records()[1].machines_needed.has_value());
  // Whatever the split, the search ends on the same target.
  const PtasResult base = solve(instance, 0.25, 2);
  for (const int split : {4, 8})
    EXPECT_EQ(solve(instance, 0.25, split).final_target, base.final_target);
}

TEST(Bisection, QuarterSplitTargetsAreTheMidpointAndBothQuarterPoints) {
  const auto targets = round_targets(0, 100, 2, [](Duration) { return false; });
  EXPECT_EQ(targets, (std::vector<Duration>{50, 25, 75}));
  const auto known_mid = round_targets(0, 100, 2, [](Duration t) { return t == 50; });
  EXPECT_EQ(known_mid, (std::vector<Duration>{25, 75}));
  EXPECT_TRUE(round_targets(7, 7, 3, [](Duration) { return false; }).empty());
}

// OPT by branch-and-bound; the PTAS within (1 + 1/k) T* and T* <= OPT.
TEST(Ptas, WithinOnePlusEpsilonOfTheExactOptimum) {
  std::mt19937_64 rng(29);
  int tables = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int jobs = 2 + trial % 11;
    const int machines = 2 + trial % 3;
    const Duration max_time = trial % 2 ? 30 : 1000;
    const double epsilon = std::vector<double>{0.5, 0.3, 0.2, 0.15}[trial % 4];
    const PcmaxInstance instance = random_instance(rng, jobs, machines, max_time);
    const PtasResult r = solve(instance, epsilon);
    const Duration opt = exact_makespan(instance.times, machines);
    const Duration makespan = checked_makespan(instance.times, machines, r.schedule.machine_of_job);
    ASSERT_EQ(makespan, r.schedule.makespan) << "trial " << trial;
    EXPECT_LE(r.final_target, opt) << "trial " << trial;
    EXPECT_GE(r.final_target, r.lower_bound);
    EXPECT_LT(r.k * makespan, (r.k + 1) * r.final_target) << "trial " << trial;
    EXPECT_LE(static_cast<double>(makespan), (1 + epsilon) * static_cast<double>(opt))
        << "trial " << trial;
    for (const TableRecord& t : r.tables) tables += t.entries > 0;
  }
  EXPECT_GT(tables, 400) << "most targets must have needed a DP table";
}

// m machines, each given 2 to 4 jobs (C cut at random points) that add up to exactly C:
// OPT = C = the lower bound. Few jobs per machine make most jobs long, so the tables are big.
PcmaxInstance perfect_partition(std::mt19937_64& rng, int machines, Duration capacity) {
  PcmaxInstance instance{"perfect", machines, {}};
  for (int i = 0; i < machines; ++i) {
    std::vector<Duration> cuts{0, capacity};
    const int pieces = 2 + static_cast<int>(rng() % 3);
    while (static_cast<int>(cuts.size()) < pieces + 1) {
      const Duration cut = 1 + static_cast<Duration>(rng() % (capacity - 1));
      if (std::find(cuts.begin(), cuts.end(), cut) == cuts.end()) cuts.push_back(cut);
    }
    std::sort(cuts.begin(), cuts.end());
    for (std::size_t c = 1; c < cuts.size(); ++c) instance.times.push_back(cuts[c] - cuts[c - 1]);
  }
  std::shuffle(instance.times.begin(), instance.times.end(), rng);
  return instance;
}

TEST(Ptas, WithinOnePlusEpsilonOfAKnownOptimumOnLargerInstances) {
  std::mt19937_64 rng(31);
  std::uint64_t largest_table = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const int machines = 6 + trial % 7;
    const Duration capacity = 300 + 50 * trial;
    const PcmaxInstance instance = perfect_partition(rng, machines, capacity);
    const double epsilon = trial % 2 ? 0.3 : 0.5;
    const PtasResult r = solve(instance, epsilon, 2, 2);
    EXPECT_EQ(r.lower_bound, capacity);
    const Duration makespan = checked_makespan(instance.times, machines, r.schedule.machine_of_job);
    ASSERT_EQ(makespan, r.schedule.makespan);
    EXPECT_LE(r.final_target, capacity);
    EXPECT_LE(static_cast<double>(makespan), (1 + epsilon) * static_cast<double>(capacity))
        << "trial " << trial << " (" << instance.jobs() << " jobs)";
    for (const TableRecord& t : r.tables) largest_table = std::max(largest_table, t.entries);
  }
  EXPECT_GT(largest_table, 1000u) << "the DP must have had work to do";
}

TEST(Ptas, SameScheduleForEverySplitAndThreadCount) {
  for (const char* spec : {"uniform,14,4,1,100,1", "pareto,16,5,10,400,1.2,2",
                           "uniform,12,3,50,60,3", "uniform,20,6,1,1000,4"}) {
    const PcmaxInstance instance = generate_instance(parse_generator_spec(spec));
    const PtasResult base = solve(instance, 0.3, 2, 1);
    EXPECT_LT(base.k * base.schedule.makespan, (base.k + 1) * base.final_target);
    for (const int split : {4, 8}) {
      for (const int threads : {1, 2}) {
        const PtasResult other = solve(instance, 0.3, split, threads);
        EXPECT_EQ(other.final_target, base.final_target) << spec << " split " << split;
        EXPECT_EQ(other.schedule.machine_of_job, base.schedule.machine_of_job) << spec;
        EXPECT_LE(other.rounds, base.rounds) << spec;
      }
    }
  }
}

TEST(Ptas, EdgeCasesOneMachineAndMoreMachinesThanJobs) {
  const PcmaxInstance one{"one", 1, {4, 9, 2, 7}};
  const PtasResult r1 = solve(one, 0.3);
  EXPECT_EQ(r1.schedule.makespan, 22);
  const PcmaxInstance many{"many", 6, {4, 9, 2, 7}};
  const PtasResult r2 = solve(many, 0.3);
  EXPECT_EQ(checked_makespan(many.times, 6, r2.schedule.machine_of_job), r2.schedule.makespan);
  EXPECT_LE(r2.schedule.makespan * r2.k, (r2.k + 1) * 9);  // OPT = max t = 9
  const PcmaxInstance single{"single", 3, {5}};
  EXPECT_EQ(solve(single, 0.5).schedule.makespan, 5);
}

TEST(Ptas, RefusesATableBeyondTheMemoryLimitSayingItsSize) {
  const PcmaxInstance instance = generate_instance(parse_generator_spec("uniform,40,8,1,100,5"));
  try {
    solve(instance, 0.2, 2, 1, 1000);
    FAIL() << "a 1000-byte memory limit was enough";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("--epsilon 0.2"), std::string::npos) << message;
    EXPECT_NE(message.find("entries"), std::string::npos) << message;
    EXPECT_NE(message.find("memory limit"), std::string::npos) << message;
  }
}

TEST(Ptas, RecordsEveryTargetWithItsTable) {
  const PcmaxInstance instance = generate_instance(parse_generator_spec("uniform,15,4,1,100,8"));
  const PtasResult r = solve(instance, 0.3, 4, 2);
  ASSERT_FALSE(r.tables.empty());
  int rounds_seen = 0;
  for (const TableRecord& t : r.tables) {
    rounds_seen = std::max(rounds_seen, t.round);
    EXPECT_GE(t.target, r.lower_bound);
    EXPECT_LE(t.target, r.initial_upper_bound);
    if (t.entries > 0) {
      EXPECT_EQ(t.report.device, "cpu");
      EXPECT_GT(t.long_jobs, instance.machines);
    }
    EXPECT_EQ(t.machines_needed.has_value(), t.feasible);
    if (t.feasible) {
      EXPECT_LE(*t.machines_needed, instance.machines);
    }
  }
  EXPECT_EQ(rounds_seen, r.rounds);
}

}  // namespace
}  // namespace permbb::pcmax
