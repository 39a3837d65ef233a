#pragma once
// Checks a StateMerger (state_list.hpp) against merge_with_move, the one-pass merge, on every
// merge it is given: the same states in the same order, the same arena nodes, the same outcome.
// Shared by the CPU tests (the ranked merge) and the GPU tests (the device merge), which run
// whole expanding-core searches through it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core_search.hpp"
#include "decision_arena.hpp"
#include "jooken_generator.hpp"
#include "knapsack_generator.hpp"
#include "reachable_sums.hpp"
#include "state_list.hpp"
#include "state_merge_ranked.hpp"

namespace permbb::knapsack::testing {

class CheckedMerger : public StateMerger {
 public:
  explicit CheckedMerger(StateMerger& tested) : tested_(tested) {}

  MergeOutcome merge(const StateList& in, const CoreMove& move, const MergeBounds& bounds,
                     DecisionArena& arena, StateList& out, const MergeStop& = {}) override {
    DecisionArena expected_arena = arena;
    StateList expected;
    const MergeOutcome want = merge_with_move(in, move, bounds, expected_arena, expected);
    const MergeOutcome got = tested_.merge(in, move, bounds, arena, out, {});
    ++merges_;
    if (in.size() > largest_input_) largest_input_ = in.size();
    EXPECT_EQ(out.weight, expected.weight) << "merge " << merges_;
    EXPECT_EQ(out.profit, expected.profit) << "merge " << merges_;
    EXPECT_EQ(out.node, expected.node) << "merge " << merges_;
    EXPECT_EQ(arena.size(), expected_arena.size()) << "merge " << merges_;
    EXPECT_EQ(got.best, want.best) << "merge " << merges_;
    EXPECT_EQ(got.lower, want.lower) << "merge " << merges_;
    EXPECT_EQ(got.upper, want.upper) << "merge " << merges_;
    EXPECT_EQ(got.dominated, want.dominated) << "merge " << merges_;
    EXPECT_EQ(got.fathomed, want.fathomed) << "merge " << merges_;
    EXPECT_FALSE(got.interrupted);
    return got;
  }

  std::int64_t merges() const { return merges_; }
  std::int64_t largest_input() const { return largest_input_; }

 private:
  StateMerger& tested_;
  std::int64_t merges_ = 0;
  std::int64_t largest_input_ = 0;
};

// merge_with_move_ranked as a StateMerger.
class RankedMerger : public StateMerger {
 public:
  MergeOutcome merge(const StateList& in, const CoreMove& move, const MergeBounds& bounds,
                     DecisionArena& arena, StateList& out, const MergeStop&) override {
    return merge_with_move_ranked(in, move, bounds, arena, out);
  }
};

// A list of `n` states free of dominance: weights and profits strictly increasing, small steps
// so that moved and unmoved states interleave and tie.
inline StateList random_list(std::mt19937_64& rng, std::int64_t n, std::int64_t step) {
  std::uniform_int_distribution<std::int64_t> next(1, step);
  StateList list;
  std::int64_t w = next(rng) - 1;
  std::int64_t p = next(rng) - 1;
  for (std::int64_t k = 0; k < n; ++k) {
    list.push(w, p, k % 3 == 0 ? DecisionArena::kRoot : k);
    w += next(rng);
    p += next(rng);
  }
  return list;
}

inline std::optional<ItemRatio> random_ratio(std::mt19937_64& rng) {
  std::uniform_int_distribution<std::int64_t> value(1, 20);
  if (value(rng) <= 4) return std::nullopt;
  return ItemRatio{value(rng), value(rng)};
}

// `trials` random lists, moves and bounds merged by `tested`, checked against the one-pass
// merge: within what the search guarantees and the rules rely on (a feasible state's bound is
// at least its profit): profits multiples of the lattice's divisor, and the items before the
// core a subset of the outside items, weighing at most the capacity. (The excess lattice needs
// states made of items: whole searches cover it.) Half the trials bound through outside sums.
inline void check_random_merges(StateMerger& tested, int trials, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  CheckedMerger checked(tested);
  int with_outside = 0;
  std::int64_t kept = 0;
  for (int trial = 0; trial < trials; ++trial) {
    const std::int64_t n = 1 + static_cast<std::int64_t>(rng() % 60);
    const std::int64_t step = 1 + static_cast<std::int64_t>(rng() % 6);
    const std::int64_t divisor = 1 + static_cast<std::int64_t>(rng() % 3);
    StateList in = random_list(rng, n, step);
    for (std::int64_t& p : in.profit) p *= divisor;
    const std::int64_t top = in.weight.back();
    const std::int64_t size = 1 + static_cast<std::int64_t>(rng() % (2 * step + 2));
    const bool put_in = rng() % 2 == 0;
    const CoreMove move{static_cast<int>(rng() % 50), put_in ? size : -size,
                        (put_in ? divisor : -divisor) *
                            static_cast<std::int64_t>(1 + rng() % (2 * step + 2))};
    MergeBounds bounds{static_cast<std::int64_t>(rng() % (top + 2)), random_ratio(rng),
                       random_ratio(rng),
                       static_cast<std::int64_t>(rng() % (in.profit.back() + 4))};
    bounds.lattice = ProfitLattice{divisor, 1};
    std::optional<ReachableSums> outside;
    if (trial % 2 == 1) {
      std::vector<std::int64_t> profits, weights;
      std::vector<int> chosen;
      for (int i = 0; i < 8; ++i) {
        weights.push_back(1 + static_cast<std::int64_t>(rng() % 12));
        profits.push_back(divisor * (1 + static_cast<std::int64_t>(rng() % 12)));
        chosen.push_back(i);
      }
      outside.emplace(profits, weights, chosen, ItemRatio{1 + static_cast<std::int64_t>(rng() % 3),
                                                          1 + static_cast<std::int64_t>(rng() % 3)},
                      std::max<std::int64_t>(bounds.capacity, 1), 2 + rng() % 6);
      bounds.outside = &*outside;
      for (int i = 0; i < static_cast<int>(rng() % 4); ++i) {
        if (bounds.fixed_weight + weights[i] > bounds.capacity) break;
        bounds.fixed_weight += weights[i];
        bounds.fixed_profit += profits[i];
      }
      ++with_outside;
    }
    SCOPED_TRACE("trial " + std::to_string(trial));
    DecisionArena arena;
    for (int k = 0; k < 10; ++k) arena.add(DecisionArena::kRoot, k);
    StateList out;
    checked.merge(in, move, bounds, arena, out);
    kept += out.size();
  }
  EXPECT_EQ(checked.merges(), trials);
  EXPECT_EQ(with_outside, trials / 2);
  EXPECT_GT(kept, 0);
}

// The search with every list of at least `min_states` states merged by `tested`, checked merge
// by merge, and once without: the same result and the same counts of states.
inline void expect_same_search(const KnapsackInstance& instance, CoreSearchOptions options,
                               StateMerger& tested, std::int64_t min_states,
                               std::int64_t& merges) {
  const CoreSearchResult plain = solve_core(instance, options);
  CheckedMerger checked(tested);
  options.merger = &checked;
  options.merger_min_states = min_states;
  const CoreSearchResult through = solve_core(instance, options);
  EXPECT_EQ(through.complete, plain.complete);
  EXPECT_EQ(through.upper_bound, plain.upper_bound);
  EXPECT_EQ(through.solution.value, plain.solution.value);
  EXPECT_EQ(through.solution.items, plain.solution.items);
  EXPECT_EQ(through.statistics.states_explored, plain.statistics.states_explored);
  EXPECT_EQ(through.statistics.states_dominated, plain.statistics.states_dominated);
  EXPECT_EQ(through.statistics.states_fathomed, plain.statistics.states_fathomed);
  EXPECT_EQ(through.statistics.merger_merges, checked.merges());
  merges += checked.merges();
}

// 28 whole searches with every merge done by `tested` (from the first list on): Jooken's class
// (c = 10^5), Pisinger's hard classes and a strongly correlated instance, each with the default
// options and with the ones that bring every bound in early (the outside items' sums from the
// first list of n states, as test_knapsack_core_search does).
inline void check_searches(StateMerger& tested) {
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
  std::int64_t merges = 0;
  for (const KnapsackInstance& instance : instances) {
    SCOPED_TRACE(instance.name);
    CoreSearchOptions options;
    expect_same_search(instance, options, tested, 1, merges);
    options.completion_min_states = 1;
    options.weight_class_dp_min_states = 1;
    options.weight_class_dp_bytes = 64 * instance.items();
    expect_same_search(instance, options, tested, 1, merges);
  }
  EXPECT_EQ(instances.size(), 14u);
  EXPECT_GT(merges, 1000);
}

}  // namespace permbb::knapsack::testing
