// The subset sums kept as a profit envelope (profit_envelope.hpp, SumsKeep::kProfitEnvelope):
// the split, the dropping and the join's loss by hand; the bound against brute force over
// every subset, never below the most profitable subset within a room, and exact for any
// weights when nothing is joined for the count.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

#include "profit_envelope.hpp"
#include "reachable_sums.hpp"

namespace permbb::knapsack {
namespace {

bool same(const SumInterval& a, const SumInterval& b) {
  return a.lo == b.lo && a.hi == b.hi && a.excess == b.excess;
}

TEST(ProfitEnvelope, OverlapsSplitWhereTheRicherIntervalStarts) {
  std::vector<SumInterval> out{{0, 10, 5}};
  append_to_envelope(out, {4, 12, 9});  // richer: [0, 3] keeps 5, [4, 12] takes 9
  ASSERT_EQ(out.size(), 2u);
  EXPECT_TRUE(same(out[0], {0, 3, 5}));
  EXPECT_TRUE(same(out[1], {4, 12, 9}));
  append_to_envelope(out, {6, 14, 2});  // poorer: absorbed, the span grows to 14
  ASSERT_EQ(out.size(), 2u);
  EXPECT_TRUE(same(out[1], {4, 14, 9}));
  append_to_envelope(out, {15, 15, 1});  // touching only: kept apart
  ASSERT_EQ(out.size(), 3u);
  EXPECT_TRUE(same(out[2], {15, 15, 1}));
  append_to_envelope(out, {15, 20, 4});  // same start: one interval, the larger excess
  ASSERT_EQ(out.size(), 3u);
  EXPECT_TRUE(same(out[2], {15, 20, 4}));
}

TEST(ProfitEnvelope, IntervalsThatRaiseNoRoomAreDropped) {
  // Ratio 1: tops hi + excess are 0, -5, 8, 8, 9.
  std::vector<SumInterval> intervals{{0, 0, 0}, {5, 5, -10}, {7, 7, 1}, {9, 10, -2}, {12, 12, -3}};
  drop_dominated_intervals(intervals, ItemRatio{1, 1});
  ASSERT_EQ(intervals.size(), 3u);
  EXPECT_TRUE(same(intervals[0], {0, 0, 0}));
  EXPECT_TRUE(same(intervals[1], {7, 7, 1}));
  EXPECT_TRUE(same(intervals[2], {12, 12, -3}));
}

TEST(ProfitEnvelope, JoinLossByHand) {
  // [0, 4] excess 10 and [6, 9] excess 2 at ratio 1: joined [0, 9] excess 10 bounds room 9 by
  // 19, where the two gave max(4 + 10, 9 + 2) = 14: a loss of 5.
  EXPECT_EQ(join_loss({0, 4, 10}, {6, 9, 2}, ItemRatio{1, 1}), 5);
  // [0, 4] excess 2 and [6, 9] excess 10: room 5 went 4 + 2 = 6, joined 5 + 10 = 15: 9, at
  // most 10 - 2 + 2 (the gap's rooms counted to 6).
  EXPECT_EQ(join_loss({0, 4, 2}, {6, 9, 10}, ItemRatio{1, 1}), 10);
  // Ratio 3 / 2 (excess scaled by 2): the gap of 2 costs 3 * 2 against an excess step of 1.
  EXPECT_EQ(join_loss({0, 4, 7}, {6, 9, 6}, ItemRatio{3, 2}), 6);
}

TEST(ProfitEnvelope, CoarseningKeepsTheRequestedCount) {
  std::vector<SumInterval> intervals;
  for (std::int64_t k = 0; k < 100; ++k) intervals.push_back({10 * k, 10 * k + 3, k % 7});
  coarsen_envelope(intervals, 10, ItemRatio{1, 1});
  EXPECT_LE(intervals.size(), 10u);
  EXPECT_EQ(intervals.front().lo, 0);
  EXPECT_EQ(intervals.back().hi, 993);
  for (std::size_t k = 1; k < intervals.size(); ++k) EXPECT_GT(intervals[k].lo, intervals[k - 1].hi);
}

std::int64_t brute_force_profit(const std::vector<std::int64_t>& p,
                                const std::vector<std::int64_t>& w, std::int64_t room) {
  std::int64_t best = 0;
  const int n = static_cast<int>(w.size());
  for (std::uint32_t mask = 0; mask < (1u << n); ++mask) {
    std::int64_t weight = 0, profit = 0;
    for (int i = 0; i < n; ++i) {
      if ((mask >> i & 1u) == 0) continue;
      weight += w[i];
      profit += p[i];
    }
    if (weight <= room) best = std::max(best, profit);
  }
  return best;
}

TEST(ProfitEnvelope, NeverBelowTheBestSubsetAndExactUnjoinedAgainstBruteForce) {
  std::mt19937_64 rng(53);
  int exact_checks = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 1 + trial % 13;
    const std::int64_t top = trial % 3 == 0 ? 20 : trial % 3 == 1 ? 1000 : 1000000;
    std::uniform_int_distribution<std::int64_t> draw(1, top);
    std::vector<std::int64_t> w, p;
    std::int64_t total = 0;
    for (int i = 0; i < n; ++i) {
      w.push_back(draw(rng));
      p.push_back(draw(rng));
      total += w.back();
    }
    std::vector<int> all(w.size());
    std::iota(all.begin(), all.end(), 0);
    const std::int64_t capacity = std::uniform_int_distribution<std::int64_t>(0, total)(rng);
    const ItemRatio ratio{draw(rng), draw(rng)};
    const std::vector<std::int64_t> rooms = {0, capacity / 3, capacity / 2, capacity - 1, capacity};
    for (const std::int64_t intervals : {2, 3, 8, 1 << 15}) {
      const ReachableSums sums(p, w, all, ratio, capacity, intervals, SumsKeep::kProfitEnvelope);
      for (const std::int64_t room : rooms) {
        if (room < 0) continue;
        const std::int64_t exact = brute_force_profit(p, w, room);
        EXPECT_GE(sums.best_profit(room), exact) << trial << " " << intervals << " " << room;
        if (intervals == 1 << 15) {
          EXPECT_EQ(sums.best_profit(room), exact) << trial << " " << room;
          ++exact_checks;
        }
      }
    }
  }
  EXPECT_GT(exact_checks, 1000);
}

TEST(ProfitEnvelope, HasNoLargestWeightAndNeedsAPositiveRatio) {
  const ReachableSums sums({7, 9}, {6, 10}, {0, 1}, ItemRatio{1, 1}, 16, 1024,
                           SumsKeep::kProfitEnvelope);
  EXPECT_EQ(sums.best_profit(12), 9);  // within 12 the best is the item of weight 10 alone
  EXPECT_THROW(static_cast<void>(sums.largest()), std::logic_error);
  EXPECT_THROW(ReachableSums({7}, {6}, {0}, ItemRatio{0, 1}, 16, 1024, SumsKeep::kProfitEnvelope),
               std::logic_error);
}

}  // namespace
}  // namespace permbb::knapsack
