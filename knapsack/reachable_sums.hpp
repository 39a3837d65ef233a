#pragma once
// The subset sums of a set of items, kept as disjoint weight intervals, each with a bound on
// the profit of the subsets whose weight falls in it: the relaxation of the dynamic program
// over capacities that the expanding-core search uses for two bounds.
//
// Excess: for a ratio r = r_p / r_w >= 0, a subset y earns p(y) = r w(y) + Σ_y (p_i - r w_i);
// each interval keeps the largest excess (the sum, scaled by r_w) of the subsets it holds, so
// a subset of weight at most `room` earns at most max over the intervals [lo, hi] with
// lo <= room of r min(hi, room) + excess. With one interval this is the Lagrangian bound of
// Martello & Toth (1990, §2.2) at r; with no interval merged it is the dynamic program itself.
// Intervals that overlap or touch are joined (the excess the larger), and when they become
// more than `max_intervals` the closest ones are joined too: the set only grows, so both
// bounds below stay valid.
//
// 1. The capacity: no feasible solution weighs more than the largest reachable weight W* <= c,
//    so c may be lowered to it, an exact reformulation that the weights' greatest common
//    divisor (core_search.cpp, step 1) is the simplest case of. On Jooken, Leyman & De
//    Causmaecker's class (EJOR 2022) the big items weigh about c/2^(j+1) + εc, their sums sit
//    in narrow clusters, and W* may lie 10^5 or more below c, a gap the LP bounds do not see.
// 2. A state's completion (core_search.cpp): the items outside the core, as one such set, bound
//    what they can add to the state's fixed part within the room it leaves.
#include <cstdint>
#include <vector>

#include "core_bounds.hpp"

namespace permbb::knapsack {

// One interval of the sums: weights [lo, hi] and the largest Σ (p_i r_w - r_p w_i) of a subset
// whose weight falls in it.
struct SumInterval {
  std::int64_t lo;
  std::int64_t hi;
  WideSigned excess;
};

// The sums' arrays as plain pointers, with the queries that host and device code share (the GPU
// state merge bounds its states through them): `best_below[k]` is the largest r_p hi + excess
// of intervals 0..k.
struct ReachableSumsView {
  const SumInterval* intervals = nullptr;
  const WideSigned* best_below = nullptr;
  std::int64_t count = 0;  // 0: no sums (nothing to bound with)
  ItemRatio ratio{};
  std::int64_t capacity = 0;

  // The bound for `room` (0 <= room <= capacity) when interval k is the last one starting at or
  // below it.
  PERMBB_HD WideSigned profit_at(std::int64_t k, std::int64_t room) const {
    const SumInterval& last = intervals[k];
    WideSigned scaled = WideSigned{ratio.profit} * (last.hi < room ? last.hi : room) + last.excess;
    if (k > 0 && best_below[k - 1] > scaled) scaled = best_below[k - 1];  // they end below room
    return floor_scaled(scaled, ItemRatio{1, ratio.weight});
  }

  // ReachableSums::best_profit, by binary search over the intervals.
  PERMBB_HD WideSigned best_profit(std::int64_t room) const {
    if (room < 0) return -1;
    if (room > capacity) room = capacity;
    std::int64_t first_after = 1;  // the first interval starts at 0 <= room
    std::int64_t end = count;
    while (first_after < end) {
      const std::int64_t middle = first_after + (end - first_after) / 2;
      if (intervals[middle].lo <= room) {
        first_after = middle + 1;
      } else {
        end = middle;
      }
    }
    return profit_at(first_after - 1, room);
  }
};

class ReachableSums {
 public:
  // The subsets of items `chosen` (indices into `profits` and `weights`, weights positive) up
  // to weight `capacity`, excess at `ratio`, at most `max_intervals` (>= 2) intervals.
  // O(|chosen| max_intervals) time; the heaviest items go first, so that their sums form
  // the coarse clusters that the light items then widen, and joins happen within clusters.
  ReachableSums(const std::vector<std::int64_t>& profits, const std::vector<std::int64_t>& weights,
                const std::vector<int>& chosen, const ItemRatio& ratio, std::int64_t capacity,
                std::int64_t max_intervals);

  // The largest point of the set: at least the largest subset sum <= capacity, at most it.
  std::int64_t largest() const { return intervals_.back().hi; }
  std::int64_t intervals() const { return static_cast<std::int64_t>(intervals_.size()); }

  // At least the profit of every subset of weight <= room (room <= capacity), floored;
  // -1 when room < 0 (no subset fits).
  WideSigned best_profit(std::int64_t room) const { return view().best_profit(room); }

  ReachableSumsView view() const {
    return {intervals_.data(), best_below_.data(), intervals(), ratio_, capacity_};
  }

  // best_profit for rooms that only shrink from call to call (states in weight order), each
  // found by walking down from the last one's interval: O(1) amortised, not a binary search.
  class Walk {
   public:
    explicit Walk(const ReachableSums& sums) : sums_(&sums), at_(sums.intervals_.size() - 1) {}
    WideSigned best_profit(std::int64_t room);

   private:
    const ReachableSums* sums_;
    std::size_t at_;  // the interval of the last room
  };

  using Interval = SumInterval;

 private:
  void add_item(std::int64_t w, WideSigned excess, std::vector<Interval>& out) const;
  void coarsen();

  ItemRatio ratio_;
  std::int64_t capacity_;
  std::int64_t max_intervals_;
  std::vector<Interval> intervals_;
  std::vector<WideSigned> best_below_;  // max over intervals 0..k of r_p hi + excess
};

}  // namespace permbb::knapsack
