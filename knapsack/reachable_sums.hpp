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
  WideSigned best_profit(std::int64_t room) const;

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

  struct Interval {
    std::int64_t lo;
    std::int64_t hi;
    WideSigned excess;  // the largest Σ (p_i r_w - r_p w_i) of a subset in [lo, hi]
  };

 private:
  WideSigned profit_at(std::size_t k, std::int64_t room) const;
  void add_item(std::int64_t w, WideSigned excess, std::vector<Interval>& out) const;
  void coarsen();

  ItemRatio ratio_;
  std::int64_t capacity_;
  std::int64_t max_intervals_;
  std::vector<Interval> intervals_;
  std::vector<WideSigned> best_below_;  // max over intervals 0..k of r_p hi + excess
};

}  // namespace permbb::knapsack
