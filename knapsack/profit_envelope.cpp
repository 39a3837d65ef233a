#include "profit_envelope.hpp"

#include <algorithm>

namespace permbb::knapsack {

void append_to_envelope(std::vector<SumInterval>& out, const SumInterval& next) {
  if (out.empty() || next.lo > out.back().hi) {
    out.push_back(next);  // apart, or touching: the two excesses stay separate
    return;
  }
  SumInterval& last = out.back();
  const std::int64_t top = std::max(last.hi, next.hi);
  if (next.excess <= last.excess || next.lo == last.lo) {
    last.hi = top;  // next's subsets are bounded by the larger excess over the whole span
    last.excess = std::max(last.excess, next.excess);
    return;
  }
  // last's subsets below next.lo keep last's excess; from next.lo on, the larger one.
  last.hi = next.lo - 1;
  out.push_back({next.lo, top, next.excess});
}

void drop_dominated_intervals(std::vector<SumInterval>& intervals, const ItemRatio& ratio) {
  std::size_t kept = 0;
  WideSigned highest = 0;
  for (std::size_t k = 0; k < intervals.size(); ++k) {
    const WideSigned top = WideSigned{ratio.profit} * intervals[k].hi + intervals[k].excess;
    if (kept > 0 && top <= highest) continue;
    highest = kept == 0 ? top : std::max(highest, top);
    intervals[kept++] = intervals[k];
  }
  intervals.resize(kept);
}

// Joined, [lo_1, hi_2] with excess max(e_1, e_2). When e_1 >= e_2 the rooms past hi_1 gain
// r (ρ - hi_1) up to e_1 - e_2 where the second interval reaches, and r (ρ - hi_1) in the gap;
// when e_2 > e_1 the rooms from lo_1 gain e_2 - e_1, and in the gap r (ρ - hi_1) more.
WideSigned join_loss(const SumInterval& lower, const SumInterval& upper, const ItemRatio& ratio) {
  const WideSigned rate = ratio.profit;
  const WideSigned gap = rate * (upper.lo - lower.hi);
  if (lower.excess >= upper.excess) {
    return std::min(rate * (upper.hi - lower.hi), std::max(lower.excess - upper.excess, gap));
  }
  return upper.excess - lower.excess + gap;
}

void coarsen_envelope(std::vector<SumInterval>& intervals, std::int64_t keep,
                      const ItemRatio& ratio) {
  const std::size_t count = intervals.size();
  if (keep < 1 || count <= static_cast<std::size_t>(keep)) return;
  std::vector<WideSigned> losses;
  losses.reserve(count - 1);
  for (std::size_t k = 1; k < count; ++k) {
    losses.push_back(join_loss(intervals[k - 1], intervals[k], ratio));
  }
  const std::size_t joins = count - static_cast<std::size_t>(keep);
  std::nth_element(losses.begin(), losses.begin() + (joins - 1), losses.end());
  const WideSigned largest_joined = losses[joins - 1];
  std::vector<SumInterval> joined;
  joined.reserve(static_cast<std::size_t>(keep) + 1);
  for (std::size_t k = 0; k < count; ++k) {
    // The loss of each original neighbour pair, not of the growing joined interval: a chain
    // of cheap joins may cost more than its steps, but it is one pass, as the gaps' join is.
    if (k > 0 && join_loss(intervals[k - 1], intervals[k], ratio) <= largest_joined) {
      joined.back().hi = intervals[k].hi;
      joined.back().excess = std::max(joined.back().excess, intervals[k].excess);
    } else {
      joined.push_back(intervals[k]);
    }
  }
  intervals.swap(joined);
}

}  // namespace permbb::knapsack
