// The expanding-core dynamic program (core_search.hpp): its pieces by hand (the decision arena,
// one merge), then the whole search against brute force on small instances of every class
// (Jooken's included), against the dynamic program on medium ones, on edge cases, and its caps
// and time limit.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "core_bounds.hpp"
#include "core_search.hpp"
#include "decision_arena.hpp"
#include "input_error.hpp"
#include "jooken_generator.hpp"
#include "knapsack_dp.hpp"
#include "knapsack_generator.hpp"
#include "knapsack_test_support.hpp"
#include "one_item_completion.hpp"
#include "state_list.hpp"
#include "weight_class_dp.hpp"

namespace permbb::knapsack {
namespace {

using testing::brute_force_value;
using testing::expect_optimal;
using testing::make_instance;

std::vector<int> sorted(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST(DecisionArena, ChainsSurviveCompaction) {
  DecisionArena arena;
  const std::int64_t a = arena.add(DecisionArena::kRoot, 4);
  const std::int64_t b = arena.add(a, 7);
  arena.add(b, 9);  // dead
  const std::int64_t d = arena.add(a, 2);
  arena.add(DecisionArena::kRoot, 5);  // dead
  std::vector<std::int64_t> live = {d, b, DecisionArena::kRoot};
  arena.compact(live);
  EXPECT_EQ(arena.size(), 3);  // a, b, d
  EXPECT_EQ(sorted(arena.toggled(live[0])), (std::vector<int>{2, 4}));
  EXPECT_EQ(sorted(arena.toggled(live[1])), (std::vector<int>{4, 7}));
  EXPECT_EQ(live[2], DecisionArena::kRoot);
}

// The arena keeps its memory across compactions (it grows back between them; memory handed
// back costs a page fault per page when asked for again), and a second compaction, which
// reuses the first one's numbering buffer, keeps the chains right.
TEST(DecisionArena, KeepsItsMemoryAcrossCompactions) {
  DecisionArena arena;
  std::vector<std::int64_t> live;
  for (int item = 0; item < 1000; ++item) {
    const std::int64_t node = arena.add(DecisionArena::kRoot, item);
    if (item % 10 == 0) live.push_back(node);
  }
  arena.compact(live);
  ASSERT_EQ(arena.size(), 100);
  const std::int64_t held = arena.bytes();
  EXPECT_GE(held, 1000 * static_cast<std::int64_t>(sizeof(std::int32_t) + sizeof(std::int64_t)));
  for (std::int64_t& node : live) node = arena.add(node, 5000);
  arena.compact(live);
  EXPECT_EQ(arena.size(), 200);
  EXPECT_EQ(arena.bytes(), held);
  for (std::size_t k = 0; k < live.size(); ++k) {
    EXPECT_EQ(sorted(arena.toggled(live[k])), (std::vector<int>{static_cast<int>(10 * k), 5000}));
  }
}

TEST(StateList, MergeKeepsTheUndominatedStatesByHand) {
  // States (w, p): (2, 3), (5, 6), (9, 10); the item (w 3, p 4) put in gives (5, 7), (8, 10),
  // (12, 14). Merged by weight: (2,3) (5,7) [(5,6) dominated] (8,10) [(9,10) dominated]
  // (12,14). Capacity 10, no neighbour left on either side: (12, 14) is overweight for ever.
  StateList in;
  in.push(2, 3, DecisionArena::kRoot);
  in.push(5, 6, DecisionArena::kRoot);
  in.push(9, 10, DecisionArena::kRoot);
  DecisionArena arena;
  StateList out;
  const MergeOutcome outcome =
      merge_with_move(in, {0, 3, 4}, {10, std::nullopt, std::nullopt, 0}, arena, out);
  EXPECT_EQ(out.weight, (std::vector<std::int64_t>{2, 5, 8}));
  EXPECT_EQ(out.profit, (std::vector<std::int64_t>{3, 7, 10}));
  EXPECT_EQ(outcome.dominated, 2);
  EXPECT_EQ(outcome.fathomed, 1);
  EXPECT_EQ(outcome.lower, 10);
  EXPECT_EQ(outcome.best, 2);
  EXPECT_EQ(arena.toggled(out.node[2]), (std::vector<int>{0}));
  // With the ratio 1/1 next: bounds 3 + 8, 7 + 5, 10 + 2; a lower bound of 11 fathoms the
  // first, and the ones after it that do not beat 11.
  const MergeOutcome bounded =
      merge_with_move(in, {0, 3, 4}, {10, ItemRatio{1, 1}, std::nullopt, 11}, arena, out);
  EXPECT_EQ(out.weight, (std::vector<std::int64_t>{5, 8}));
  EXPECT_EQ(bounded.upper, 12);
}

TEST(StateList, AMergeGivesUpWhenAskedAndLeavesItsInputAsItWas) {
  // States (2i, 2i) for i < 3 * 2^16: moved by (w 1, p 1) they interleave with the others, so
  // the merge visits 6 * 2^16 candidates and asks `stop` at every 2^16th.
  StateList in;
  const std::int64_t states = 3 * kMergeStopInterval;
  for (std::int64_t i = 0; i < states; ++i) in.push(2 * i, 2 * i, DecisionArena::kRoot);
  const StateList copy = in;
  const MergeBounds bounds{4 * states, std::nullopt, std::nullopt, 0};
  DecisionArena arena;
  StateList whole;
  const MergeOutcome unasked = merge_with_move(in, {0, 1, 1}, bounds, arena, whole);
  EXPECT_FALSE(unasked.interrupted);
  EXPECT_EQ(whole.size(), 2 * states - 1);  // all but (0, 0), whose bound 0 is no better

  int asked = 0;
  StateList partial;
  const MergeOutcome stopped = merge_with_move(in, {0, 1, 1}, bounds, arena, partial,
                                               [&asked] { return ++asked == 2; });
  EXPECT_TRUE(stopped.interrupted);
  EXPECT_EQ(asked, 2);
  EXPECT_EQ(in.weight, copy.weight);
  EXPECT_EQ(in.profit, copy.profit);

  StateList again;
  const MergeOutcome never = merge_with_move(in, {0, 1, 1}, bounds, arena, again,
                                             [&asked] { return ++asked < 0; });
  EXPECT_FALSE(never.interrupted);
  EXPECT_EQ(asked, 2 + 6);
  EXPECT_EQ(again.weight, whole.weight);
  EXPECT_EQ(again.profit, whole.profit);
  EXPECT_EQ(never.lower, unasked.lower);
}

TEST(OneItemCompletion, BestStatePlusOneItemByHand) {
  // Sorted by ratio: 0 (p 10, w 1), 1 (9, 3), 2 (4, 2), 3 (3, 3), 4 (1, 2); the core is item
  // 2, so 0 and 1 may come out of a state, 3 and 4 go in. Capacity 8.
  const auto instance = make_instance(8, {3, 10, 1, 4, 9}, {3, 1, 2, 2, 3});
  const ItemTable items(instance);
  ASSERT_EQ(items.original_index(3), 0);
  StateList list;
  list.push(5, 20, DecisionArena::kRoot);   // room 3: item 3 in, 23
  list.push(7, 22, DecisionArena::kRoot);   // room 1: nothing fits
  list.push(9, 35, DecisionArena::kRoot);   // 1 over: item 1 (9, the least) out, 26
  list.push(10, 36, DecisionArena::kRoot);  // 2 over: item 1 out, 27, weight 7
  const OneItemCompletion completion(items, items_by_weight(items), 2, 2);
  const Completion best = completion.best(list, 8, 0);
  EXPECT_EQ(best.state, 3);
  EXPECT_EQ(best.item, 1);
  EXPECT_EQ(best.profit, 27);
  EXPECT_EQ(best.weight, 7);
  EXPECT_EQ(completion.best(list, 8, 27).state, -1);
  list.weight.resize(1);
  list.profit.resize(1);
  list.node.resize(1);
  const Completion first = completion.best(list, 8, 0);
  EXPECT_EQ(first.item, 3);
  EXPECT_EQ(first.profit, 23);
  EXPECT_EQ(first.weight, 8);
}

std::int64_t value_within(const ItemTable& items, const std::vector<int>& chosen,
                          std::int64_t capacity) {
  std::int64_t value = 0;
  std::int64_t weight = 0;
  for (const int i : chosen) {
    value += items.profits()[i];
    weight += items.weights()[i];
  }
  EXPECT_LE(weight, capacity);
  return value;
}

TEST(WeightClassDp, OneSolutionPerClassByHandAndExactWithUnitClasses) {
  // (p, w): (4, 1), (11, 9), c = 9; the optimum is the second item alone (11). With two
  // classes of width 5, the first item, taken first (the better ratio), replaces the empty
  // set in class [0, 4], and the second no longer fits on top of it: 4.
  const auto instance = make_instance(9, {4, 11}, {1, 9});
  const ItemTable items(instance);
  EXPECT_EQ(value_within(items, weight_class_solution(items, 9, 2), 9), 4);
  EXPECT_EQ(value_within(items, weight_class_solution(items, 9, 10), 9), 11);  // width 1
  int asked = 0;
  EXPECT_TRUE(weight_class_solution(items, 9, 10, [&asked] { return ++asked == 2; }).empty());
  EXPECT_EQ(asked, 2);  // before the first item, then before the second: given up
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 60; ++trial) {
    const auto random = testing::random_instance(rng, 12, 1, 1000, 0.4);
    const ItemTable table(random);
    const std::int64_t optimum = brute_force_value(random);
    EXPECT_LE(value_within(table, weight_class_solution(table, random.capacity, 1 + trial),
                           random.capacity),
              optimum)
        << trial;
    EXPECT_EQ(value_within(table, weight_class_solution(table, random.capacity,
                                                        random.capacity + 1),
                           random.capacity),
              optimum)
        << trial;
  }
}

// Optimal, proven, and the same with the one-item completion, the reachable sums (the lower
// capacity, the states' bound through the items outside the core) after every step and with
// the weight-class dynamic program from the first step (coarse, then finer). Returns how often
// the sums of the items outside the core were built, so that callers can check the bound ran.
int expect_core_optimal(const KnapsackInstance& instance, std::int64_t optimum) {
  int builds = 0;
  for (const std::int64_t completion_min_states : {std::int64_t{1024}, std::int64_t{1}}) {
    CoreSearchOptions options;
    options.completion_min_states = completion_min_states;
    if (completion_min_states == 1) {
      options.weight_class_dp_min_states = 1;
      options.weight_class_dp_bytes = 64 * instance.items();  // 512 classes at most
    }
    const CoreSearchResult result = solve_core(instance, options);
    EXPECT_TRUE(result.complete);
    EXPECT_EQ(result.upper_bound, optimum);
    expect_optimal(instance, result.solution, optimum);
    builds += result.statistics.outside_sums_builds;
  }
  return builds;
}

TEST(CoreSearch, SmallInstancesOfEveryClassAgreeWithBruteForce) {
  int instances = 0;
  int builds = 0;
  for (const InstanceClass c :
       {InstanceClass::kUncorrelated, InstanceClass::kWeaklyCorrelated,
        InstanceClass::kStronglyCorrelated, InstanceClass::kInverseStronglyCorrelated,
        InstanceClass::kSubsetSum}) {
    for (int trial = 0; trial < 60; ++trial) {
      const int n = 1 + trial % 18;
      const std::int64_t range = trial % 3 == 0 ? 20 : (trial % 3 == 1 ? 1000 : 1000000);
      KnapsackInstance instance =
          generate_instance({c, n, range, static_cast<std::uint64_t>(trial)});
      instance.capacity = instance.capacity * (1 + trial % 4) / 3;  // 1/3 .. 4/3 of half
      SCOPED_TRACE(instance.name + " capacity " + std::to_string(instance.capacity));
      builds += expect_core_optimal(instance, brute_force_value(instance));
      ++instances;
    }
  }
  EXPECT_EQ(instances, 300);
  EXPECT_GT(builds, 0);
}

TEST(CoreSearch, SmallInstancesOfPisingersHardClassesAgreeWithBruteForce) {
  int instances = 0;
  for (const std::string& name : hard_instance_class_names()) {
    const InstanceClass c = parse_instance_class(name);
    for (int trial = 0; trial < 40; ++trial) {
      const int n = 1 + trial % 18;
      const std::int64_t range = trial % 2 == 0 ? 1000 : 1000000;
      KnapsackInstance instance =
          generate_instance({c, n, range, static_cast<std::uint64_t>(trial)});
      instance.capacity = instance.capacity * (1 + trial % 4) / 3;
      SCOPED_TRACE(instance.name + " capacity " + std::to_string(instance.capacity));
      expect_core_optimal(instance, brute_force_value(instance));
      ++instances;
    }
  }
  EXPECT_EQ(instances, 7 * 40);
}

TEST(CoreSearch, SmallJookenInstancesAgreeWithBruteForce) {
  const char* capacities[] = {"1000", "1000000", "10000000000"};
  const char* epsilons[] = {"0", "0.00001", "0.01", "0.1"};
  int instances = 0;
  int builds = 0;
  for (int trial = 0; trial < 72; ++trial) {
    const int n = 8 + trial % 11;  // 8..18
    const std::string spec = "jooken," + std::to_string(n) + "," + capacities[trial % 3] + "," +
                             std::to_string(2 + trial % 4) + ",0." + std::to_string(1 + trial % 3) +
                             "," + epsilons[trial % 4] + "," + std::to_string(100 * (1 + trial % 3)) +
                             "," + std::to_string(trial);
    SCOPED_TRACE(spec);
    const KnapsackInstance instance = generate_jooken_instance(parse_jooken_spec(spec));
    builds += expect_core_optimal(instance, brute_force_value(instance));
    ++instances;
  }
  EXPECT_EQ(instances, 72);
  EXPECT_GT(builds, 0);
}

TEST(CoreSearch, MediumInstancesAgreeWithTheDynamicProgram) {
  for (const InstanceClass c :
       {InstanceClass::kUncorrelated, InstanceClass::kWeaklyCorrelated,
        InstanceClass::kStronglyCorrelated, InstanceClass::kInverseStronglyCorrelated,
        InstanceClass::kSubsetSum}) {
    for (int trial = 0; trial < 6; ++trial) {
      const int n = 60 + 50 * trial;  // 60..310
      KnapsackInstance instance =
          generate_instance({c, n, trial % 2 ? 1000 : 100, static_cast<std::uint64_t>(7 + trial)});
      instance.capacity = instance.capacity * (1 + trial % 3) / 2;
      SCOPED_TRACE(instance.name);
      expect_core_optimal(instance, solve_dp(instance).value);
    }
  }
  // Pisinger's hard classes, R = 1000: c at most about 150,000.
  for (const std::string& name : hard_instance_class_names()) {
    for (int trial = 0; trial < 3; ++trial) {
      const int n = 100 + 100 * trial;  // 100..300
      KnapsackInstance instance = generate_instance(
          {parse_instance_class(name), n, 1000, static_cast<std::uint64_t>(11 + trial)});
      instance.capacity = instance.capacity * (1 + trial) / 3;
      SCOPED_TRACE(instance.name);
      expect_core_optimal(instance, solve_dp(instance).value);
    }
  }
  // Jooken's class at a capacity the dynamic program affords (c = 10^5).
  for (int trial = 0; trial < 6; ++trial) {
    const std::string spec = "jooken," + std::to_string(60 + 40 * trial) + ",100000," +
                             std::to_string(2 + 4 * (trial % 4)) + ",0.2,0.001,100," +
                             std::to_string(trial);
    SCOPED_TRACE(spec);
    const KnapsackInstance instance = generate_jooken_instance(parse_jooken_spec(spec));
    expect_core_optimal(instance, solve_dp(instance).value);
  }
}

TEST(CoreBounds, RoundDownToMultipleOfTheProfitsDivisor) {
  EXPECT_EQ(round_down_to_multiple(10, 3), 9);
  EXPECT_EQ(round_down_to_multiple(9, 3), 9);
  EXPECT_EQ(round_down_to_multiple(0, 5), 0);
  EXPECT_EQ(round_down_to_multiple(-1, 3), -3);  // an overweight state's bound stays below
  EXPECT_EQ(round_down_to_multiple(7, 1), 7);
  const WideSigned huge = (WideSigned{1} << 100) + 5;
  EXPECT_TRUE(round_down_to_multiple(huge, 4) == (WideSigned{1} << 100) + 4);
}

TEST(CoreBounds, TheExcessLatticeRoundsOnlyLagrangianBounds) {
  // A state of profit 29 and weight 9, capacity 10, the next item (w 6, p 16) at ratio 8/3:
  // the Lagrangian bound is 29 + floor(1 * 16 / 6) = 31. Every p_i - w_i a multiple of 10:
  // P <= 10 + (a multiple of 10 at most 31 - 10) = 30.
  const ItemRatio next{16, 6};
  EXPECT_TRUE(state_bound(29, 9, 10, next, std::nullopt, ProfitLattice{}) == 31);
  EXPECT_TRUE(state_bound(29, 9, 10, next, std::nullopt, ProfitLattice{1, 10}) == 30);
  // The profits' divisor applies after it: 30 rounded down to a multiple of 4 is 28.
  EXPECT_TRUE(state_bound(29, 9, 10, next, std::nullopt, ProfitLattice{4, 10}) == 28);
  // Every later item decided: the state earns exactly its profit, 27, though 27 - 10 is no
  // multiple of 10 (its weight, 7, is below the capacity).
  EXPECT_TRUE(state_bound(27, 7, 10, std::nullopt, std::nullopt, ProfitLattice{1, 10}) == 27);
  // Overweight with nothing left to take out: below every profit.
  EXPECT_TRUE(state_bound(27, 12, 10, next, std::nullopt, ProfitLattice{1, 10}) == -1);
}

TEST(CoreSearch, ProfitsAboveTheWeightsByMultiplesAgreeWithBruteForce) {
  // p_i = w_i + g k_i, k_i in 0..5 (zeros included), the case the excess lattice rounds.
  std::mt19937_64 rng(2026);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 1 + trial % 16;
    const std::int64_t g = std::vector<std::int64_t>{2, 3, 7, 100, 1000000}[trial % 5];
    const std::int64_t range = trial % 2 == 0 ? 30 : 1000000;
    std::uniform_int_distribution<std::int64_t> weight(1, range);
    std::uniform_int_distribution<std::int64_t> multiple(0, 5);
    std::vector<std::int64_t> profits, weights;
    std::int64_t total = 0, excess_gcd = 0;
    for (int i = 0; i < n; ++i) {
      const std::int64_t k = multiple(rng);
      weights.push_back(weight(rng));
      profits.push_back(weights.back() + g * k);
      total += weights.back();
      excess_gcd = std::gcd(excess_gcd, g * k);
    }
    const KnapsackInstance instance = make_instance(total * (1 + trial % 4) / 5, profits, weights);
    SCOPED_TRACE("trial " + std::to_string(trial));
    expect_core_optimal(instance, brute_force_value(instance));
    if (std::all_of(weights.begin(), weights.end(),
                    [&](std::int64_t w) { return w <= instance.capacity; })) {
      EXPECT_EQ(solve_core(instance).statistics.excess_divisor,
                std::max<std::int64_t>(excess_gcd, 1));
    }
  }
}

TEST(CoreSearch, TheProfitsDivisorRoundsTheBoundDownToTheOptimum) {
  // Items by ratio (9, 5), (6, 4), (3, 3), c = 8, every profit a multiple of 3. The break item
  // is (6, 4); the greedy takes (9, 5) and (3, 3): 12, optimal. The break solution's bound is
  // 9 + floor(3 * 6 / 4) = 13, which rounds down to 12 = the greedy's: proved before any
  // item enters the core.
  const CoreSearchResult result = solve_core(make_instance(8, {6, 9, 3}, {4, 5, 3}), {});
  EXPECT_TRUE(result.complete);
  EXPECT_EQ(result.solution.value, 12);
  EXPECT_EQ(result.upper_bound, 12);
  EXPECT_EQ(result.statistics.profit_divisor, 3);
  EXPECT_EQ(result.statistics.core_size, 0);
  EXPECT_EQ(result.statistics.states_explored, 0);
}

TEST(CoreSearch, EdgeCases) {
  expect_core_optimal(make_instance(0, {3, 4}, {1, 2}), 0);           // c = 0
  expect_core_optimal(make_instance(4, {7, 9}, {5, 6}), 0);           // nothing fits
  expect_core_optimal(make_instance(5, {7}, {5}), 7);                 // n = 1
  expect_core_optimal(make_instance(50, {1, 2, 3, 4}, {10, 10, 10, 10}), 10);  // all fit
  expect_core_optimal(make_instance(9, {100, 9, 11, 2}, {10, 4, 5, 4}), 20);   // heavy beside
  // Twelve copies of (p 5, w 3), c = 20: six fit (ties everywhere).
  expect_core_optimal(make_instance(20, std::vector<std::int64_t>(12, 5),
                                    std::vector<std::int64_t>(12, 3)),
                      30);
  // Weights all multiples of 10, c = 25: the divisor rounds c down to 20; 6 + 5 by hand.
  const auto tens = make_instance(25, {6, 5, 4}, {10, 10, 20});
  const CoreSearchResult result = solve_core(tens);
  expect_optimal(tens, result.solution, 11);
  EXPECT_EQ(result.statistics.weight_divisor, 10);
}

TEST(CoreSearch, HugeCapacitiesAgreeWithBruteForce) {
  // Values near 10^14 .. 10^17, capacities up to about 10^18: bounds need 128-bit products.
  std::mt19937_64 rng(15);
  for (int trial = 0; trial < 40; ++trial) {
    const std::int64_t high = trial % 2 ? 100'000'000'000'000 : 100'000'000'000'000'000;
    auto instance = testing::random_instance(rng, 4 + trial % 14, high / 2, high,
                                             0.2 + 0.15 * (trial % 5));
    SCOPED_TRACE(trial);
    expect_core_optimal(instance, brute_force_value(instance));
  }
  // Two items of weight 2^62 - 1 (total 2^63 - 2), capacity 2^62: only one fits.
  const std::int64_t big = (std::int64_t{1} << 62) - 1;
  expect_core_optimal(make_instance(big + 1, {big, 1}, {big, big}), big);
}

TEST(CoreSearch, StateCapAndTimeLimit) {
  const KnapsackInstance hard =
      generate_jooken_instance(parse_jooken_spec("jooken,400,1000000000,10,0.1,0.00001,300,2"));
  // A cap stops the search as the time limit does: the best solution and the bound kept.
  CoreSearchOptions capped;
  capped.max_states = 2;
  const CoreSearchResult stopped = solve_core(hard, capped);
  EXPECT_FALSE(stopped.complete);
  EXPECT_NE(stopped.stopped_because.find("over the cap of 2 states"), std::string::npos)
      << stopped.stopped_because;
  EXPECT_EQ(stopped.stopped_because.find('\n'), std::string::npos);
  EXPECT_GE(stopped.upper_bound, stopped.solution.value);
  check_solution(hard, stopped.solution);
  EXPECT_GT(stopped.solution.value, 0);
  CoreSearchOptions timed;
  timed.time_limit_seconds = 1e-9;
  const CoreSearchResult result = solve_core(hard, timed);
  EXPECT_FALSE(result.complete);
  EXPECT_GE(result.upper_bound, result.solution.value);
  check_solution(hard, result.solution);  // feasible, adds up
  EXPECT_GT(result.solution.value, 0);
}

}  // namespace
}  // namespace permbb::knapsack
