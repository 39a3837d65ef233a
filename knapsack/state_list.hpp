#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "core_bounds.hpp"
#include "decision_arena.hpp"
#include "reachable_sums.hpp"
#include "state_merge_rules.hpp"

namespace permbb::knapsack {

// The states of the expanding-core dynamic program: partial solutions (weight, profit, the
// arena node of their toggles), sorted by increasing weight with strictly increasing profit,
// so that none dominates another (Nemhauser & Ullmann 1969; Pisinger 1997, §2).
struct StateList {
  std::vector<std::int64_t> weight;
  std::vector<std::int64_t> profit;
  std::vector<std::int64_t> node;

  std::int64_t size() const { return static_cast<std::int64_t>(weight.size()); }
  bool empty() const { return weight.empty(); }
  void clear();
  void push(std::int64_t w, std::int64_t p, std::int64_t n);
  void reserve(std::int64_t states);
  // Bytes held (the vectors' capacity).
  std::int64_t bytes() const;
};

// One item entering the core: put in (+w, +p) or taken out (-w, -p) of every state.
struct CoreMove {
  int item = 0;
  std::int64_t weight = 0;  // signed change of the states' weight
  std::int64_t profit = 0;
};

// What the merge prunes against: the capacity, the ratios of the core's neighbours after the
// move (core_bounds.hpp: state_bound) and the best profit known.
struct MergeBounds {
  std::int64_t capacity = 0;
  std::optional<ItemRatio> add;
  std::optional<ItemRatio> remove;
  std::int64_t lower = 0;
  // The subset sums of (a superset of) the items outside the core, and the weight and profit
  // of the items before the core, in every state: a state's core items weigh μ - fixed_weight
  // and earn π - fixed_profit, and the outside items add at most outside->best_profit(room)
  // within the room c - (μ - fixed_weight) (reachable_sums.hpp). Null: not used.
  const ReachableSums* outside = nullptr;
  std::int64_t fixed_weight = 0;
  std::int64_t fixed_profit = 0;
  // What the profits are multiples of: bounds are rounded down to it (core_bounds.hpp).
  ProfitLattice lattice{};

  // The same in plain values, as host and device code apply it (state_merge_rules.hpp).
  MergeRule rule() const;
};

struct MergeOutcome {
  std::int64_t best = -1;       // index in the output of a feasible state that beat `lower`
  std::int64_t lower = 0;       // the best profit after the merge
  std::int64_t upper = -1;      // the largest bound of a state kept, clamped (-1: none kept)
  std::int64_t dominated = 0;   // states dropped as dominated
  std::int64_t fathomed = 0;    // states dropped by their bound
  bool interrupted = false;     // `stop` said so: `out` is partial, the rest is not valid
};

// Asked every kMergeStopInterval states whether a merge should give up (a time limit): a
// merge of millions of states takes seconds.
using MergeStop = std::function<bool()>;
inline constexpr std::int64_t kMergeStopInterval = std::int64_t{1} << 16;

// The list after the move: the states of `in` (the item left as it was) merged in weight order
// with the states of `in` moved by `move` (new arena nodes toggling the item), keeping a state
// only when its profit beats every lighter or equal state's and its bound beats the best
// profit, which rises as feasible states are met. Writes `out` (cleared first). With `stop`,
// gives up when it returns true; `in` is untouched either way.
MergeOutcome merge_with_move(const StateList& in, const CoreMove& move, const MergeBounds& bounds,
                             DecisionArena& arena, StateList& out, const MergeStop& stop = {});

// The end of a merge done elsewhere (state_merge_ranked.hpp, the GPU), which found the sources
// of the kept states (state_merge_rules.hpp: i, or ~i for state i moved), in order: writes
// them to `out`, the moved ones with new arena nodes made in that order, as merge_with_move
// makes them, and finds the best feasible state. The outcome's upper and counts are the
// caller's. `stop` as for merge_with_move (a list of tens of millions takes a second here).
MergeOutcome finish_merge(const StateList& in, const CoreMove& move, std::int64_t capacity,
                          std::int64_t lower, const std::vector<std::int64_t>& sources,
                          DecisionArena& arena, StateList& out, const MergeStop& stop = {});

// Merges long lists somewhere else than in merge_with_move's loop (the GPU), with the same
// result; `stop` as for merge_with_move, where it can be asked.
class StateMerger {
 public:
  virtual ~StateMerger() = default;
  virtual MergeOutcome merge(const StateList& in, const CoreMove& move, const MergeBounds& bounds,
                             DecisionArena& arena, StateList& out, const MergeStop& stop) = 0;
};

}  // namespace permbb::knapsack
