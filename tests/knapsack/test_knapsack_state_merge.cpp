// The merge of the expanding-core search in its data-parallel form (state_merge_rules.hpp,
// state_merge_ranked.hpp): the places of the candidates by hand, then the ranked merge against
// the one-pass merge on random lists (every bound in play) and inside whole searches.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "reachable_sums.hpp"
#include "state_merge_check.hpp"
#include "state_merge_rules.hpp"

namespace permbb::knapsack {
namespace {

using testing::RankedMerger;

TEST(StateMergeRules, PlacesOfTheCandidatesByHand) {
  // States (2, 3), (5, 6), (9, 10); moved by (3, 4): (5, 7), (8, 10), (12, 14). The order:
  // (2,3) (5,7) (5,6) (8,10) (9,10) (12,14): the moved (5, 7) before the unmoved (5, 6), more
  // profitable at the same weight.
  const std::vector<std::int64_t> w = {2, 5, 9};
  const std::vector<std::int64_t> p = {3, 6, 10};
  const std::int64_t unmoved[] = {0, 2, 4};
  const std::int64_t moved[] = {1, 3, 5};
  for (std::int64_t i = 0; i < 3; ++i) {
    EXPECT_EQ(merged_place_unmoved(w.data(), p.data(), 3, 3, 4, i), unmoved[i]);
    EXPECT_EQ(merged_place_moved(w.data(), p.data(), 3, 3, 4, i), moved[i]);
  }
  // Taken out by (3, 3): (-1, 0), (2, 3), (6, 7). A tie in weight and profit, (2, 3) twice:
  // the unmoved one first.
  EXPECT_EQ(merged_place_moved(w.data(), p.data(), 3, -3, -3, 0), 0);
  EXPECT_EQ(merged_place_unmoved(w.data(), p.data(), 3, -3, -3, 0), 1);
  EXPECT_EQ(merged_place_moved(w.data(), p.data(), 3, -3, -3, 1), 2);
  EXPECT_EQ(merged_place_unmoved(w.data(), p.data(), 3, -3, -3, 1), 3);
  EXPECT_EQ(merged_place_moved(w.data(), p.data(), 3, -3, -3, 2), 4);
  EXPECT_EQ(merged_place_unmoved(w.data(), p.data(), 3, -3, -3, 2), 5);
  EXPECT_EQ(source_state(moved_source(7)), 7);
  EXPECT_TRUE(is_moved_source(moved_source(0)));
  EXPECT_FALSE(is_moved_source(0));
}

TEST(StateMerge, FinishingAMergeGivesUpWhenAsked) {
  // 3 * 2^16 kept states, every other one moved: the finish asks `stop` at every 2^16th.
  StateList in;
  const std::int64_t states = 3 * kMergeStopInterval;
  std::vector<std::int64_t> sources;
  for (std::int64_t i = 0; i < states; ++i) {
    in.push(2 * i, 2 * i, DecisionArena::kRoot);
    sources.push_back(i % 2 == 0 ? i : moved_source(i));
  }
  const CoreMove move{4, 1, 1};
  DecisionArena arena;
  StateList out;
  int asked = 0;
  const MergeOutcome stopped = finish_merge(in, move, 4 * states, 0, sources, arena, out,
                                            [&asked] { return ++asked == 2; });
  EXPECT_TRUE(stopped.interrupted);
  EXPECT_EQ(asked, 2);
  const MergeOutcome whole = finish_merge(in, move, 4 * states, 0, sources, arena, out,
                                          [&asked] { return ++asked < 0; });
  EXPECT_FALSE(whole.interrupted);
  EXPECT_EQ(asked, 2 + 3);
  ASSERT_EQ(out.size(), states);
  EXPECT_EQ(out.weight[1], 3);  // state 1 moved: (2, 2) + (1, 1)
  EXPECT_EQ(out.profit[1], 3);
  EXPECT_EQ(arena.toggled(out.node[1]), (std::vector<int>{4}));
  EXPECT_EQ(whole.best, states - 1);  // every state fits; the last earns the most
  EXPECT_EQ(whole.lower, 2 * (states - 1) + 1);
}

// Random lists, moves and bounds (testing::check_random_merges).
TEST(StateMerge, TheRankedMergeEqualsTheOnePassMergeOnRandomLists) {
  RankedMerger ranked;
  testing::check_random_merges(ranked, 2000, 20261126);
}

// Whole searches with every merge ranked (testing::check_searches).
TEST(StateMerge, SearchesThroughTheRankedMergeAreTheSame) {
  RankedMerger ranked;
  testing::check_searches(ranked);
}

}  // namespace
}  // namespace permbb::knapsack
