// CPU-side tests of the warp building blocks with emulated warps (tests/gpu/warp_emulation.hpp),
// each against its host reference: warp::advance against ivm::advance, the warp branching
// decision against choose_direction and needs_exact_sums, the warp LB1 against lb1.hpp, each
// for every team width (32, 16, 8 lanes: an emulated warp of that many lanes).
// test_gpu_kernels repeats the last two on a device, with teams side by side in warps.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "flowshop_tables.hpp"
#include "lb1.hpp"
#include "test_support.hpp"
#include "lb2_cases.hpp"
#include "warp_lb2.cuh"
#include "warp_branching.cuh"
#include "warp_ivm.cuh"
#include "warp_lb1.cuh"

namespace permbb::gpu {
namespace {

// A random IVM state: rows up to `line` with random pruned flags, a position inside them,
// an end vector near the position (so both results occur).
struct RandomIvm {
  RandomIvm(std::mt19937& rng, int jobs) : n(jobs), pos(n, 0), end(n, 0), dir(n, 0),
                                            matrix(ivm::matrix_cells(n)) {
    line = static_cast<int>(rng() % (n - 1));
    for (int r = 0; r <= line; ++r) {
      std::int16_t* cells = matrix.data() + ivm::row_offset(r, n);
      const int length = ivm::row_length(r, n);
      const int pruned_percent = static_cast<int>(rng() % 101);
      for (int i = 0; i < length; ++i) {
        const bool pruned = static_cast<int>(rng() % 100) < pruned_percent;
        cells[i] = static_cast<std::int16_t>(pruned ? ~i : i);
      }
      pos[r] = static_cast<int>(rng() % (length + (r == line ? 1 : 0)));
    }
    for (int i = 0; i < n; ++i) end[i] = i <= line ? pos[i] : 0;
    const int bump = static_cast<int>(rng() % (line + 1));
    if (rng() % 4 != 0) {
      end[bump] = std::min(end[bump] + 1 + static_cast<int>(rng() % 3), n - bump - 1);
      for (int i = bump + 1; i < n; ++i) end[i] = static_cast<int>(rng() % (n - i));
    }
    if (rng() % 5 == 0) {
      std::fill(end.begin(), end.end(), 0);
      end[0] = n;  // n!
    }
  }
  ivm::View<std::int16_t> view() {
    return {n, &line, pos.data(), end.data(), dir.data(), matrix.data()};
  }
  int n;
  int line = 0;
  std::vector<int> pos, end, dir;
  std::vector<std::int16_t> matrix;
};

// Runs body(std::integral_constant<int, W>) for W = 32, 16, 8.
template <class Body>
void for_each_team_width(const Body& body) {
  body(std::integral_constant<int, 32>{});
  body(std::integral_constant<int, 16>{});
  body(std::integral_constant<int, 8>{});
}

TEST(GpuEmulatedWarp, ACollectiveThatSomeLanesSkipFailsTheRunInsteadOfHanging) {
  // Divergent code on the device: lanes 0-15 shuffle, lanes 16-31 do not.
  const auto divergent = [] {
    if (emulation::lane_id() < 16) __shfl_sync(0xffffffffu, 1, 0);
  };
  try {
    emulation::run_warp(divergent);
    FAIL() << "a divergent collective went unnoticed";
  } catch (const std::logic_error& e) {
    // Lanes 16-31 finish; lane 31 hands back with lanes 0-15 still in the shuffle.
    EXPECT_NE(std::string(e.what()).find("lane 0 did not finish"), std::string::npos)
        << e.what();
  }
  // The other way round: lanes 0-15 have finished when lane 31 reaches the shuffle.
  try {
    emulation::run_warp([] {
      if (emulation::lane_id() >= 16) __shfl_sync(0xffffffffu, 1, 0);
    });
    FAIL() << "a divergent collective went unnoticed";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("lane 31 reached a collective that lane 0 never will"),
              std::string::npos)
        << e.what();
  }
  // The emulation is usable again after a failed warp.
  int sum = 0;
  emulation::run_warp([&] { sum += __shfl_sync(0xffffffffu, emulation::lane_id(), 31); });
  EXPECT_EQ(sum, 32 * 31);
}

TEST(GpuEmulatedWarp, TeamCodeRefusesAnEmulatedWarpOfAnotherWidth) {
  try {
    emulation::run_warp([] { warp::sync<16>(); });
    FAIL() << "a team of 16 ran on 32 emulated lanes";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("a team of 16 lanes ran on an emulated warp of 32"),
              std::string::npos)
        << e.what();
  }
}

TEST(GpuEmulatedWarp, TeamCollectivesStayWithinTheTeam) {
  for_each_team_width([](auto w) {
    long long total = 0;
    int last = -1;
    unsigned odd = 0;
    Time scanned = -1;
    emulation::run_warp(
        [&] {
          const int l = warp::lane<w>();
          const long long s = warp::sum<w>(static_cast<long long>(l));
          const int from_last = warp::broadcast<w>(l, w - 1);
          const unsigned bits = warp::ballot<w>(l % 2 == 1);
          Time a = 1;  // x_l = max(1, x_{l-1} + 1): l + 1
          Time b = 1;
          warp::max_plus_scan<w>(a, b);
          if (l == w - 1) {
            total = s;
            last = from_last;
            odd = bits;
            scanned = a;
          }
        },
        w);
    EXPECT_EQ(total, w * (w - 1) / 2) << "team " << w;
    EXPECT_EQ(last, w - 1);
    EXPECT_EQ(odd, (w == 32 ? 0xffffffffu : (1u << w) - 1u) & 0xaaaaaaaau);
    EXPECT_EQ(scanned, w);
  });
}

TEST(GpuEmulatedWarp, AdvanceEqualsIvmAdvanceForEveryTeamWidth) {
  std::mt19937 rng(51);
  int found = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const int n = 2 + trial % 70;
    RandomIvm cpu(rng, n);
    RandomIvm gpu = cpu;
    const bool want = ivm::advance(cpu.view());
    bool got = false;
    const auto v = gpu.view();
    for_each_team_width([&](auto w) {
      if (w != (32 >> (trial % 3))) return;
      emulation::run_warp(
          [&] {
            const bool r = warp::advance<w>(v);
            if (warp::lane<w>() == 0) got = r;
          },
          w);
    });
    ASSERT_EQ(got, want) << "trial " << trial;
    if (want) {
      ++found;
      ASSERT_EQ(gpu.line, cpu.line) << "trial " << trial;
      ASSERT_EQ(gpu.pos, cpu.pos) << "trial " << trial;
    }
  }
  EXPECT_GT(found, 300);
  EXPECT_LT(found, 2700);
}

TEST(GpuEmulatedWarp, ChooseDirectionEqualsTheHostIncludingTiesForEveryTeamWidth) {
  std::mt19937 rng(52);
  const BranchingRule rules[] = {BranchingRule::kMinMin, BranchingRule::kMinMinForwardTies,
                                 BranchingRule::kMaxSum, BranchingRule::kForward,
                                 BranchingRule::kBackward};
  for (int trial = 0; trial < 3000; ++trial) {
    const int count = 1 + static_cast<int>(rng() % 80);
    const Time base = rng() % 3 == 0 ? 2000000000 : 100;
    const int spread = 1 + static_cast<int>(rng() % 4);
    std::vector<Time> f(count), b(count);
    for (int i = 0; i < count; ++i) {
      f[i] = base + static_cast<Time>(rng() % spread);
      b[i] = base + static_cast<Time>(rng() % spread);
    }
    const BranchingRule rule = rules[trial % 5];
    const Time cutoff = trial % 7 == 0 ? kInfiniteTime : base + static_cast<Time>(rng() % 4);
    int got = -1;
    bool exact = false;
    emulation::run_warp([&] {
      const bool e = warp::needs_exact_sums(rule, f.data(), b.data(), count, cutoff);  // LB2: 32
      if (warp::lane() == 0) exact = e;
    });
    for_each_team_width([&](auto w) {
      if (w != (32 >> (trial % 3))) return;
      emulation::run_warp(
          [&] {
            const int d = warp::choose_direction<w>(rule, f.data(), b.data(), count);
            if (warp::lane<w>() == 0) got = d;
          },
          w);
    });
    ASSERT_EQ(got, choose_direction(rule, f.data(), b.data(), count)) << "trial " << trial;
    ASSERT_EQ(exact, needs_exact_sums(rule, f.data(), b.data(), count, cutoff))
        << "trial " << trial;
  }
}

TEST(GpuEmulatedWarp, Lb1SummariesBoundsAndMakespansEqualTheHostForEveryTeamWidth) {
  std::mt19937 rng(53);
  for (int trial = 0; trial < 300; ++trial) {
    const bool want_front = trial % 5 != 3;  // one direction only (Forward, Backward rules)
    const bool want_back = trial % 5 != 4;
    const int n = 2 + trial % 30;
    const int m = 1 + static_cast<int>(rng() % 75);
    const Instance inst = testing::random_instance(rng, n, m, trial % 2 ? 99 : 4);
    const FlowshopTables tables(inst);
    const FlowshopView d = tables.view();
    std::vector<int> jobs(n);
    for (int j = 0; j < n; ++j) jobs[j] = j;
    std::shuffle(jobs.begin(), jobs.end(), rng);
    const int fixed = static_cast<int>(rng() % n);
    std::vector<Time> s(3 * m), child(3 * m, -1), want(3 * m);
    lb1_root(d, s.data(), s.data() + m, s.data() + 2 * m);
    bool suffix_empty = true;
    for (int i = 0; i < fixed; ++i) {
      if (rng() % 2) {
        lb1_append_front(d, s.data(), jobs[i], s.data());
      } else {
        lb1_prepend_back(d, s.data() + m, jobs[i], s.data() + m);
        suffix_empty = false;
      }
      lb1_remove_job(d, s.data() + 2 * m, jobs[i], s.data() + 2 * m);
    }
    const int job = jobs[fixed];
    const int direction = static_cast<int>(rng() % 2);
    const int count = n - fixed;
    std::vector<std::int8_t> cells(count);
    for (int i = 0; i < count; ++i) cells[i] = static_cast<std::int8_t>(jobs[fixed + i]);
    std::vector<Time> lb_front(count, -1), lb_back(count, -1), tails(2 * m);
    Time cmax = -1;
    const Time* f = s.data();
    for_each_team_width([&](auto w) {
      if (w != (32 >> (trial % 3))) return;
      emulation::run_warp(
          [&] {
            warp::child_summary<w>(d, f, f + m, f + 2 * m, job, direction, child.data(),
                                   child.data() + m, child.data() + 2 * m);
            warp::bound_children<w>(d, f, f + m, f + 2 * m, cells.data(), count, want_front,
                                    want_back, lb_front.data(), lb_back.data(), tails.data());
            const Time c = warp::complete_makespan<w>(d, f, f + m, suffix_empty, job);
            if (warp::lane<w>() == 0) cmax = c;
          },
          w);
    });
    want = s;
    if (direction == kFront) lb1_append_front(d, f, job, want.data());
    else lb1_prepend_back(d, f + m, job, want.data() + m);
    lb1_remove_job(d, f + 2 * m, job, want.data() + 2 * m);
    ASSERT_EQ(child, want) << "trial " << trial;
    for (int i = 0; i < count; ++i) {
      ASSERT_EQ(lb_front[i], want_front ? lb1_child_front_bound(d, f, f + m, f + 2 * m, cells[i])
                                        : -1)
          << "trial " << trial;
      ASSERT_EQ(lb_back[i], want_back ? lb1_child_back_bound(d, f, f + m, f + 2 * m, cells[i])
                                      : -1)
          << "trial " << trial;
    }
    ASSERT_EQ(cmax, complete_makespan(d, f, f + m, suffix_empty, job)) << "trial " << trial;
  }
}


// One random LB2 case (testing::make_lb2_case) of n jobs and m machines on emulated lanes, in
// each variant (testing::lb2_variants, or testing::lb2_shared_variants when `shared`): the
// fixed jobs (bits or flags, the same in every lane), Johnson's sequences at the device's
// stride, the children's LB2 in both directions with and without cutoff, the cut-off ones
// redone without (MinMin's exact sums), the lb1+lb2 refinement, and one direction alone (the
// forward and backward rules) equal the host's child-by-child results
// (testing::expect_lb2_results).
void expect_lb2_equals_host(std::mt19937& rng, int trial, int n, int m, bool shared) {
  const Instance inst = testing::random_instance(rng, n, m, trial % 2 ? 99 : 5);
  const FlowshopTables tables(inst);
  const JohnsonTables johnson(inst, trial % 3 ? MachinePairs::kAll : MachinePairs::kAdjacent);
  const testing::Lb2Case c = testing::make_lb2_case(rng, tables, johnson);
  const testing::PaddedJohnson padded(johnson);
  const Time* f = c.summary.data();
  const std::vector<testing::Lb2Variant> variants =
      shared ? testing::lb2_shared_variants() : testing::lb2_variants(johnson.pair_count());
  for (const testing::Lb2Variant& variant : variants) {
    std::vector<unsigned char> scheduled(n, 7);
    std::vector<Time> exact(2 * n, -1), cut(2 * n, -1), redone(2 * n, -1), one_side(2 * n, -1);
    std::vector<Time> kept = testing::lb1_of_kept_direction(c, tables);
    std::vector<int> todo(n, -1);
    std::vector<Time> scratch(lb2_scratch_times(n, m), -7);
    std::vector<unsigned long long> lane_bits(warp::kSize);
    emulation::run_warp([&] {
      const FreeJobBits free_jobs =
          warp::mark_fixed_jobs(c.cells.data(), c.count, n, scheduled.data());
      lane_bits[warp::lane()] = free_jobs.bits;
      const warp::Lb2Node node{tables.view(),    padded.view, f, f + m, f + 2 * m,
                               scheduled.data(), free_jobs,
                               warp::lb2_scratch_at(scratch.data(), n, m), variant.shared};
      warp::bound_children_lb2(node, c.cells.data(), c.count, true, true, kInfiniteTime,
                               variant.mapping, exact.data(), n, variant.screen);
      warp::bound_children_lb2(node, c.cells.data(), c.count, true, true, c.upper_bound,
                               variant.mapping, cut.data(), n, variant.screen);
      if (warp::lane() == 0) std::copy(cut.begin(), cut.end(), redone.begin());
      __syncwarp();
      warp::bound_children_lb2(node, c.cells.data(), c.count, true, true, kInfiniteTime,
                               variant.mapping, redone.data(), n, variant.screen,
                               c.upper_bound);
      warp::refine_with_lb2(node, c.cells.data(), c.count, c.direction, c.upper_bound,
                            variant.mapping, kept.data(), todo.data(), variant.screen);
      warp::bound_children_lb2(node, c.cells.data(), c.count, c.direction == kFront,
                               c.direction == kBack, kInfiniteTime, variant.mapping,
                               one_side.data(), n, variant.screen);
    });
    const std::string where = "trial " + std::to_string(trial) + ", " + variant.name();
    ASSERT_EQ(lane_bits, std::vector<unsigned long long>(warp::kSize, lane_bits[0])) << where;
    ASSERT_TRUE(testing::fixed_jobs_match(c, scheduled, lane_bits[0])) << where;
    testing::expect_lb2_results(c, variant, exact, cut, kept, where);
    EXPECT_EQ(redone, c.lb2_exact) << where << ": the cut-off bounds redone without cutoff";
    const auto kept_half = [&](const std::vector<Time>& lb) {
      const auto first = lb.begin() + c.direction * n;
      return std::vector<Time>(first, first + c.count);
    };
    EXPECT_EQ(kept_half(one_side), kept_half(c.lb2_exact)) << where << ": one direction alone";
  }
}

// Both mappings, both pair sets and every LB2 screen (testing::lb2_variants).
TEST(GpuEmulatedWarp, Lb2BoundsEqualTheHostForEveryMappingPairSetAndScreen) {
  std::mt19937 rng(54);
  for (int trial = 0; trial < 240; ++trial) {
    const int n = testing::lb2_case_jobs(trial, 45);
    const int m = 1 + static_cast<int>(rng() % 24);
    expect_lb2_equals_host(rng, trial, n, m, false);
  }
}

// The shared pair terms (warp_lb2_shared.cuh, testing::lb2_shared_variants), on smaller
// cases: the emulated lanes switch at every collective, and each pair's terms take about 35
// collectives per 32 jobs. One trial in eight has more than kMaxFreeJobBits jobs (the flags).
TEST(GpuEmulatedWarp, Lb2SharedTermsEqualTheHostForEveryPairSet) {
  std::mt19937 rng(55);
  for (int trial = 0; trial < 48; ++trial) {
    const bool flags = trial % 8 == 7;
    const int n = flags ? kMaxFreeJobBits + 1 + trial % 6 : 2 + trial % 30;
    const int m = 1 + static_cast<int>(rng() % (flags ? 4 : 12));
    expect_lb2_equals_host(rng, trial, n, m, true);
  }
}

}  // namespace
}  // namespace permbb::gpu
