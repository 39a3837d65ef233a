#include "state_list.hpp"

#include <algorithm>
#include <limits>

namespace permbb::knapsack {

void StateList::clear() {
  weight.clear();
  profit.clear();
  node.clear();
}

void StateList::reserve(std::int64_t states) {
  const auto size = static_cast<std::size_t>(states);
  weight.reserve(size);
  profit.reserve(size);
  node.reserve(size);
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

MergeRule MergeBounds::rule() const {
  MergeRule rule;
  rule.state = StateBound(capacity, add, remove, lattice);
  if (outside != nullptr) rule.outside = outside->view();
  rule.fixed_weight = fixed_weight;
  rule.fixed_profit = fixed_profit;
  rule.lower = lower;
  return rule;
}

// Both inputs are sorted by weight (the moved one is the same list shifted), so one pass of a
// two-way merge visits every candidate in the order of state_merge_rules.hpp; a candidate no
// more profitable than the best seen so far is dominated, one whose bound does not beat the best
// profit so far is fathomed. The outside items' sums are walked down, the rooms only shrinking.
MergeOutcome merge_with_move(const StateList& in, const CoreMove& move, const MergeBounds& bounds,
                             DecisionArena& arena, StateList& out, const MergeStop& stop) {
  out.clear();
  MergeOutcome outcome;
  outcome.lower = bounds.lower;
  const MergeRule rule = bounds.rule();
  std::int64_t best_profit_seen = std::numeric_limits<std::int64_t>::min();
  std::optional<ReachableSums::Walk> walk;
  if (bounds.outside != nullptr) walk.emplace(*bounds.outside);
  const auto outside_best = [&walk](std::int64_t room) { return walk->best_profit(room); };
  const std::int64_t n = in.size();
  std::int64_t a = 0;  // next state left as it was
  std::int64_t b = 0;  // next state moved
  for (std::int64_t step = 1; a < n || b < n; ++step) {
    if (stop && step % kMergeStopInterval == 0 && stop()) {
      outcome.interrupted = true;
      return outcome;
    }
    const bool take_moved =
        a == n || (b < n && moved_goes_first(in.weight[b] + move.weight,
                                             in.profit[b] + move.profit, in.weight[a],
                                             in.profit[a]));
    const std::int64_t k = take_moved ? b++ : a++;
    const std::int64_t w = in.weight[k] + (take_moved ? move.weight : 0);
    const std::int64_t p = in.profit[k] + (take_moved ? move.profit : 0);
    if (p <= best_profit_seen) {
      ++outcome.dominated;
      continue;
    }
    best_profit_seen = p;
    const WideSigned bound = candidate_bound(p, w, outcome.lower, rule, outside_best);
    if (bound <= outcome.lower) {
      ++outcome.fathomed;
      continue;
    }
    outcome.upper = std::max(outcome.upper, clamp_bound(bound));
    out.push(w, p, take_moved ? arena.add(in.node[k], move.item) : in.node[k]);
    if (w <= bounds.capacity && p > outcome.lower) {
      outcome.lower = p;
      outcome.best = out.size() - 1;
    }
  }
  return outcome;
}

MergeOutcome finish_merge(const StateList& in, const CoreMove& move, std::int64_t capacity,
                          std::int64_t lower, const std::vector<std::int64_t>& sources,
                          DecisionArena& arena, StateList& out, const MergeStop& stop) {
  out.clear();
  out.reserve(static_cast<std::int64_t>(sources.size()));
  MergeOutcome outcome;
  for (std::size_t k = 0; k < sources.size(); ++k) {
    if (stop && (k + 1) % kMergeStopInterval == 0 && stop()) {
      outcome.interrupted = true;
      return outcome;
    }
    const std::int64_t source = sources[k];
    const auto i = static_cast<std::size_t>(source_state(source));
    if (is_moved_source(source)) {
      out.push(in.weight[i] + move.weight, in.profit[i] + move.profit,
               arena.add(in.node[i], move.item));
    } else {
      out.push(in.weight[i], in.profit[i], in.node[i]);
    }
  }
  outcome.lower = lower;
  // The kept states' profits increase with their weights: the best feasible one is the last
  // that fits.
  const auto fits_end = std::upper_bound(out.weight.begin(), out.weight.end(), capacity);
  const std::int64_t last_fitting = (fits_end - out.weight.begin()) - 1;
  if (last_fitting >= 0 && out.profit[static_cast<std::size_t>(last_fitting)] > lower) {
    outcome.best = last_fitting;
    outcome.lower = out.profit[static_cast<std::size_t>(last_fitting)];
  }
  return outcome;
}

}  // namespace permbb::knapsack
