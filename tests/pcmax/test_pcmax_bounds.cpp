// The lower bounds of lower_bounds.hpp: hand-worked values, and never above the optimum of a
// brute-force branch-and-bound (pcmax_test_support.hpp) on many small instances.
#include <gtest/gtest.h>

#include <random>

#include "lower_bounds.hpp"
#include "pcmax_test_support.hpp"

namespace permbb::pcmax {
namespace {

using testing::exact_makespan;
using testing::random_instance;

TEST(LowerBounds, HandWorkedValues) {
  // m = 2, times 5 5 5: two of the three longest share a machine, 5 + 5.
  LowerBounds b = compute_lower_bounds({"a", 2, {5, 5, 5}});
  EXPECT_EQ(b.simple, 8);
  EXPECT_EQ(b.counting, 10);
  // m = 2, times 6 5 4 3 2 1 (sorted): k = 1: t2 + t3 = 9; k = 2: t3 + t4 + t5 = 9.
  b = compute_lower_bounds({"b", 2, {1, 2, 3, 4, 5, 6}});
  EXPECT_EQ(b.counting, 9);
  EXPECT_EQ(b.simple, 11);
}

TEST(BinPackingBound, HandWorkedValues) {
  // Capacity 10: three jobs above 5 need three bins.
  EXPECT_EQ(bin_packing_bound({6, 6, 6}, 10), 3);
  // 7 7 4 4: K = 4 puts the 7s in J1 (t > 6), the 4s in J3: 2 + ceil(8 / 10) = 3.
  EXPECT_EQ(bin_packing_bound({7, 7, 4, 4}, 10), 3);
  // 7 7 3 3: the 3s fit beside the 7s: 2.
  EXPECT_EQ(bin_packing_bound({7, 7, 3, 3}, 10), 2);
  // 5 5 5: none above C/2 = 5, the volume 15 needs 2 bins (5 + 5, 5).
  EXPECT_EQ(bin_packing_bound({5, 5, 5}, 10), 2);
  // Five 4s: only the volume, ceil(20 / 10) = 2 (three bins are needed).
  EXPECT_EQ(bin_packing_bound({4, 4, 4, 4, 4}, 10), 2);
  // A job longer than the capacity: more bins than jobs.
  EXPECT_EQ(bin_packing_bound({11, 2}, 10), 3);
}

TEST(LowerBounds, NeverAboveTheBruteForceOptimum) {
  std::mt19937_64 rng(17);
  int bin_packing_best = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const int machines = 2 + trial % 4;
    const std::int64_t top = trial % 3 == 0 ? 20 : 100;
    const PcmaxInstance instance = random_instance(rng, machines + 1 + trial % 8, machines, top);
    const Duration opt = exact_makespan(instance.times, machines);
    const LowerBounds b = compute_lower_bounds(instance);
    EXPECT_LE(b.simple, opt);
    EXPECT_LE(b.counting, opt);
    EXPECT_LE(b.bin_packing, opt) << "trial " << trial;
    EXPECT_EQ(b.best(), std::max({b.simple, b.counting, b.bin_packing}));
    if (b.bin_packing > std::max(b.simple, b.counting)) ++bin_packing_best;
    // At every capacity below OPT the bin-packing bound may say "more than m" or not; at OPT
    // and above it must not.
    const std::vector<Duration> sorted = times_longest_first(instance);
    EXPECT_LE(bin_packing_bound(sorted, opt), machines);
  }
  EXPECT_GT(bin_packing_best, 0);  // the ascent does raise the bound on some of them
}

}  // namespace
}  // namespace permbb::pcmax
