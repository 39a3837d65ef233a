#include "state_merge_ranked.hpp"

#include <algorithm>
#include <limits>

namespace permbb::knapsack {
namespace {

struct Candidates {
  std::vector<std::int64_t> weight;
  std::vector<std::int64_t> profit;
  std::vector<std::int64_t> source;
};

// Every state, unmoved and moved, at its place in the merged order.
Candidates place_candidates(const StateList& in, const CoreMove& move) {
  const std::int64_t n = in.size();
  Candidates placed{std::vector<std::int64_t>(2 * n), std::vector<std::int64_t>(2 * n),
                    std::vector<std::int64_t>(2 * n)};
  const auto put = [&placed](std::int64_t place, std::int64_t w, std::int64_t p,
                             std::int64_t source) {
    const auto k = static_cast<std::size_t>(place);
    placed.weight[k] = w;
    placed.profit[k] = p;
    placed.source[k] = source;
  };
  for (std::int64_t i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    put(merged_place_unmoved(in.weight.data(), in.profit.data(), n, move.weight, move.profit, i),
        in.weight[k], in.profit[k], i);
    put(merged_place_moved(in.weight.data(), in.profit.data(), n, move.weight, move.profit, i),
        in.weight[k] + move.weight, in.profit[k] + move.profit, moved_source(i));
  }
  return placed;
}

// The largest of values[0..k) at k (the lowest int64 at 0); values of candidates over the
// capacity count only when `all`.
std::vector<std::int64_t> running_maximum(const Candidates& c, std::int64_t capacity, bool all) {
  std::vector<std::int64_t> before(c.profit.size());
  std::int64_t most = std::numeric_limits<std::int64_t>::min();
  for (std::size_t k = 0; k < c.profit.size(); ++k) {
    before[k] = most;
    if (all || c.weight[k] <= capacity) most = std::max(most, c.profit[k]);
  }
  return before;
}

}  // namespace

MergeOutcome merge_with_move_ranked(const StateList& in, const CoreMove& move,
                                    const MergeBounds& bounds, DecisionArena& arena,
                                    StateList& out) {
  const MergeRule rule = bounds.rule();
  const Candidates c = place_candidates(in, move);
  const std::vector<std::int64_t> best_before = running_maximum(c, bounds.capacity, true);
  const std::vector<std::int64_t> feasible_before = running_maximum(c, bounds.capacity, false);
  const auto outside_best = [&rule](std::int64_t room) { return rule.outside.best_profit(room); };
  std::vector<std::int64_t> sources;
  std::int64_t upper = -1;
  std::int64_t dominated = 0;
  std::int64_t fathomed = 0;
  for (std::size_t k = 0; k < c.profit.size(); ++k) {
    if (c.profit[k] <= best_before[k]) {
      ++dominated;
      continue;
    }
    const std::int64_t lower = std::max(bounds.lower, feasible_before[k]);
    const WideSigned bound = candidate_bound(c.profit[k], c.weight[k], lower, rule, outside_best);
    if (bound <= lower) {
      ++fathomed;
      continue;
    }
    upper = std::max(upper, clamp_bound(bound));
    sources.push_back(c.source[k]);
  }
  MergeOutcome outcome =
      finish_merge(in, move, bounds.capacity, bounds.lower, sources, arena, out);
  outcome.upper = upper;
  outcome.dominated = dominated;
  outcome.fathomed = fathomed;
  return outcome;
}

}  // namespace permbb::knapsack
