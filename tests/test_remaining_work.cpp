// The progress measures (solve/remaining_work.hpp): the remaining work as a share of the run's
// start and as log10 of its share of n!, exact far below a double's range of shares, and the
// cautious time-left estimate.
#include <gtest/gtest.h>

#include <cmath>

#include "remaining_work.hpp"

namespace permbb::solve {
namespace {

mpz_class power_of_ten(unsigned exponent) {
  mpz_class out;
  mpz_ui_pow_ui(out.get_mpz_t(), 10, exponent);
  return out;
}

TEST(RemainingWork, Log10ShareIsExactForSmallAndHugeNumbers) {
  EXPECT_NEAR(log10_share(5, 120), std::log10(5.0 / 120.0), 1e-12);
  EXPECT_NEAR(log10_share(120, 120), 0.0, 1e-12);
  // 10^30 of 10^400: a quotient no double holds (1e-370), a logarithm any double does.
  EXPECT_NEAR(log10_share(power_of_ten(30), power_of_ten(400)), -370.0, 1e-9);
  EXPECT_NEAR(log10_share(3 * power_of_ten(200), power_of_ten(203)), std::log10(3e-3), 1e-9);
}

TEST(RemainingWork, SharesOfTheRunAndOfTheSpace) {
  const RemainingWork fresh(120, 5);  // 5! = 120: a fresh run starts with the whole space
  EXPECT_DOUBLE_EQ(fresh.run_share(120), 1.0);
  EXPECT_DOUBLE_EQ(fresh.run_share(30), 0.25);
  EXPECT_NEAR(*fresh.space_log10(12), -1.0, 1e-12);
  EXPECT_FALSE(fresh.space_log10(0).has_value()) << "nothing left has no logarithm";

  const RemainingWork restarted(12, 5);  // a restart from a checkpoint with 12 of 120 left
  EXPECT_DOUBLE_EQ(restarted.run_share(12), 1.0) << "every run starts at 1";
  EXPECT_DOUBLE_EQ(restarted.run_share(3), 0.25);
  EXPECT_NEAR(*restarted.space_log10(12), -1.0, 1e-12) << "the space share is absolute";

  const RemainingWork finished(0, 5);  // restarted from a finished search
  EXPECT_DOUBLE_EQ(finished.run_share(0), 0.0);
}

TEST(TimeLeftEstimate, NoneUntilTheShareFalls) {
  TimeLeftEstimate estimate;
  EXPECT_FALSE(estimate.seconds_left().has_value());
  estimate.add(5, 1.0);
  estimate.add(10, 1.0);
  EXPECT_FALSE(estimate.rate().has_value());
  EXPECT_FALSE(estimate.seconds_left().has_value());
}

TEST(TimeLeftEstimate, SteadyFallGivesTheLinearEstimate) {
  TimeLeftEstimate estimate;
  for (int t = 10; t <= 50; t += 10) estimate.add(t, 1.0 - 0.01 * t);
  // 1 % per second, half left: 50 s.
  ASSERT_TRUE(estimate.rate().has_value());
  EXPECT_NEAR(*estimate.rate(), 0.01, 1e-12);
  EXPECT_NEAR(*estimate.seconds_left(), 50.0, 1e-9);
}

TEST(TimeLeftEstimate, TakesTheSlowestOfTheWholeRunAndItsLastTwoQuarters) {
  // Fast at first (60 % in 10 s), then slow: 1 % per 10 s. The whole-run rate (0.63 / 40 s)
  // would promise about 23 s; the recent rate, 0.001/s, gives 370 s.
  TimeLeftEstimate estimate;
  estimate.add(10, 0.40);
  estimate.add(20, 0.39);
  estimate.add(30, 0.38);
  estimate.add(40, 0.37);
  EXPECT_NEAR(*estimate.rate(), 0.001, 1e-12);
  EXPECT_NEAR(*estimate.seconds_left(), 370.0, 1e-6);

  // Slow, then a sudden drop: one pruned subtree says little of the rest, so the guess keeps
  // the slowest rate, the quarter before the drop's (0.01 in 10 s), not the whole run's.
  TimeLeftEstimate speeding;
  speeding.add(10, 0.99);
  speeding.add(20, 0.98);
  speeding.add(30, 0.97);
  speeding.add(40, 0.60);
  const double before_the_drop = (0.98 - 0.97) / 10;
  EXPECT_NEAR(*speeding.seconds_left(), 0.60 / before_the_drop, 1e-6);
}

TEST(TimeLeftEstimate, NoGuessBeforeThreeSamples) {
  TimeLeftEstimate estimate;
  estimate.add(1, 0.5);
  estimate.add(2, 0.25);
  EXPECT_TRUE(estimate.rate().has_value());
  EXPECT_FALSE(estimate.seconds_left().has_value());
}

TEST(TimeLeftEstimate, NoGuessWhileTheRateKeepsFalling) {
  // The remaining share of ta023 at --ub opt on an H200 (the progress line every 0.5 s); the
  // search ended at 5.0 s. Extrapolating any recent rate promised well under a second.
  const double seconds[] = {0.8, 1.3, 1.9, 2.4, 2.9, 3.4, 3.9, 4.4};
  const double shares[] = {0.03467, 0.0138, 0.0065, 0.003461, 0.001776, 0.0008219, 0.000308,
                           0.00008185};
  TimeLeftEstimate estimate;
  for (int i = 0; i < 8; ++i) {
    estimate.add(seconds[i], shares[i]);
    EXPECT_FALSE(estimate.seconds_left().has_value()) << "at " << seconds[i] << " s";
    EXPECT_TRUE(estimate.rate().has_value());
  }
}

TEST(TimeLeftEstimate, AStallLatelyMeansNoEstimate) {
  TimeLeftEstimate estimate;
  estimate.add(10, 0.5);
  for (int t = 20; t <= 100; t += 10) estimate.add(t, 0.4);
  EXPECT_FALSE(estimate.seconds_left().has_value());
}

}  // namespace
}  // namespace permbb::solve
