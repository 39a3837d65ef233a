// The PTAS at the edges of its input: one job, one machine, as many or more machines than
// jobs, equal times, times at kMaxTime, epsilon at both ends of its range. Every schedule is
// checked against an exact optimum (branch-and-bound of the test support): valid, T* <= OPT,
// makespan < (1 + 1/k) T* and makespan <= (1 + epsilon) OPT. Then the generator's fields at
// and past their limits.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "cpu_dp.hpp"
#include "input_error.hpp"
#include "instance_generator.hpp"
#include "pcmax_test_support.hpp"
#include "ptas.hpp"

namespace permbb::pcmax {
namespace {

using testing::checked_makespan;
using testing::exact_makespan;

PtasResult solve(const PcmaxInstance& instance, double epsilon) {
  CpuTableFiller filler(1);
  PtasOptions options;
  options.epsilon = epsilon;
  return solve_pcmax(instance, options, filler);
}

// The guarantees of ptas.hpp, against OPT computed by exhaustive search.
void expect_within_guarantee(const PcmaxInstance& instance, double epsilon) {
  const PtasResult r = solve(instance, epsilon);
  const Duration opt = exact_makespan(instance.times, instance.machines);
  const Duration makespan =
      checked_makespan(instance.times, instance.machines, r.schedule.machine_of_job);
  ASSERT_EQ(makespan, r.schedule.makespan);
  EXPECT_GE(r.final_target, r.lower_bound);
  EXPECT_LE(r.final_target, opt);
  EXPECT_LT(static_cast<__int128>(makespan) * r.k,
            static_cast<__int128>(r.final_target) * (r.k + 1));
  EXPECT_GE(r.k * epsilon, 1.0);  // so 1 + 1/k <= 1 + epsilon
  EXPECT_LE(static_cast<__int128>(makespan) * r.k, static_cast<__int128>(opt) * (r.k + 1));
  EXPECT_LE(static_cast<double>(makespan), (1 + epsilon) * static_cast<double>(opt));
}

TEST(PcmaxEdges, OneJobOneMachineAndMachinesAroundTheJobCount) {
  for (const double epsilon : {kMinEpsilon, 0.3, 1.0, 1e9}) {
    SCOPED_TRACE(epsilon);
    expect_within_guarantee({"one", 1, {7}}, epsilon);
    expect_within_guarantee({"one-of-many", 1000, {7}}, epsilon);
    expect_within_guarantee({"two-on-one", 1, {7, 3}}, epsilon);
    expect_within_guarantee({"two-on-two", 2, {7, 3}}, epsilon);
    expect_within_guarantee({"two-on-three", 3, {7, 3}}, epsilon);
    expect_within_guarantee({"five-on-five", 5, {9, 1, 4, 4, 6}}, epsilon);
    expect_within_guarantee({"five-on-four", 4, {9, 1, 4, 4, 6}}, epsilon);
  }
  // One machine takes everything; m >= n puts every job alone (OPT = max t).
  EXPECT_EQ(solve({"one", 1, {7, 3, 5}}, 0.3).schedule.makespan, 15);
  EXPECT_EQ(solve({"alone", 3, {7, 3, 5}}, kMinEpsilon).schedule.makespan, 7);
}

TEST(PcmaxEdges, ManyMoreMachinesThanJobs) {
  // OPT = max t; every machine past the jobs' is idle. Targets are evaluated on n machines:
  // on all 10^7, each target's schedule took O(m) time and memory (20 s and 1.4 GB here).
  const PcmaxInstance instance{"wide", kMaxMachines, {kMaxTime, kMaxTime - 1, 3}};
  const PtasResult r = solve(instance, 0.3);
  EXPECT_EQ(r.schedule.makespan, kMaxTime);
  ASSERT_EQ(r.schedule.loads.size(), static_cast<std::size_t>(kMaxMachines));
  EXPECT_EQ(checked_makespan(instance.times, kMaxMachines, r.schedule.machine_of_job), kMaxTime);
  Duration busy = 0;
  for (const Duration load : r.schedule.loads) busy += load > 0;
  EXPECT_EQ(busy, 3);
  EXPECT_EQ(r.lower_bound, kMaxTime);
  // ceil(sum t / m) + max t, as documented: ceil((2 10^11 + 2) / 10^7) = 20001.
  EXPECT_EQ(r.initial_upper_bound, 20001 + kMaxTime);
  EXPECT_LT(r.seconds, 10.0);
}

TEST(PcmaxEdges, EqualTimes) {
  for (const int machines : {1, 2, 3, 4, 6, 7}) {
    for (const double epsilon : {kMinEpsilon, 0.2, 1.0}) {
      SCOPED_TRACE(::testing::Message() << machines << " machines, epsilon " << epsilon);
      expect_within_guarantee({"equal", machines, std::vector<Duration>(6, 5)}, epsilon);
      expect_within_guarantee({"equal-max", machines, std::vector<Duration>(6, kMaxTime)},
                              epsilon);
    }
  }
}

TEST(PcmaxEdges, RandomTinyInstancesWithExtremeTimes) {
  // Times of four kinds: 1..3, 1..1000, kMaxTime less 0..2, and a mix of 1 and kMaxTime;
  // m of 1, n - 1, n, n + 1 and n + 3.
  std::mt19937_64 rng(41);
  const std::vector<double> epsilons = {kMinEpsilon, 0.01, 0.3, 1.0, 1e9};
  for (int trial = 0; trial < 300; ++trial) {
    const int jobs = 1 + trial % 6;
    const int machines = std::max(1, std::vector<int>{1, jobs - 1, jobs, jobs + 1, jobs + 3}[
                                         static_cast<std::size_t>(trial / 6) % 5]);
    PcmaxInstance instance{"tiny", machines, {}};
    for (int j = 0; j < jobs; ++j) {
      const std::uint64_t x = rng();
      switch (trial % 4) {
        case 0: instance.times.push_back(1 + static_cast<Duration>(x % 3)); break;
        case 1: instance.times.push_back(1 + static_cast<Duration>(x % 1000)); break;
        case 2: instance.times.push_back(kMaxTime - static_cast<Duration>(x % 3)); break;
        default: instance.times.push_back(x % 2 ? kMaxTime : 1); break;
      }
    }
    const double epsilon = epsilons[static_cast<std::size_t>(trial) % epsilons.size()];
    SCOPED_TRACE(::testing::Message() << "trial " << trial << ", epsilon " << epsilon);
    expect_within_guarantee(instance, epsilon);
  }
}

TEST(PcmaxEdges, EpsilonAtTheEndsOfItsRange) {
  EXPECT_EQ(k_for_epsilon(kMinEpsilon), kMaxK);
  EXPECT_EQ(k_for_epsilon(1e9), 1);
  EXPECT_THROW(k_for_epsilon(std::nextafter(kMinEpsilon, 0.0)), InputError);
  EXPECT_THROW(k_for_epsilon(std::nan("")), InputError);
  EXPECT_THROW(k_for_epsilon(INFINITY), InputError);
}

TEST(PcmaxEdges, InstancesOutsideTheLimitsAreRefused) {
  EXPECT_THROW(solve({"empty", 2, {}}, 0.3), InputError);
  EXPECT_THROW(solve({"no-machine", 0, {3}}, 0.3), InputError);
  EXPECT_THROW(solve({"zero", 2, {3, 0}}, 0.3), InputError);
  EXPECT_THROW(solve({"too-long", 2, {3, kMaxTime + 1}}, 0.3), InputError);
  EXPECT_THROW(solve({"too-many-machines", kMaxMachines + 1, {3}}, 0.3), InputError);
}

// Every spec fails with a message that starts with "--generate SPEC".
void expect_refused(const std::string& spec) {
  try {
    parse_generator_spec(spec);
    ADD_FAILURE() << spec << " was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("--generate " + spec, 0), 0u) << e.what();
  }
}

TEST(PcmaxEdges, GeneratorFieldsPastTheirLimits) {
  for (const char* spec :
       {"uniform,,2,1,9,1", "uniform,5,2,1,9,", "uniform,5,2,1,9,-1", "uniform,+5,2,1,9,1",
        "uniform,-5,2,1,9,1", "uniform,10000001,2,1,9,1", "uniform,99999999999999999999,2,1,9,1",
        "uniform,5,10000001,1,9,1", "uniform,5,99999999999999999999,1,9,1",
        "uniform,5,2,1,99999999999999999999,1", "uniform,5,2,1,9,18446744073709551616",
        "uniform,5,2, 1,9,1", "uniform,5,2,1,9,1,", "pareto,5,2,1,9,nan,1",
        "pareto,5,2,1,9,inf,1", "pareto,5,2,1,9,1e400,1", "pareto,5,2,1,9,1e-400,1",
        "pareto,5,2,1,9,1e-310,1", "pareto,5,2,1,9,,1"}) {
    expect_refused(spec);
  }
  // The largest accepted: n = m = 10^7, times up to kMaxTime, the largest seed.
  const GeneratorSpec largest =
      parse_generator_spec("uniform,10000000,10000000,1,100000000000,18446744073709551615");
  EXPECT_EQ(largest.jobs, kMaxJobs);
  EXPECT_EQ(largest.machines, kMaxMachines);
  EXPECT_EQ(largest.high, kMaxTime);
  EXPECT_EQ(largest.seed, 18446744073709551615u);
}

// P(t >= x) of the bounded Pareto on [lo, hi + 1) (instance_generator.hpp),
// ((lo/x)^a - r) / (1 - r) with r = (lo/(hi+1))^a, written with expm1 so that it keeps its
// precision for tiny a, where it tends to the log-uniform tail ln((hi+1)/x) / ln((hi+1)/lo).
double pareto_tail(double lo, double hi, double alpha, double x) {
  const double to_x = std::expm1(alpha * std::log(lo / x));
  const double to_end = std::expm1(alpha * std::log(lo / (hi + 1)));
  return (to_x - to_end) / -to_end;
}

TEST(PcmaxEdges, ParetoFollowsItsDefinitionForTinyAndHugeAlpha) {
  const int n = 20000;
  for (const char* alpha_text : {"1e-12", "1e-17", "2e-18", "1e-300"}) {
    const std::string spec = "pareto,20000,4,1,100000000000," + std::string(alpha_text) + ",5";
    const PcmaxInstance instance = generate_instance(parse_generator_spec(spec));
    const double alpha = std::stod(alpha_text);
    for (const Duration x : {Duration{2}, Duration{1000}, Duration{100'000'000}, kMaxTime}) {
      const double p = pareto_tail(1, 1e11, alpha, static_cast<double>(x));
      int at_least = 0;
      for (const Duration t : instance.times) {
        ASSERT_GE(t, 1);
        ASSERT_LE(t, kMaxTime);
        at_least += t >= x;
      }
      const double sigma = std::sqrt(p * (1 - p) / n);
      EXPECT_NEAR(static_cast<double>(at_least) / n, p, 5 * sigma + 1e-9) << spec << " x " << x;
    }
  }
  // A huge alpha puts everything at lo.
  const PcmaxInstance steep = generate_instance(parse_generator_spec("pareto,100,4,7,9,1e300,1"));
  EXPECT_EQ(steep.times, std::vector<Duration>(100, 7));
}

}  // namespace
}  // namespace permbb::pcmax
