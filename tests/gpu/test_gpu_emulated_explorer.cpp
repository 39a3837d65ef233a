// CPU-side test of the device explorer: the very warp code of the exploration kernel
// (gpu/warp_explorer.cuh) and the stealing functions, run on the host with emulated warps
// (gpu/warp_emulation.hpp), rounds driven like GpuEngine's host loop. Node counts at the
// optimum must equal the sequential IvmExplorer's for every rule, placement, K and step
// count; from no bound the optimum must be found; pausing at clean points and restarting from
// the remaining intervals must count every node once. The GPU tests repeat this on a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "explorer_reference.hpp"
#include "factoradic.hpp"
#include "factoradic_mpz.hpp"
#include "flowshop_tables.hpp"
#include "ivm_explorer.hpp"
#include "johnson_tables.hpp"
#include "steal_logic.hpp"
#include "test_support.hpp"
#include "warp_explorer.cuh"
#include "work_split.hpp"

namespace permbb::gpu {
namespace {

struct Config {
  int ivms = 8;
  int steps = 3;
  Placement placement = Placement::kShared;
  double trigger = 0.8;
  int select = kSelectWarp;
  GpuMapping mapping = GpuMapping::kRemap;
};

// K IVMs in host memory, explored round by round as GpuEngine does on the device.
template <class Cell>
class EmulatedEngine {
 public:
  EmulatedEngine(const Instance& inst, BranchingRule rule, Time ub, const Config& config,
                 BoundKind bound = BoundKind::kLb1)
      : tables_(inst),
        johnson_(inst, machine_pairs_for(bound)),
        n_(inst.jobs()),
        m_(inst.machines()),
        config_(config),
        k_(config.ivms),
        line_(k_),
        state_(k_),
        pos_(k_ * n_),
        end_(k_ * n_),
        dir_(k_ * n_),
        matrix_(k_ * ivm::matrix_cells(n_)),
        stack_(3LL * k_ * n_ * m_),
        bounds_(static_cast<long long>(kBoundsPerJob) * k_ * n_),
        decomposed_(k_),
        leaves_(k_),
        best_(k_ * n_),
        length_(k_),
        claimed_(k_),
        scratch_(k_ * n_),
        min_(min_steal_digits(n_, 0)) {
    pool_ = {k_,
             n_,
             m_,
             ivm::matrix_cells(n_),
             static_cast<int>(sizeof(Cell)),
             line_.data(),
             state_.data(),
             pos_.data(),
             end_.data(),
             dir_.data(),
             matrix_.data(),
             stack_.data(),
             bounds_.data(),
             decomposed_.data(),
             leaves_.data(),
             best_.data(),
             length_.data(),
             claimed_.data(),
             scratch_.data(),
             min_.data()};
    control_.best_key = make_best_key(ub, kNoSchedule);
    params_.data = tables_.view();
    params_.rule = rule;
    params_.bound = gpu_bound_of(bound);
    params_.mapping = config.mapping;
    params_.johnson = johnson_.view();
    params_.placement = config.placement;
    params_.layout =
        make_warp_layout(n_, m_, sizeof(Cell), config.placement, params_.bound != GpuBound::kLb1);
    params_.steps = config.steps;
    params_.select = config.select;
    params_.control = &control_;
    workspace_.resize(params_.layout.bytes + 16);
  }

  void set_work(const std::vector<Interval>& intervals) {
    std::fill(state_.begin(), state_.end(), kEmpty);
    const auto pieces = split_intervals(intervals, k_);
    const auto where = spread_indices(static_cast<int>(pieces.size()), k_);
    for (size_t e = 0; e < pieces.size(); ++e) {
      from_mpz(pieces[e].begin, n_, pos_.data() + where[e] * n_);
      from_mpz(pieces[e].end, n_, end_.data() + where[e] * n_);
      state_[where[e]] = kInitializing;
    }
  }

  // One round: the exploration kernel, then the stealing phase. False when all are empty.
  bool round() {
    control_.active = 0;
    control_.length_sum = 0;
    control_.length_count = 0;
    launch(0);
    const int trigger = static_cast<int>(std::ceil(config_.trigger * k_));
    if (stealing_triggered(control_.active, trigger)) {
      for (int i = 0; i < k_; ++i) {
        length_[i] = measure_victim(pool_, i);
        if (length_[i] >= 0) control_.length_sum += length_[i], ++control_.length_count;
      }
      for (int i = 0; i < k_ && control_.length_count > 0; ++i) {
        control_.steals += steal_for(pool_, i, control_.length_sum / control_.length_count);
      }
    }
    return control_.active > 0;
  }

  void settle() { launch(1); }

  std::vector<Interval> remaining() const {
    std::vector<Interval> out;
    for (int i = 0; i < k_; ++i) {
      const int* a = pos_.data() + i * n_;
      const int* b = end_.data() + i * n_;
      if (state_[i] != kEmpty && factoradic::compare(a, b, n_) < 0) {
        out.push_back({to_mpz(a, n_), to_mpz(b, n_)});
      }
    }
    return out;
  }

  std::uint64_t decomposed() const { return sum(decomposed_); }
  std::uint64_t leaves() const { return sum(leaves_); }
  std::uint64_t steals() const { return control_.steals; }
  Time best() const { return key_value(control_.best_key); }
  std::vector<int> best_schedule() const {
    const int at = static_cast<int>(key_ivm(control_.best_key)) * n_;
    return std::vector<int>(best_.begin() + at, best_.begin() + at + n_);
  }

 private:
  static std::uint64_t sum(const std::vector<unsigned long long>& v) {
    std::uint64_t s = 0;
    for (auto x : v) s += x;
    return s;
  }

  void launch(int settle) {
    params_.settle = settle;
    std::mt19937 garbage(static_cast<unsigned>(control_.steals + 1));
    for (int i = 0; i < k_; ++i) {
      for (auto& b : workspace_) b = static_cast<unsigned char>(garbage());  // stale shared memory
      unsigned char* ws = workspace_.data();
      int state = 0;
      run(i, ws, state);
      if (state == kExploring) ++control_.active;
    }
  }

  void run(int i, unsigned char* ws, int& state) {
    if (params_.bound == GpuBound::kLb1) {
      run_with<false>(i, ws, state);
    } else {
      run_with<true>(i, ws, state);
    }
  }

  template <bool kLb2>
  void run_with(int i, unsigned char* ws, int& state) {
    const Time* times = tables_.view().times_by_job;
    const JohnsonView johnson = params_.johnson;
    switch (config_.placement) {
      case Placement::kShared:
        emulation::run_warp([&] {
          state = explore_ivm<Cell, Placement::kShared, kLb2>(pool_, params_, times, johnson,
                                                              ws, i);
        });
        break;
      case Placement::kStackGlobal:
        emulation::run_warp([&] {
          state = explore_ivm<Cell, Placement::kStackGlobal, kLb2>(pool_, params_, times,
                                                                   johnson, ws, i);
        });
        break;
      default:
        emulation::run_warp([&] {
          state = explore_ivm<Cell, Placement::kGlobal, kLb2>(pool_, params_, times, johnson,
                                                              ws, i);
        });
    }
  }

  FlowshopTables tables_;
  JohnsonTables johnson_;
  int n_, m_;
  Config config_;
  int k_;
  std::vector<int> line_, state_, pos_, end_, dir_;
  std::vector<Cell> matrix_;
  std::vector<Time> stack_, bounds_;
  std::vector<unsigned long long> decomposed_, leaves_;
  std::vector<int> best_;
  std::vector<double> length_;
  std::vector<int> claimed_, scratch_, min_;
  std::vector<unsigned char> workspace_;
  PoolView pool_;
  Control control_;
  ExploreParams params_;
};

const BranchingRule kRules[] = {BranchingRule::kMinMin, BranchingRule::kMinMinForwardTies,
                                BranchingRule::kMaxSum, BranchingRule::kForward,
                                BranchingRule::kBackward};
const Placement kPlacements[] = {Placement::kShared, Placement::kStackGlobal, Placement::kGlobal};

template <class Cell>
void expect_counts_equal(int seed, int trials, int min_n, int max_n) {
  std::mt19937 rng(seed);
  std::uint64_t steals = 0;
  std::uint64_t nodes = 0;
  for (int trial = 0; trial < trials; ++trial) {
    const int n = min_n + trial % (max_n - min_n + 1);
    const Instance inst = testing::random_instance(rng, n, 1 + static_cast<int>(rng() % 40));
    const BranchingRule rule = kRules[trial % 5];
    const Time optimum = testing::brute_force_optimum(inst);
    const auto cpu = testing::sequential_search(inst, {BoundKind::kLb1, rule}, optimum);
    const int ivms[] = {1, 5, 16, 64};
    Config config{ivms[trial % 4], 1 + static_cast<int>(rng() % 9), kPlacements[trial % 3],
                  trial % 2 ? 0.8 : 1.0, (trial / 2) % 2 ? kSelectLane0 : kSelectWarp};
    EmulatedEngine<Cell> gpu(inst, rule, optimum, config);
    gpu.set_work({Interval{0, permbb::factorial(n)}});
    int rounds = 0;
    while (gpu.round()) ASSERT_LT(++rounds, 1000000);
    ASSERT_EQ(gpu.decomposed(), cpu.nodes.decomposed)
        << "trial " << trial << " n " << n << " K " << config.ivms << " steps " << config.steps;
    EXPECT_EQ(gpu.leaves(), cpu.nodes.leaves);
    EXPECT_EQ(gpu.best(), optimum);
    steals += gpu.steals();
    nodes += gpu.decomposed();
  }
  EXPECT_GT(steals, 0u) << "stealing was never exercised";
  std::printf("%llu nodes, %llu steals\n", static_cast<unsigned long long>(nodes),
              static_cast<unsigned long long>(steals));
}

TEST(GpuEmulatedExplorer, NodeCountsEqualTheCpuAtTheOptimum) {
  expect_counts_equal<std::int8_t>(41, 60, 2, 8);
}

TEST(GpuEmulatedExplorer, WideCellsCountTheSame) {
  expect_counts_equal<std::int16_t>(42, 15, 3, 7);
}

// The LB2 kernels (lb2, lb2-adjacent, lb1+lb2), both mappings: counts equal the CPU's.
TEST(GpuEmulatedExplorer, Lb2CountsEqualTheCpuForEveryBoundAndMapping) {
  std::mt19937 rng(45);
  const BoundKind bounds[] = {BoundKind::kLb2, BoundKind::kLb2Adjacent, BoundKind::kLb1ThenLb2};
  for (int trial = 0; trial < 48; ++trial) {
    const int n = 3 + trial % 6;
    const Instance inst = testing::random_instance(rng, n, 2 + static_cast<int>(rng() % 12));
    const BranchingRule rule = kRules[trial % 5];
    const BoundKind bound = bounds[trial % 3];
    const Time optimum = testing::brute_force_optimum(inst);
    const auto cpu = testing::sequential_search(inst, {bound, rule}, optimum);
    Config config{1 + static_cast<int>(rng() % 12), 1 + static_cast<int>(rng() % 9),
                  kPlacements[(trial / 3) % 3], 0.8, kSelectWarp,
                  (trial / 9) % 2 ? GpuMapping::kStatic : GpuMapping::kRemap};
    EmulatedEngine<std::int8_t> gpu(inst, rule, optimum, config, bound);
    gpu.set_work({Interval{0, permbb::factorial(n)}});
    int rounds = 0;
    while (gpu.round()) ASSERT_LT(++rounds, 1000000);
    ASSERT_EQ(gpu.decomposed(), cpu.nodes.decomposed)
        << "trial " << trial << " bound " << to_string(bound) << " rule " << to_string(rule);
    EXPECT_EQ(gpu.leaves(), cpu.nodes.leaves);
    EXPECT_EQ(gpu.best(), optimum);
  }
}

TEST(GpuEmulatedExplorer, FindsTheOptimumFromNoBound) {
  std::mt19937 rng(43);
  for (int trial = 0; trial < 40; ++trial) {
    const int n = 2 + trial % 7;
    const Instance inst = testing::random_instance(rng, n, 1 + trial % 35);
    const Time optimum = testing::brute_force_optimum(inst);
    Config config{1 + trial % 9, 2 + trial % 5, kPlacements[trial % 3], 0.8,
                  trial % 4 < 2 ? kSelectWarp : kSelectLane0};
    EmulatedEngine<std::int8_t> gpu(inst, kRules[trial % 5], kInfiniteTime, config);
    gpu.set_work({Interval{0, permbb::factorial(n)}});
    while (gpu.round()) {
    }
    ASSERT_EQ(gpu.best(), optimum) << "trial " << trial;
    EXPECT_EQ(testing::naive_makespan(inst, gpu.best_schedule()), optimum);
  }
}

TEST(GpuEmulatedExplorer, SettledRemainingIntervalsRestartWithoutDoubleCounting) {
  std::mt19937 rng(44);
  for (int trial = 0; trial < 12; ++trial) {
    const int n = 6 + trial % 3;
    const Instance inst = testing::random_instance(rng, n, 3 + trial % 5);
    const BranchingRule rule = kRules[trial % 5];
    const Time optimum = testing::brute_force_optimum(inst);
    const auto cpu = testing::sequential_search(inst, {BoundKind::kLb1, rule}, optimum);
    Config config{4 + trial % 13, 1 + trial % 3, kPlacements[trial % 3], 0.8,
                  trial % 4 < 2 ? kSelectWarp : kSelectLane0};
    std::vector<Interval> work{Interval{0, permbb::factorial(n)}};
    std::uint64_t total = 0;
    int restarts = 0;
    while (!work.empty()) {
      EmulatedEngine<std::int8_t> gpu(inst, rule, optimum, config);
      gpu.set_work(work);
      const int rounds = 1 + static_cast<int>(rng() % 3);
      bool busy = true;
      for (int r = 0; r < rounds && busy; ++r) busy = gpu.round();
      if (busy) gpu.settle();
      work = gpu.remaining();
      total += gpu.decomposed();
      ASSERT_LT(++restarts, 100000);
    }
    EXPECT_EQ(total, cpu.nodes.decomposed) << "trial " << trial << " restarts " << restarts;
  }
}

}  // namespace
}  // namespace permbb::gpu
