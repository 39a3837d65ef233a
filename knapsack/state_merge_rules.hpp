#pragma once
// The rules of one merge of the expanding-core search (state_list.hpp: merge_with_move), as
// functions of one candidate state, host and device: the one-pass CPU merge, its data-parallel
// form (state_merge_ranked.hpp) and the GPU merge (gpu/device_state_merge.cu) call these.
//
// A merge's candidates are the states of the list as they were ("unmoved", index i) and moved
// by the item (index j), in one order: by weight, and on equal weights the more profitable
// first, an unmoved state before a moved one as profitable. Both halves are sorted by strictly
// increasing weight, so a candidate's place in that order is its index plus the number of the
// other half's states before it, a binary search: what makes the merge data parallel.
//
// A candidate is dominated when a candidate before it earns as much (the running maximum of
// the profits before it), and fathomed when its bound does not beat the best profit known at
// its place: the merge's starting lower bound raised by every feasible candidate before it.
// Feasible candidates come first (weight order), and a feasible candidate that is not
// dominated is never fathomed (its bound is at least its profit), so that running lower bound
// is the maximum of the start and of the profits of the feasible candidates before it, again a
// running maximum: the one-pass merge and the parallel one keep the same states.
#include <cstdint>

#include "core_bounds.hpp"
#include "host_device.hpp"
#include "reachable_sums.hpp"

namespace permbb::knapsack {

// Marks a candidate's source as a moved state: source = ~i for state i moved, i when not.
PERMBB_HD std::int64_t moved_source(std::int64_t i) { return ~i; }
PERMBB_HD bool is_moved_source(std::int64_t source) { return source < 0; }
PERMBB_HD std::int64_t source_state(std::int64_t source) { return source < 0 ? ~source : source; }

// Whether the moved candidate (weight, profit) comes before the unmoved one.
PERMBB_HD bool moved_goes_first(std::int64_t moved_weight, std::int64_t moved_profit,
                                std::int64_t unmoved_weight, std::int64_t unmoved_profit) {
  return moved_weight < unmoved_weight ||
         (moved_weight == unmoved_weight && moved_profit > unmoved_profit);
}

// The place in the merged order of state i left as it was: i plus the moved states before it
// (a prefix of the moved half, the weights increasing).
PERMBB_HD std::int64_t merged_place_unmoved(const std::int64_t* weight, const std::int64_t* profit,
                                            std::int64_t count, std::int64_t move_weight,
                                            std::int64_t move_profit, std::int64_t i) {
  std::int64_t before = 0;
  std::int64_t end = count;
  while (before < end) {
    const std::int64_t j = before + (end - before) / 2;
    if (moved_goes_first(weight[j] + move_weight, profit[j] + move_profit, weight[i], profit[i])) {
      before = j + 1;
    } else {
      end = j;
    }
  }
  return i + before;
}

// The place of state j moved: j plus the unmoved states before it (a prefix of that half).
PERMBB_HD std::int64_t merged_place_moved(const std::int64_t* weight, const std::int64_t* profit,
                                          std::int64_t count, std::int64_t move_weight,
                                          std::int64_t move_profit, std::int64_t j) {
  const std::int64_t w = weight[j] + move_weight;
  const std::int64_t p = profit[j] + move_profit;
  std::int64_t before = 0;
  std::int64_t end = count;
  while (before < end) {
    const std::int64_t i = before + (end - before) / 2;
    if (!moved_goes_first(w, p, weight[i], profit[i])) {
      before = i + 1;
    } else {
      end = i;
    }
  }
  return j + before;
}

// What a merge prunes against, in plain values (MergeBounds, state_list.hpp, holds the same for
// the host): the bound between the core's neighbours, the sums of the items outside the core
// (count 0: not used) with the weight and profit of the items before the core, and the best
// profit at the start.
struct MergeRule {
  StateBound state;
  ReachableSumsView outside;
  std::int64_t fixed_weight = 0;
  std::int64_t fixed_profit = 0;
  std::int64_t lower = 0;
};

// The bound of a candidate, given the best profit at its place: between the core's neighbours,
// and, when that beats `lower`, also through the outside items' sums, whose bound for a room
// `outside_best(room)` returns (a walk on the host, a binary search on the device; it is not
// called when the core items alone are over the capacity). Neither bound grows with the
// weight, so a dominated state's bound is at most its dominator's.
template <class OutsideBest>
PERMBB_HD WideSigned candidate_bound(std::int64_t profit, std::int64_t weight, std::int64_t lower,
                                     const MergeRule& rule, OutsideBest&& outside_best) {
  WideSigned bound = rule.state.of(profit, weight);
  if (rule.outside.count == 0 || bound <= lower) return bound;
  const std::int64_t room = rule.state.capacity - (weight - rule.fixed_weight);
  const WideSigned through_outside =
      room < 0 ? WideSigned{-1}
               : rule.state.lattice.round(WideSigned{profit} - rule.fixed_profit +
                                          outside_best(room));
  return through_outside < bound ? through_outside : bound;
}

}  // namespace permbb::knapsack
