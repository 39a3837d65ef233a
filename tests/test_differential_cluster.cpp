// The cluster without MPI (cluster_simulation.hpp: the coordinator and workers keeping to
// the protocol, messages crossing at random) with real explorers in the workers (multi-core
// engines, or sequential explorers stepped a few nodes at a time), against brute force and
// the sequential explorer, for every bound and branching rule, 2 to 5 ranks (1 to 4
// workers), on random instances of 1 to 8 jobs (differential_cases.hpp): the optimum and a
// schedule that has it from no bound and from just above the optimum; no schedule from the
// optimum and below it, and there the sequential node count, however the coordinator splits
// the work.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <random>
#include <utility>

#include "cluster_simulation.hpp"
#include "differential_cases.hpp"
#include "explorer_reference.hpp"
#include "factoradic_mpz.hpp"
#include "ivm_explorer.hpp"
#include "johnson_tables.hpp"
#include "multicore_engine.hpp"
#include "test_support.hpp"

namespace permbb::cluster {
namespace {

// As WorkerLoop::absorb: the global best reaches the worker's pruning at once.
void absorb_best(Incumbent& incumbent, Time& sent_best, const Schedule& best) {
  if (!best.permutation.empty()) {
    incumbent.offer(best.permutation, best.makespan);
  } else {
    incumbent.lower_to(best.makespan);
  }
  sent_best = std::min(sent_best, best.makespan);
}

// As WorkerLoop::post_if_due: a schedule better than any sent or received goes as BEST.
std::optional<Schedule> take_better(const Incumbent& incumbent, Time& sent_best) {
  if (incumbent.value() >= sent_best || !incumbent.has_schedule()) return std::nullopt;
  sent_best = incumbent.value();
  return Schedule{incumbent.permutation(), incumbent.value()};
}

// A worker as WorkerLoop drives its engine: explores in slices (short ones here, so that the
// coordinator splits mid-search), reports the engine's remaining intervals, sends a better
// schedule of its incumbent as BEST, and prunes with the global best it receives.
class EngineWorker : public testing::SimulatedExplorer {
 public:
  EngineWorker(const Instance& inst, const SearchSettings& settings, Time upper_bound,
               int threads)
      : threads_(threads),
        incumbent_(upper_bound),
        sent_best_(upper_bound),
        engine_(inst, settings, incumbent_, options(threads)) {}

  int max_intervals() const override { return threads_; }
  void set_work(const std::vector<Interval>& intervals) override { engine_.set_work(intervals); }
  std::vector<Interval> remaining() override { return engine_.remaining(); }

  // Mostly no time at all: the threads explore at most a chunk before they see the pause,
  // so that the coordinator sees many checkpoints mid-search and splits.
  void explore(std::mt19937& rng) override {
    const double budget =
        rng() % 4 == 0 ? std::uniform_real_distribution<double>(0, 50e-6)(rng) : 0.0;
    engine_.explore(std::chrono::duration<double>(budget));
  }

  std::uint64_t take_decomposed() override {
    const std::uint64_t now = engine_.stats().nodes.decomposed;
    return now - std::exchange(counted_, now);
  }

  void absorb(const Schedule& best) override {
    absorb_best(incumbent_, sent_best_, best);
  }

  std::optional<Schedule> take_improvement(std::mt19937&) override {
    return take_better(incumbent_, sent_best_);
  }

  Schedule best() const override { return {incumbent_.permutation(), incumbent_.value()}; }

 private:
  static MulticoreOptions options(int threads) {
    MulticoreOptions options;
    options.threads = threads;
    options.min_steal_leaves = 1;
    return options;
  }

  int threads_;
  Incumbent incumbent_;
  Time sent_best_;
  MulticoreEngine engine_;
  std::uint64_t counted_ = 0;
};

// A worker exploring each interval of its unit with a sequential explorer, a few steps per
// call, and settled after each (so that its remaining work is exact, as an engine's between
// slices): many checkpoints mid-search, reproducible from the simulation's seed.
class SteppedWorker : public testing::SimulatedExplorer {
 public:
  SteppedWorker(const Instance& inst, const SearchSettings& settings, Time upper_bound,
                int max_intervals)
      : settings_(settings),
        tables_(inst),
        johnson_(inst, machine_pairs_for(settings.bound)),
        max_intervals_(max_intervals),
        incumbent_(upper_bound),
        sent_best_(upper_bound) {}

  int max_intervals() const override { return max_intervals_; }

  void set_work(const std::vector<Interval>& intervals) override {
    explorers_.clear();
    pending_ = intervals;
  }

  // Starts the pending intervals (uncounted), then a few steps on each, then settles.
  void explore(std::mt19937& rng) override {
    const int n = tables_.jobs();
    for (const Interval& x : pending_) {
      std::vector<int> begin(n);
      std::vector<int> end(n);
      from_mpz(x.begin, n, begin.data());
      from_mpz(x.end, n, end.data());
      explorers_.push_back(
          std::make_unique<IvmExplorer>(tables_, &johnson_, settings_, incumbent_));
      explorers_.back()->start(begin.data(), end.data());
    }
    pending_.clear();
    const auto steps = static_cast<std::uint64_t>(rng() % 8);
    for (auto& e : explorers_) {
      const std::uint64_t before = e->counters().decomposed;
      e->run(steps);
      e->settle();
      decomposed_ += e->counters().decomposed - before;
    }
    std::erase_if(explorers_, [](const auto& e) { return e->exhausted(); });
  }

  std::vector<Interval> remaining() override {
    std::vector<Interval> out = pending_;
    const int n = tables_.jobs();
    for (const auto& e : explorers_) {
      out.push_back({to_mpz(e->position(), n), to_mpz(e->end(), n)});
    }
    return out;
  }

  std::uint64_t take_decomposed() override { return std::exchange(decomposed_, 0); }

  void absorb(const Schedule& best) override {
    absorb_best(incumbent_, sent_best_, best);
  }

  std::optional<Schedule> take_improvement(std::mt19937&) override {
    return take_better(incumbent_, sent_best_);
  }

  Schedule best() const override { return {incumbent_.permutation(), incumbent_.value()}; }

 private:
  const SearchSettings settings_;
  const FlowshopTables tables_;
  const JohnsonTables johnson_;
  const int max_intervals_;
  Incumbent incumbent_;
  Time sent_best_;
  std::vector<Interval> pending_;
  std::vector<std::unique_ptr<IvmExplorer>> explorers_;  // in the order of their intervals
  std::uint64_t decomposed_ = 0;
};

struct ClusterRun {
  int ranks = 2;
  unsigned seed = 1;
};

// The search of `inst` by a simulated cluster; adds the coordinator's splits to `splits`.
void expect_exact(const Instance& inst, const SearchSettings& settings, Time ub, Time optimum,
                  const ClusterRun& run, std::uint64_t& splits) {
  SCOPED_TRACE(::testing::Message()
               << "from UB " << ub << ", " << permbb::testing::describe(settings) << ", "
               << run.ranks << " ranks, simulation seed " << run.seed << " on "
               << permbb::testing::describe(inst));
  testing::SimulationOptions options;
  options.jobs = inst.jobs();
  options.workers = run.ranks - 1;
  options.seed = run.seed;
  options.initial_best = {{}, ub};
  // As `permbb solve` starts, or as a restart from a one-unit checkpoint, where the first
  // worker's unit is split for the others at once.
  options.unit_per_worker = run.seed % 2 == 0;
  std::mt19937 rng(run.seed);
  std::vector<std::unique_ptr<testing::SimulatedExplorer>> workers;
  for (int w = 0; w < options.workers; ++w) {
    const int explorers = 1 + static_cast<int>(rng() % 2);
    if (rng() % 2 == 0) {
      workers.push_back(std::make_unique<EngineWorker>(inst, settings, ub, explorers));
    } else {
      workers.push_back(std::make_unique<SteppedWorker>(inst, settings, ub, explorers));
    }
  }
  testing::ClusterSimulation sim(options, std::move(workers));
  const bool ended = sim.run(1000000);
  ASSERT_FALSE(::testing::Test::HasFailure());
  ASSERT_TRUE(ended) << "deadlock or no end after " << sim.events() << " events";
  const Coordinator& c = sim.coordinator();
  splits += c.stats().splits;
  ASSERT_TRUE(c.all_work_done());
  EXPECT_EQ(c.stats().explored, permbb::factorial(inst.jobs()));
  ASSERT_EQ(permbb::testing::outcome_error(inst, optimum, ub, c.best().makespan,
                                           c.best().permutation),
            "");
  if (ub <= optimum) {  // the bound never improves: the tree is fixed
    const auto sequential = permbb::testing::sequential_search(inst, settings, ub);
    ASSERT_EQ(c.stats().decomposed, sequential.nodes.decomposed);
  }
}

class DifferentialCluster : public ::testing::TestWithParam<int> {};

// 100 instances per number of jobs (each searched about 4 times, 3,000 simulations in all),
// every bound and rule in turn, the rank count and the upper bound in turn; machines 1 to 6.
TEST_P(DifferentialCluster, MatchesBruteForceAndTheSequentialCounts) {
  const int jobs = GetParam();
  const auto all = permbb::testing::all_search_settings();
  const int cases = 5 * static_cast<int>(all.size()) * permbb::testing::differential_scale();
  int run = 0;
  std::uint64_t splits = 0;
  for (int seed = 0; seed < cases; ++seed) {
    const Instance inst = permbb::testing::differential_instance(seed, jobs, 1 + seed % 6);
    const Time optimum = permbb::testing::brute_force_optimum(inst);
    for (Time ub : permbb::testing::upper_bounds_around(optimum)) {
      expect_exact(inst, all[seed % all.size()], ub, optimum,
                   {2 + run % 4, static_cast<unsigned>(run)}, splits);
      ++run;
      if (HasFatalFailure()) return;
    }
  }
  std::printf("%d simulations, %llu splits\n", run, static_cast<unsigned long long>(splits));
  if (jobs >= 3) {
    EXPECT_GT(splits, 0u) << "the coordinator never split: exactness across splits untested";
  }
}

INSTANTIATE_TEST_SUITE_P(Jobs, DifferentialCluster, ::testing::Range(1, 9),
                         [](const auto& info) { return std::to_string(info.param) + "Jobs"; });

}  // namespace
}  // namespace permbb::cluster
