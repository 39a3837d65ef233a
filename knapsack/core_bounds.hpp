#pragma once
// Upper bounds of the expanding-core dynamic program (core_search.hpp), exact in 128 bits.
//
// Every bound here is a Lagrangian one: for any multiplier r >= 0, the most profit of a
// solution that extends a partial one of weight μ and profit π is at most
//   π + r (c - μ) + Σ over the undecided items i of max(0, p_i - r w_i)        (taken out: the
//   item counts -p_i, -w_i, and its term is max(0, r w_i - p_i))
// (Martello & Toth 1990, §2.2; Dembo & Hammer 1980). With the items sorted by ratio and r
// the ratio of the next item past the core, every undecided term vanishes (items past the core
// have ratios <= r, items before it >= r), which gives minknap's bound of a state
// (Pisinger 1997, "A minimal algorithm for the 0-1 knapsack problem", §3):
//   π + ⌊(c - μ) p_{t+1} / w_{t+1}⌋ when μ <= c,  π - ⌈(μ - c) p_{s-1} / w_{s-1}⌉ when μ > c.
#include <cstdint>
#include <optional>

#include "wide_arithmetic.hpp"

namespace permbb::knapsack {

__extension__ typedef __int128 WideSigned;

// A ratio p / w of one item (w > 0).
struct ItemRatio {
  std::int64_t profit = 0;
  std::int64_t weight = 1;
};

// The largest multiple of `divisor` (> 0) at most `bound`. Every subset's profit is a multiple
// of the profits' greatest common divisor g, so a bound on a solution's profit rounded down to
// a multiple of g is one too: with g = 3 (profit-ceiling instances) a fractional bound of
// best + 2 proves the best optimal.
PERMBB_HD WideSigned round_down_to_multiple(WideSigned bound, std::int64_t divisor) {
  if (divisor == 1) return bound;  // the usual case: no 128-bit division per state
  WideSigned rest = bound % divisor;
  if (rest < 0) rest += divisor;
  return bound - rest;
}

// What every solution's profit P is known to be of the form of, to round bounds down with:
//  - a multiple of profit_divisor, the profits' greatest common divisor;
//  - when every item earns at least its weight, W + D with W <= c its weight and D =
//    Σ (p_i - w_i) x_i a multiple of excess_divisor, the greatest common divisor of the
//    p_i - w_i (1 when unused). A Lagrangian bound π + ⌊r (c - μ)⌋ of a state (profit π,
//    weight μ) with a multiplier r >= 1 is c + (D_s + ⌊(r - 1) (c - μ)⌋), D_s = π - μ, where
//    the second term is the Lagrangian bound with multiplier r - 1 >= 0 of D alone (the
//    undecided items' terms max(0, d_i - (r - 1) w_i) = max(0, p_i - r w_i) vanish as they do
//    for P). So P <= c + D <= c plus that term rounded down to a multiple of
//    excess_divisor. On Pisinger's strongly correlated classes (p = w + R/10, every D a
//    multiple of R/10: the cardinality times R/10) and multiple strongly correlated ones
//    (p = w + 3R/10 or w + 2R/10) this closes the gap of the plain bound, below R/10.
struct ProfitLattice {
  std::int64_t profit_divisor = 1;
  std::int64_t excess_divisor = 1;

  // A bound on the profit of every solution, rounded to the profits' multiples.
  PERMBB_HD WideSigned round(WideSigned bound) const {
    return round_down_to_multiple(bound, profit_divisor);
  }

  // A Lagrangian bound taken at an item's ratio (so r >= 1 whenever excess_divisor > 1), for
  // solutions of weight at most `capacity`.
  PERMBB_HD WideSigned round_lagrangian(WideSigned bound, std::int64_t capacity) const {
    if (excess_divisor > 1) {
      bound = capacity + round_down_to_multiple(bound - capacity, excess_divisor);
    }
    return round(bound);
  }
};

// ⌊x p / w⌋ for any sign of x (p >= 0; |x p| + w below 2^127).
PERMBB_HD WideSigned floor_scaled(WideSigned x, const ItemRatio& r) {
  const WideSigned product = x * r.profit;
  const auto divisor = static_cast<std::uint64_t>(r.weight);
  if (product >= 0) {
    return static_cast<WideSigned>(divide_wide(static_cast<WideUnsigned>(product), divisor));
  }
  const auto magnitude = static_cast<WideUnsigned>(-product) + divisor - 1;  // ⌈|x p| / w⌉
  return -static_cast<WideSigned>(divide_wide(magnitude, divisor));
}

// π + ⌊r (c - μ)⌋: the Lagrangian bound with multiplier r when no undecided item adds a term.
PERMBB_HD WideSigned lagrangian_bound(std::int64_t profit, std::int64_t weight,
                                   std::int64_t capacity, const ItemRatio& r) {
  return WideSigned{profit} + floor_scaled(WideSigned{capacity} - weight, r);
}

// A bound clamped to 64 bits, as bounds are reported (MergeOutcome::upper, the search's
// result): the total profit is below 2^63, so the clamped value still bounds every solution.
PERMBB_HD std::int64_t clamp_bound(WideSigned bound) {
  constexpr std::int64_t kMax = 0x7fffffffffffffff;
  return bound > kMax ? kMax : static_cast<std::int64_t>(bound);
}

// The bound of a state between the core's neighbours (StateBound::of): `add` the ratio of the
// first item past the core (none: every later item decided, r = 0), `remove` the ratio of the
// last one before it (none: an overweight state can never become feasible, the bound is below
// any profit). Rounded by `lattice` (a state with every later item decided earns exactly its
// profit). A ratio of weight 0 stands for none, so that device code can take it (no
// std::optional there); state_bound() is the host's shorthand with std::optional.
struct StateBound {
  std::int64_t capacity = 0;
  ItemRatio add{0, 0};
  ItemRatio remove{0, 0};
  ProfitLattice lattice{};

  static ItemRatio or_none(const std::optional<ItemRatio>& ratio) {
    return ratio ? *ratio : ItemRatio{0, 0};
  }
  StateBound() = default;
  StateBound(std::int64_t capacity_, const std::optional<ItemRatio>& add_,
             const std::optional<ItemRatio>& remove_, const ProfitLattice& lattice_)
      : capacity(capacity_), add(or_none(add_)), remove(or_none(remove_)), lattice(lattice_) {}

  PERMBB_HD WideSigned of(std::int64_t profit, std::int64_t weight) const {
    const bool fits = weight <= capacity;
    const ItemRatio& ratio = fits ? add : remove;
    if (ratio.weight == 0) return fits ? WideSigned{profit} : WideSigned{-1};
    return lattice.round_lagrangian(lagrangian_bound(profit, weight, capacity, ratio), capacity);
  }
};

inline WideSigned state_bound(std::int64_t profit, std::int64_t weight, std::int64_t capacity,
                              const std::optional<ItemRatio>& add,
                              const std::optional<ItemRatio>& remove,
                              const ProfitLattice& lattice) {
  return StateBound(capacity, add, remove, lattice).of(profit, weight);
}

}  // namespace permbb::knapsack
