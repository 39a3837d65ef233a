// Randomized simulations of the coordinator (2022 §4.1, with deferred splits) against fake
// workers (cluster_simulation.hpp) whose explorers cut random amounts off the front of their
// intervals and sometimes split one in two (a local steal), counting one node per
// permutation; now and then they claim a random better solution.
//
// At the end the workers' explored sets are disjoint and their union is [0, n!) (or, after a
// stop, [0, n!) minus exactly the work handed back), and the coordinator's node count is
// what they explored.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "cluster_simulation.hpp"
#include "test_support.hpp"
#include "coordinator.hpp"
#include "factoradic_mpz.hpp"

namespace permbb::cluster {
namespace {

using testing::ClusterSimulation;
using testing::SimulationOptions;

bool chance(std::mt19937& rng, double p) { return std::bernoulli_distribution(p)(rng); }

// A fake explorer: what it explores is what it cuts off its intervals, one node per
// permutation. It has its own K_max (1 to 6) and claims random solutions.
class IntervalCutter : public testing::SimulatedExplorer {
 public:
  IntervalCutter(int jobs, int max_intervals) : jobs_(jobs), max_intervals_(max_intervals) {}

  int max_intervals() const override { return max_intervals_; }
  void set_work(const std::vector<Interval>& intervals) override { work_ = intervals; }
  std::vector<Interval> remaining() override { return work_; }
  std::uint64_t take_decomposed() override { return std::exchange(cut_, 0); }
  void absorb(const Schedule& best) override { best_ = std::min(best_, best.makespan); }
  Schedule best() const override { return {{}, best_}; }
  // The best solution it claimed.
  Time claimed() const { return claimed_; }

  std::optional<Schedule> take_improvement(std::mt19937& rng) override {
    if (work_.empty() || !chance(rng, 0.03)) return std::nullopt;
    std::vector<int> schedule(static_cast<std::size_t>(jobs_));
    for (int j = 0; j < jobs_; ++j) schedule[j] = j;
    std::shuffle(schedule.begin(), schedule.end(), rng);
    const Time makespan = std::uniform_int_distribution<Time>(1000, 6000)(rng);
    best_ = std::min(best_, makespan);
    claimed_ = std::min(claimed_, makespan);
    return Schedule{schedule, makespan};
  }

  // Cuts random amounts off the front of its intervals (what explorers do), sometimes
  // splits an interval in two touching ones (a local steal) within K_max.
  void explore(std::mt19937& rng) override {
    std::vector<Interval> rest;
    for (std::size_t j = 0; j < work_.size(); ++j) {
      Interval x = work_[j];
      const double step = std::uniform_real_distribution<double>(0, 1)(rng);
      if (step < 0.6) {
        const long length = x.length().get_si();
        const long most = step < 0.02 ? length : length / 48 + 1;
        const long cut = std::uniform_int_distribution<long>(0, std::min(most, length))(rng);
        x.begin += cut;
        cut_ += static_cast<std::uint64_t>(cut);
      }
      if (x.empty()) continue;
      const std::size_t after = rest.size() + 2 + (work_.size() - j - 1);
      if (chance(rng, 0.2) && x.length() >= 2 &&
          after <= static_cast<std::size_t>(max_intervals_)) {
        const mpz_class mid = x.begin + x.length() / 2;
        rest.push_back(Interval{x.begin, mid});
        x.begin = mid;
      }
      rest.push_back(x);
    }
    work_ = std::move(rest);
  }

 private:
  int jobs_;
  int max_intervals_;
  std::vector<Interval> work_;
  std::uint64_t cut_ = 0;
  Time best_ = kInfiniteTime;
  Time claimed_ = kInfiniteTime;
};

// Runs one simulation and checks it; returns the handovers its workers made.
int simulate(const SimulationOptions& options) {
  SCOPED_TRACE(::testing::Message()
               << options.jobs << " jobs, " << options.workers << " workers, seed " << options.seed
               << ", stop after " << options.stop_after);
  if (::testing::Test::HasFailure()) return 0;  // one failing simulation is enough to read
  std::mt19937 rng(options.seed + 7919u);
  std::vector<std::unique_ptr<testing::SimulatedExplorer>> explorers;
  std::vector<const IntervalCutter*> cutters;
  for (int w = 0; w < options.workers; ++w) {
    auto cutter = std::make_unique<IntervalCutter>(options.jobs,
                                                   std::uniform_int_distribution<int>(1, 6)(rng));
    cutters.push_back(cutter.get());
    explorers.push_back(std::move(cutter));
  }
  ClusterSimulation sim(options, std::move(explorers));
  const bool ended = sim.run(5000000);
  if (::testing::Test::HasFailure()) return 0;
  EXPECT_TRUE(ended) << "deadlock or no end after " << sim.events() << " events";
  if (!ended) return 0;
  const Coordinator& c = sim.coordinator();
  const mpz_class total = factorial(options.jobs);
  EXPECT_TRUE(c.finished());
  EXPECT_EQ(c.hungry_count(), 0);
  // Exact counts: the coordinator's node count is what the workers explored, and that is
  // the explored size: nothing twice.
  EXPECT_EQ(c.stats().explored, sim.explored_size());
  EXPECT_EQ(mpz_class(static_cast<unsigned long>(c.stats().decomposed)), sim.explored_size());
  std::vector<Interval> covered = sim.explored_intervals();
  if (!c.stopping()) {  // (a run may end before its planned stop)
    EXPECT_TRUE(c.all_work_done());
    EXPECT_EQ(sim.explored_size(), total);
    EXPECT_EQ(c.remaining_size(), 0);
    EXPECT_DOUBLE_EQ(c.explored_fraction(), 1.0);
    Time claimed = options.initial_best.makespan;
    for (const IntervalCutter* cutter : cutters) claimed = std::min(claimed, cutter->claimed());
    EXPECT_EQ(c.best().makespan, claimed);
    if (options.workers > 1 && options.stop_after < 0) {
      EXPECT_GT(c.stats().splits, 0u);
      EXPECT_GT(c.stats().give_requests, 0u);
    }
  } else {
    EXPECT_EQ(sim.explored_size() + c.remaining_size(), total);
    for (const WorkUnit& unit : c.unassigned()) {
      covered.insert(covered.end(), unit.intervals().begin(), unit.intervals().end());
    }
  }
  // What the workers explored (plus, after a stop, what they handed back) tiles [0, n!).
  EXPECT_TRUE(testing::tiles(covered, total));
  EXPECT_EQ(c.stats().handovers, static_cast<std::uint64_t>(sim.handovers()));
  return sim.handovers();
}

TEST(CoordinatorSimulation, EveryPermutationIsExploredExactlyOnce) {
  const auto seeds = static_cast<unsigned>(permbb::testing::scaled_trials(20));
  int handovers = 0;
  for (unsigned seed = 1; seed <= seeds; ++seed) {
    for (int workers : {1, 2, 5, 16}) handovers += simulate({7, workers, seed, {}, -1});
  }
  handovers += simulate({9, 8, 99, {}, -1});
  EXPECT_GT(handovers, 0);  // the owners' splits were exercised, not only checkpoint splits
}

// H = 1: every split and handover halves one interval, the largest, of units of up to six.
TEST(CoordinatorSimulation, HandoversOfOneIntervalAtATime) {
  CoordinatorSettings settings;
  settings.max_handover_intervals = 1;
  int handovers = 0;
  for (unsigned seed = 51; seed <= 60; ++seed) handovers += simulate({7, 5, seed, settings, -1});
  EXPECT_GT(handovers, 0);
}

TEST(CoordinatorSimulation, SplitsDownToSingleIntervals) {
  CoordinatorSettings settings;
  settings.min_split_size = 1;
  for (unsigned seed = 11; seed <= 16; ++seed) simulate({6, 4, seed, settings, -1});
}

TEST(CoordinatorSimulation, LargeMinimumSplitSize) {
  CoordinatorSettings settings;
  settings.min_split_size = 400;
  for (unsigned seed = 21; seed <= 26; ++seed) simulate({7, 6, seed, settings, -1});
}

TEST(CoordinatorSimulation, StopLosesNothingAndExploresNothingTwice) {
  for (unsigned seed = 31; seed <= 42; ++seed) {
    for (int workers : {1, 3, 8}) {
      simulate({7, workers, seed, {}, static_cast<int>(seed * 37 % 250)});
    }
  }
}

}  // namespace
}  // namespace permbb::cluster
