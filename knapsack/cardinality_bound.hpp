#pragma once
// Cardinality bounds and the surrogate relaxation of a cardinality constraint (Martello,
// Pisinger & Toth 1999, "Dynamic programming and strong bounds for the 0-1 knapsack problem",
// §3; Martello & Toth 1997): a global upper bound for the expanding-core search.
//
// Every feasible solution takes at most k_max items (the k_max lightest fit, one more does
// not); every solution worth more than a lower bound z takes at least k_min items (the k_min
// most profitable are worth more than z, one fewer is not). With both constraints relaxed
// into the objective (multipliers r >= 0 on the capacity, μ on the item count: μ >= 0 against
// k_max, μ < 0 against k_min),
//   F(r, μ) = r c + μ k(μ) + Σ_i max(0, p_i - μ - r w_i),  k(μ) = k_max if μ >= 0 else k_min,
// bounds every solution worth more than z (each term only grows for a feasible x). For a
// fixed μ the best r is the ratio (p_b - μ) / w_b of the break item of the items ordered by
// (p_i - μ) / w_i: Dantzig's bound of the surrogate problem with weights w_i + μ / r. F is
// convex in μ (a partial minimum of a jointly convex function, and μ k(μ) = max(μ k_max,
// μ k_min)), so μ is found by a ternary search over the integers; any μ gives a valid bound,
// evaluated exactly in 128 bits.
#include <cstdint>
#include <vector>

#include "core_bounds.hpp"

namespace permbb::knapsack {

struct CardinalityLimits {
  std::int64_t most = 0;   // k_max: no feasible solution has more items
  std::int64_t least = 0;  // k_min: no solution worth more than the lower bound has fewer
};

// k_max from the weights and the capacity; k_min from the profits and `lower` (count + 1
// when no subset is worth more than `lower`).
CardinalityLimits cardinality_limits(const std::vector<std::int64_t>& profits,
                                     const std::vector<std::int64_t>& weights,
                                     std::int64_t capacity, std::int64_t lower);

// F(r, μ) with r the break ratio of the items ordered by (p_i - μ) / w_i, floored.
// Needs Σ max(0, p_i - μ) below 2^62.
WideSigned cardinality_lagrangian_bound(const std::vector<std::int64_t>& profits,
                                        const std::vector<std::int64_t>& weights,
                                        std::int64_t capacity, const CardinalityLimits& limits,
                                        std::int64_t multiplier);

// The least F found by the search over μ: an upper bound on every solution worth more than
// `lower` (so max(lower, it) bounds the optimum). Items must each fit alone.
WideSigned cardinality_upper_bound(const std::vector<std::int64_t>& profits,
                                   const std::vector<std::int64_t>& weights,
                                   std::int64_t capacity, std::int64_t lower);

}  // namespace permbb::knapsack
