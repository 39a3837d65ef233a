#include "state_list.hpp"

#include <algorithm>
#include <limits>

namespace permbb::knapsack {

void StateList::clear() {
  weight.clear();
  profit.clear();
  node.clear();
}

void StateList::push(std::int64_t w, std::int64_t p, std::int64_t n) {
  weight.push_back(w);
  profit.push_back(p);
  node.push_back(n);
}

std::int64_t StateList::bytes() const {
  return static_cast<std::int64_t>(
      (weight.capacity() + profit.capacity() + node.capacity()) * sizeof(std::int64_t));
}

namespace {

// The bound of a state through the sums of the items outside the core (MergeBounds::outside),
// for states in weight order (their rooms shrink); below every profit when its core items
// alone are over the capacity.
WideSigned outside_bound(std::int64_t profit, std::int64_t weight, const MergeBounds& bounds,
                         ReachableSums::Walk& walk) {
  const std::int64_t room = bounds.capacity - (weight - bounds.fixed_weight);
  if (room < 0) return -1;
  return WideSigned{profit} - bounds.fixed_profit + walk.best_profit(room);
}

}  // namespace

// Both inputs are sorted by weight (the moved one is the same list shifted), so one pass of a
// two-way merge visits every candidate in weight order, the more profitable first on equal
// weights; a candidate no more profitable than the best seen so far is dominated (a lighter
// or equal state earns as much). Dominance is checked before the bound: a dominated state's
// bound is at most its dominator's (neither bound increases with the weight).
MergeOutcome merge_with_move(const StateList& in, const CoreMove& move, const MergeBounds& bounds,
                             DecisionArena& arena, StateList& out, const MergeStop& stop) {
  out.clear();
  MergeOutcome outcome;
  outcome.lower = bounds.lower;
  std::int64_t best_profit_seen = std::numeric_limits<std::int64_t>::min();
  std::optional<ReachableSums::Walk> walk;
  if (bounds.outside != nullptr) walk.emplace(*bounds.outside);
  const std::int64_t n = in.size();
  std::int64_t a = 0;  // next state left as it was
  std::int64_t b = 0;  // next state moved
  for (std::int64_t step = 1; a < n || b < n; ++step) {
    if (stop && step % kMergeStopInterval == 0 && stop()) {
      outcome.interrupted = true;
      return outcome;
    }
    bool take_moved = a == n;
    if (a < n && b < n) {
      const std::int64_t wa = in.weight[a];
      const std::int64_t wb = in.weight[b] + move.weight;
      take_moved = wb < wa || (wb == wa && in.profit[b] + move.profit > in.profit[a]);
    }
    const std::int64_t k = take_moved ? b++ : a++;
    const std::int64_t w = in.weight[k] + (take_moved ? move.weight : 0);
    const std::int64_t p = in.profit[k] + (take_moved ? move.profit : 0);
    if (p <= best_profit_seen) {
      ++outcome.dominated;
      continue;
    }
    best_profit_seen = p;
    WideSigned bound =
        state_bound(p, w, bounds.capacity, bounds.add, bounds.remove, bounds.lattice);
    if (bounds.outside != nullptr && bound > outcome.lower) {
      bound = std::min(bound, bounds.lattice.round(outside_bound(p, w, bounds, *walk)));
    }
    if (bound <= outcome.lower) {
      ++outcome.fathomed;
      continue;
    }
    if (bound > outcome.upper) outcome.upper = bound;
    out.push(w, p, take_moved ? arena.add(in.node[k], move.item) : in.node[k]);
    if (w <= bounds.capacity && p > outcome.lower) {
      outcome.lower = p;
      outcome.best = out.size() - 1;
    }
  }
  return outcome;
}

}  // namespace permbb::knapsack
