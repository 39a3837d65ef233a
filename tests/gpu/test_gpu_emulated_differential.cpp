// The GPU explorer's warp code on emulated warps (emulated_gpu_engine.hpp) against brute
// force and the sequential explorer, for every bound and branching rule, on random instances
// of 1 to 8 jobs and 1 to 6 machines (differential_cases.hpp), with random IVM counts, steps
// per launch, placements, selections, LB2 mappings, screens and shared terms (bound_items_lb2)
// and steal triggers: the optimum and a schedule that has it from no bound and from just above the
// optimum; no schedule from the optimum and below it, and there the sequential node counts,
// also when the search is paused at clean points and restarted from the remaining intervals.
#include <gtest/gtest.h>

#include <random>

#include "differential_cases.hpp"
#include "emulated_gpu_engine.hpp"
#include "explorer_reference.hpp"
#include "test_support.hpp"

namespace permbb::gpu {
namespace {

EmulatedGpuConfig random_config(std::mt19937& rng) {
  const Placement placements[] = {Placement::kShared, Placement::kStackGlobal,
                                  Placement::kGlobal};
  EmulatedGpuConfig config;
  config.ivms = 1 + static_cast<int>(rng() % 16);
  config.steps = 1 + static_cast<int>(rng() % 9);
  config.placement = placements[rng() % 3];
  config.trigger = rng() % 2 == 0 ? 0.8 : 1.0;
  config.select = rng() % 2 == 0 ? kSelectWarp : kSelectLane0;
  config.mapping = rng() % 2 == 0 ? GpuMapping::kRemap : GpuMapping::kStatic;
  const int screens[] = {kLb2ScreenOff, 0, 1, 4};
  config.lb2_screen = screens[rng() % 4];
  const int shared[] = {kLb2SharedOff, 1, 3};
  config.lb2_shared = shared[rng() % 3];
  config.steal_rule = static_cast<StealRule>(rng() % 2);
  return config;
}

std::string describe(const EmulatedGpuConfig& c) {
  return std::to_string(c.ivms) + " IVMs, " + std::to_string(c.steps) + " steps, placement " +
         std::to_string(static_cast<int>(c.placement)) + ", trigger " +
         std::to_string(c.trigger) + ", select " + std::to_string(c.select) + ", mapping " +
         std::to_string(static_cast<int>(c.mapping)) + ", LB2 screen " +
         std::to_string(c.lb2_screen) + ", LB2 shared from " + std::to_string(c.lb2_shared) +
         ", steal rule " + std::to_string(static_cast<int>(c.steal_rule));
}

struct EmulatedRun {
  Time best = kInfiniteTime;
  std::vector<int> schedule;
  std::uint64_t decomposed = 0;
  std::uint64_t leaves = 0;
};

// The whole space, explored by one engine to the end, or (`restarts`, only at a bound that
// never improves) by engines paused after a few rounds and restarted from what is left.
EmulatedRun run_emulated(const Instance& inst, const SearchSettings& settings, Time ub,
                         const EmulatedGpuConfig& config, bool restarts, std::mt19937& rng) {
  EmulatedRun run;
  std::vector<Interval> work{Interval{0, permbb::factorial(inst.jobs())}};
  for (int engines = 0; !work.empty(); ++engines) {
    EXPECT_LT(engines, 100000) << "no progress";
    if (engines >= 100000) break;
    EmulatedEngine<std::int8_t> gpu(inst, settings.branching, ub, config, settings.bound);
    gpu.set_work(work);
    bool busy = true;
    const int rounds = restarts ? 1 + static_cast<int>(rng() % 3) : 10000000;
    for (int r = 0; r < rounds && busy; ++r) busy = gpu.round();
    if (busy) gpu.settle();
    work = busy ? gpu.remaining() : std::vector<Interval>{};
    run.decomposed += gpu.decomposed();
    run.leaves += gpu.leaves();
    run.best = gpu.best();
    run.schedule = gpu.best_schedule();
  }
  return run;
}

// From no bound, from the optimum, and from just above or below it in turn (emulated warps
// are slow).
void expect_exact(const Instance& inst, std::mt19937& rng) {
  const Time optimum = testing::brute_force_optimum(inst);
  const std::vector<Time> around = testing::upper_bounds_around(optimum);  // inf, +1, 0, -1
  int turn = 0;
  for (const SearchSettings& settings : testing::all_search_settings()) {
    const Time near = around.size() == 4 && turn++ % 2 == 1 ? around[3] : around[1];
    for (Time ub : {kInfiniteTime, optimum, near}) {
      const EmulatedGpuConfig config = random_config(rng);
      const bool restarts = ub <= optimum && rng() % 2 == 0;
      const EmulatedRun run = run_emulated(inst, settings, ub, config, restarts, rng);
      ASSERT_EQ(testing::outcome_error(inst, optimum, ub, run.best, run.schedule), "")
          << testing::describe(settings) << ", " << describe(config) << " on "
          << testing::describe(inst);
      if (ub > optimum) continue;  // the bound improves, at a time that depends on the IVMs
      const auto sequential = testing::sequential_search(inst, settings, ub);
      ASSERT_EQ(run.decomposed, sequential.nodes.decomposed)
          << "from UB " << ub << ", " << testing::describe(settings) << ", " << describe(config)
          << (restarts ? ", restarted" : "") << " on " << testing::describe(inst);
      ASSERT_EQ(run.leaves, sequential.nodes.leaves);
    }
  }
}

class GpuEmulatedDifferential : public ::testing::TestWithParam<int> {};

// Instances per number of jobs (each searched 60 times), fewer of the larger; machines 1 to
// 6 in turn.
TEST_P(GpuEmulatedDifferential, MatchesBruteForceAndTheSequentialCounts) {
  const int jobs = GetParam();
  std::mt19937 rng(2000 + jobs);
  const int per_jobs[] = {0, 12, 12, 10, 8, 6, 4, 3, 2};
  const int cases = per_jobs[jobs] * testing::differential_scale();
  for (int seed = 0; seed < cases; ++seed) {
    expect_exact(testing::differential_instance(seed, jobs, 1 + seed % 6), rng);
    if (HasFatalFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Jobs, GpuEmulatedDifferential, ::testing::Range(1, 9),
                         [](const auto& info) { return std::to_string(info.param) + "Jobs"; });

}  // namespace
}  // namespace permbb::gpu
