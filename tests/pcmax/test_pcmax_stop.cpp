// A PTAS run that is asked to stop (run_control.hpp): at once, inside a round's DP fill, from
// another thread in the middle of a table that would take hours, while the configurations
// are enumerated. Every stopped run returns a valid schedule (each job on one machine, loads
// recomputed here give its makespan), no worse than LPT (computed here), marked incomplete;
// a run nobody stops is complete and unchanged. The fills count the states they compute.
#include <gtest/gtest.h>

#include <chrono>
#include <numeric>
#include <random>
#include <thread>

#include "config_set.hpp"
#include "cpu_dp.hpp"
#include "instance_generator.hpp"
#include "pcmax_test_support.hpp"
#include "ptas.hpp"
#include "run_control.hpp"
#include "schedule_builder.hpp"

namespace permbb::pcmax {
namespace {

using testing::checked_makespan;
using testing::exact_makespan;
using testing::random_instance;
using testing::lpt_makespan;

PtasResult solve(const PcmaxInstance& instance, double epsilon, RunControl* control,
                 int threads = 1, int split = 2) {
  CpuTableFiller filler(threads);
  PtasOptions options;
  options.epsilon = epsilon;
  options.split = split;
  options.control = control;
  return solve_pcmax(instance, options, filler);
}

// The loads of a schedule, recomputed from the machine of each job.
std::vector<Duration> loads_of(const PcmaxInstance& instance, const std::vector<int>& machines) {
  std::vector<Duration> loads(static_cast<std::size_t>(instance.machines), 0);
  for (std::size_t j = 0; j < machines.size(); ++j) loads.at(machines[j]) += instance.times[j];
  return loads;
}

// What every stopped run gives: incomplete, a valid schedule no worse than LPT, and targets
// left that start at or above the simple lower bound.
void expect_stopped_result(const PcmaxInstance& instance, const PtasResult& r) {
  EXPECT_FALSE(r.complete);
  const Duration makespan =
      checked_makespan(instance.times, instance.machines, r.schedule.machine_of_job);
  ASSERT_GE(makespan, 0) << "a job on no machine or on one that does not exist";
  EXPECT_EQ(makespan, r.schedule.makespan);
  EXPECT_EQ(loads_of(instance, r.schedule.machine_of_job), r.schedule.loads);
  EXPECT_LE(makespan, lpt_makespan(instance.times, instance.machines));
  const Duration total = std::accumulate(instance.times.begin(), instance.times.end(), Duration{0});
  const Duration longest = *std::max_element(instance.times.begin(), instance.times.end());
  EXPECT_GE(r.targets_left.lower,
            std::max((total + instance.machines - 1) / instance.machines, longest));
  EXPECT_LE(r.targets_left.lower, r.targets_left.upper);
}

TEST(PcmaxStop, AtOnceGivesAValidScheduleNoWorseThanLpt) {
  std::mt19937_64 rng(41);
  for (int trial = 0; trial < 60; ++trial) {
    const int jobs = 1 + trial % 13;
    const int machines = 1 + trial % 5;  // more machines than jobs too
    const PcmaxInstance instance = random_instance(rng, jobs, machines, trial % 2 ? 30 : 1000);
    RunControl control;
    control.request_stop();
    const PtasResult r = solve(instance, 0.2, &control, 1 + trial % 2, trial % 3 ? 2 : 4);
    SCOPED_TRACE("trial " + std::to_string(trial));
    expect_stopped_result(instance, r);
    EXPECT_EQ(r.rounds, 0);
    EXPECT_TRUE(r.tables.empty());
    // No round ran: the whole initial interval [LB, ceil(sum / m) + max t] is left.
    const Duration total =
        std::accumulate(instance.times.begin(), instance.times.end(), Duration{0});
    const Duration longest = *std::max_element(instance.times.begin(), instance.times.end());
    EXPECT_EQ(r.targets_left.upper, (total + machines - 1) / machines + longest);
  }
}

// A filler that asks for the stop when it is called for the `stop_at`-th time, before it
// fills: the stop lands inside a round, at the same place on every machine.
class StopOnFill : public TableFiller {
 public:
  StopOnFill(RunControl& control, int stop_at) : control_(control), stop_at_(stop_at) {}
  std::string name() const override { return inner_.name(); }
  int threads() const override { return inner_.threads(); }
  void fill(std::vector<DpWork>& batch) override {
    if (++calls_ == stop_at_) control_.request_stop();
    inner_.fill(batch);
  }

 private:
  CpuTableFiller inner_{1};
  RunControl& control_;
  int stop_at_;
  int calls_ = 0;
};

// Stopped in its n-th table: the targets found feasible before keep their guarantee, so the
// schedule returned (the best of them and LPT) is within (1 + 1/k) T of each of them; the
// lower end of the targets left never passes OPT (exact, by branch-and-bound).
TEST(PcmaxStop, InsideATableKeepsTheBestScheduleFoundBefore) {
  std::mt19937_64 rng(43);
  int stopped_after_feasible = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const PcmaxInstance instance = random_instance(rng, 9 + trial % 4, 3, 1000);
    RunControl control;
    StopOnFill filler(control, 1 + trial % 4);
    PtasOptions options;
    options.epsilon = 0.2;
    options.control = &control;
    const PtasResult r = solve_pcmax(instance, options, filler);
    SCOPED_TRACE("trial " + std::to_string(trial));
    if (r.complete) continue;  // fewer tables than stop_at: nothing to stop
    expect_stopped_result(instance, r);
    EXPECT_LE(r.targets_left.lower, exact_makespan(instance.times, instance.machines));
    for (const TableRecord& t : r.tables) {
      if (!t.feasible) continue;
      EXPECT_LT(r.k * r.schedule.makespan, (r.k + 1) * t.target) << "T = " << t.target;
      ++stopped_after_feasible;
    }
  }
  EXPECT_GT(stopped_after_feasible, 0) << "no trial stopped after a feasible target";
}

// LPT's worst case on 3 machines (Graham): 5 5 4 4 3 3 3, LPT 11, OPT 9 (here times 100).
// Once a target T with (1 + 1/k) T <= 1100 is found feasible, its schedule beats LPT, and a
// stop after it must return that schedule (or a shorter one), not LPT's.
TEST(PcmaxStop, AfterAFeasibleTargetBeatsLptOnLptsWorstCase) {
  const PcmaxInstance instance{"lpt-worst", 3, {500, 500, 400, 400, 300, 300, 300}};
  const Duration lpt = lpt_makespan(instance.times, instance.machines);
  ASSERT_EQ(lpt, 1100);
  int binding = 0;
  for (int stop_at = 1; stop_at <= 8; ++stop_at) {
    RunControl control;
    StopOnFill filler(control, stop_at);
    PtasOptions options;
    options.epsilon = 0.1;
    options.control = &control;
    const PtasResult r = solve_pcmax(instance, options, filler);
    SCOPED_TRACE("stop at fill " + std::to_string(stop_at));
    if (r.complete) continue;
    expect_stopped_result(instance, r);
    for (const TableRecord& t : r.tables) {
      if (!t.feasible) continue;
      EXPECT_LT(r.k * r.schedule.makespan, (r.k + 1) * t.target) << "T = " << t.target;
      binding += (r.k + 1) * t.target <= r.k * lpt;
    }
  }
  EXPECT_GT(binding, 0) << "no stop came after a target whose schedule beats LPT";
}

// Asks for the stop once the DP has computed some states (or after 30 s, for the test to
// fail rather than hang); returns when it asked.
std::chrono::steady_clock::time_point stop_inside_the_dp(RunControl& control) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (control.status().states_done == 0 && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const auto asked = std::chrono::steady_clock::now();
  control.request_stop();
  return asked;
}

// uniform,30,10,1,100,1 at epsilon 0.001: the first table has 2^30 entries, hours of work.
// A stop from another thread ends it within a second, on one thread and on several.
TEST(PcmaxStop, FromAnotherThreadEndsAnHoursLongTableWithinASecond) {
  const PcmaxInstance instance = generate_instance(parse_generator_spec("uniform,30,10,1,100,1"));
  for (const int threads : {1, 2}) {
    RunControl control;
    std::chrono::steady_clock::time_point asked;
    std::thread stopper([&] { asked = stop_inside_the_dp(control); });
    const PtasResult r = solve(instance, 0.001, &control, threads);
    const auto returned = std::chrono::steady_clock::now();
    stopper.join();
    SCOPED_TRACE("threads " + std::to_string(threads));
    expect_stopped_result(instance, r);
    EXPECT_LT(std::chrono::duration<double>(returned - asked).count(), 1.0);
    const RunStatus status = control.status();
    EXPECT_EQ(status.round, 1);
    EXPECT_EQ(status.round_states, std::uint64_t{1} << 30) << "the table's size, not its progress";
    EXPECT_GT(status.states_done, 0u);
    EXPECT_LT(status.states_done, status.round_states);
  }
}

TEST(PcmaxStop, WhileTheConfigurationsAreEnumerated) {
  const TableShape shape({{3, 4}, {4, 4}, {5, 4}}, 20);
  RunControl control;
  EXPECT_GT(ConfigSet(shape, 1000, &control).count(), 0);
  control.request_stop();
  EXPECT_THROW(ConfigSet(shape, 1000, &control), RunStopped);
}

// A run nobody stops: complete, the same schedule as without a control, ending on [T*, T*].
TEST(PcmaxStop, ARunNobodyStopsIsCompleteAndUnchanged) {
  std::mt19937_64 rng(47);
  for (int trial = 0; trial < 40; ++trial) {
    const PcmaxInstance instance = random_instance(rng, 6 + trial % 6, 2 + trial % 3, 500);
    RunControl control;
    const PtasResult watched = solve(instance, 0.25, &control);
    const PtasResult alone = solve(instance, 0.25, nullptr);
    SCOPED_TRACE("trial " + std::to_string(trial));
    EXPECT_TRUE(watched.complete);
    EXPECT_EQ(watched.schedule.machine_of_job, alone.schedule.machine_of_job);
    EXPECT_EQ(watched.targets_left.lower, watched.final_target);
    EXPECT_EQ(watched.targets_left.upper, watched.final_target);
    const RunStatus status = control.status();
    EXPECT_EQ(status.lower, watched.final_target);
    EXPECT_LE(status.best_makespan, lpt_makespan(instance.times, instance.machines));
  }
}

TEST(PcmaxStop, LptIsTheLongestFirstSchedule) {
  std::mt19937_64 rng(53);
  for (int trial = 0; trial < 50; ++trial) {
    const PcmaxInstance instance = random_instance(rng, 1 + trial % 17, 1 + trial % 6, 100);
    const PcmaxSchedule lpt = build_lpt_schedule(instance);
    const Duration makespan =
        checked_makespan(instance.times, instance.machines, lpt.machine_of_job);
    EXPECT_EQ(makespan, lpt.makespan);
    EXPECT_EQ(makespan, lpt_makespan(instance.times, instance.machines));
    EXPECT_EQ(loads_of(instance, lpt.machine_of_job), lpt.loads);
  }
}

// The fills tell the control every state they compute: the table's size, prod (n_d + 1).
TEST(PcmaxStop, FillsCountTheStatesTheyCompute) {
  const std::vector<ClassCount> classes{{3, 5}, {4, 7}, {6, 3}};
  const DpProblem problem(classes, 12, 4, 1 << 20);
  const std::uint64_t entries = 6 * 8 * 4;
  DpTable table(problem.shape.size(), problem.entry_bytes());
  RunControl sequential;
  fill_table_sequential(problem, table, &sequential);
  EXPECT_EQ(sequential.status().states_done, entries);
  RunControl parallel;
  fill_table_parallel(problem, table, 2, 7, &parallel);
  EXPECT_EQ(parallel.status().states_done, entries);
  RunControl stopped;
  stopped.request_stop();
  fill_table_parallel(problem, table, 2, 7, &stopped);
  EXPECT_EQ(stopped.status().states_done, 0u);
}

}  // namespace
}  // namespace permbb::pcmax
