#pragma once
// The bisection on the target T (Li et al. Algorithm 1 lines 5-14) and its concurrent form,
// the quarter split of Algorithm 3, done so that both give the same T.
//
// Sequential: while lower < upper: T = floor((lower + upper) / 2); a feasible T sets
// upper = T, an infeasible one lower = T + 1. Rounding to multiples of floor(T/k^2) makes
// feasibility non-monotone in T (docs/pcmax.md has an instance), so which T the search ends
// on depends on the path it takes.
//
// Concurrent: a round evaluates the next L levels of the bisection's decision tree at once
// (split = 2^L: the midpoint and, for L = 2, the midpoints of both halves, cutting the
// interval to a quarter per round), then follows the path the sequential search would take.
// The result is the sequential one whatever the oracle, with L times fewer rounds.
//
// Algorithm 3 as printed does not work; what is different here and why:
//   * line 2 sets LB_p = (p / proc) * LB, which splits [0, LB] (LB_0 = 0) instead of
//     [LB, UB]: three of the four targets lie below the lower bound, wasted;
//   * lines 6-27 never recompute LB_p, UB_p from the updated LB, UB, so the targets T_p do
//     not change from one iteration to the next and the loop does not end;
//   * lines 20 and 24 set LB = T after an infeasible T, not T + 1 (as Algorithm 1 line 14
//     does); once UB = LB + 1 the midpoint is LB again, forever;
//   * line 22 reads OPT_{i+1} for i = proc - 1, past the last target;
//   * line 10 rounds with floor(T / k^2), not floor(T_p / k^2);
//   * the update assumes feasibility is monotone in T: a feasible T_i below an infeasible
//     T_{i+1} matches none of the three cases and the interval stays as it was.
#include <functional>
#include <vector>

#include "pcmax_instance.hpp"

namespace permbb::pcmax {

// Feasibility of each target of a batch (evaluated together, e.g. on concurrent streams).
using BatchOracle = std::function<std::vector<bool>(const std::vector<Duration>& targets)>;

struct BisectionResult {
  Duration target = 0;  // lower = upper at the end
  int rounds = 0;       // oracle calls
  int probes = 0;       // targets evaluated
};

// Told the interval [lower, upper] after each round's answers have been followed. No target
// evaluated so far lies strictly inside it, and the search ends on a target within it.
using IntervalObserver = std::function<void(Duration lower, Duration upper)>;

// levels_per_round >= 1 (1: the sequential bisection). Needs lower <= upper.
BisectionResult run_bisection(Duration lower, Duration upper, int levels_per_round,
                              const BatchOracle& oracle, const IntervalObserver& narrowed = {});

// The targets a round evaluates from [lower, upper]: the decision tree's midpoints down to
// `levels` levels, breadth first, those in `known` left out.
std::vector<Duration> round_targets(Duration lower, Duration upper, int levels,
                                    const std::function<bool(Duration)>& known);

}  // namespace permbb::pcmax
