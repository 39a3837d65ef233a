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

#include "jooken_generator.hpp"
#include "knapsack_generator.hpp"
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

// Random lists, moves and bounds (testing::check_random_merges).
TEST(StateMerge, TheRankedMergeEqualsTheOnePassMergeOnRandomLists) {
  RankedMerger ranked;
  testing::check_random_merges(ranked, 2000, 20261126);
}

// Whole searches with every merge ranked (from the first list on), the default options and
// the ones that bring every bound in early (the outside items' sums from the first list of n
// states, as test_knapsack_core_search does).
TEST(StateMerge, SearchesThroughTheRankedMergeAreTheSame) {
  RankedMerger ranked;
  std::int64_t merges = 0;
  std::vector<KnapsackInstance> instances;
  for (int trial = 0; trial < 6; ++trial) {
    instances.push_back(generate_jooken_instance(parse_jooken_spec(
        "jooken," + std::to_string(60 + 40 * trial) + ",100000," +
        std::to_string(2 + 4 * (trial % 4)) + ",0.2,0.001,100," + std::to_string(trial))));
  }
  for (const std::string& name : hard_instance_class_names()) {
    instances.push_back(generate_instance({parse_instance_class(name), 200, 1000, 3}));
  }
  instances.push_back(generate_instance({InstanceClass::kStronglyCorrelated, 300, 1000, 5}));
  for (const KnapsackInstance& instance : instances) {
    SCOPED_TRACE(instance.name);
    CoreSearchOptions options;
    testing::expect_same_search(instance, options, ranked, 1, merges);
    options.completion_min_states = 1;
    options.weight_class_dp_min_states = 1;
    options.weight_class_dp_bytes = 64 * instance.items();
    testing::expect_same_search(instance, options, ranked, 1, merges);
  }
  EXPECT_GT(merges, 1000);
}

}  // namespace
}  // namespace permbb::knapsack
