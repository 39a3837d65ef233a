#pragma once
// An upper bound on the largest subset sum of the weights that fits the capacity: the
// capacity the search may use in place of c, since no feasible solution weighs more.
//
// Lowering c to the largest reachable weight W* <= c changes no feasible set, so it is an
// exact reformulation; the weights' greatest common divisor (core_search.cpp, step 1) is its
// simplest case. The LP bounds fill the residual capacity at the break ratio, which on
// Jooken, Leyman & De Causmaecker's class (EJOR 2022) is far from anything the items can
// reach: their big items weigh about c/2^(j+1) + εc, so their sums sit in narrow clusters
// and W* may lie 10^5 or more below c. W* is a subset-sum problem; here it is bounded from
// above by the reachable sums kept as disjoint intervals, adjacent ones merged (the set only
// grows, so it stays a superset of the reachable sums) when they become too many.
#include <cstdint>
#include <vector>

namespace permbb::knapsack {

// The sums of subsets of `weights` that are at most `capacity`, over-approximated by at most
// `max_intervals` disjoint intervals [lo, hi] (max_intervals >= 2). Returns the largest point
// of the set: at least the largest reachable weight <= capacity, at most the capacity.
// Weights must be positive. O(n max_intervals) time.
std::int64_t reachable_weight_bound(const std::vector<std::int64_t>& weights,
                                    std::int64_t capacity, std::int64_t max_intervals);

}  // namespace permbb::knapsack
