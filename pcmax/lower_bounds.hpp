#pragma once
// Lower bounds on the optimal makespan of P||Cmax, of the kinds Dell'Amico & Martello
// (1995, ORSA J. Comput. 7(2), §2) use, with times sorted longest first, t_1 >= ... >= t_n:
//
//   simple:       max(ceil(sum t / m), t_1)                            (pcmax_instance.hpp)
//   counting:     max over k >= 1 with k m + 1 <= n of t_{km-k+1} + ... + t_{km+1}: of the
//                 k m + 1 longest jobs some machine runs k + 1, and they weigh at least the
//                 k + 1 shortest of them (k = 1 is the classic t_m + t_{m+1});
//   bin packing:  a target C is below OPT when m bins of capacity C cannot hold the jobs;
//                 Martello & Toth's bin-packing bound L2 (1990, "Knapsack Problems" §8.3.1)
//                 says so when it exceeds m. The bound is the first C, ascending from the
//                 others' maximum, where L2(C) <= m: every C below it was shown infeasible.
//                 (L2 need not be monotone in C, hence the ascent rather than a bisection.)
#include <cstdint>
#include <vector>

#include "pcmax_instance.hpp"

namespace permbb::pcmax {

struct LowerBounds {
  Duration simple = 0;
  Duration counting = 0;
  Duration bin_packing = 0;
  bool bin_packing_ascent_finished = true;  // false: the ascent hit its step limit (still valid)

  Duration best() const;
};

// Martello & Toth's L2 for bins of capacity C: for each K in [0, C/2],
//   J1 = {t > C - K}, J2 = {C - K >= t > C/2}, J3 = {C/2 >= t >= K},
//   L(K) = |J1| + |J2| + max(0, ceil((sum J3 - (|J2| C - sum J2)) / C)),
// and L2 = max over K (only K = 0 and K equal to a time at most C/2 can matter). A job longer
// than C gives "more than any m": returned as n + 1. `longest_first` must be sorted
// longest first.
std::int64_t bin_packing_bound(const std::vector<Duration>& longest_first, Duration capacity);

// The three bounds; the ascent of the bin-packing bound takes at most `max_ascent_steps`
// capacities, and fewer on huge instances (about 2^26 / n).
LowerBounds compute_lower_bounds(const PcmaxInstance& instance,
                                 std::int64_t max_ascent_steps = 100'000);

// The jobs' times, longest first.
std::vector<Duration> times_longest_first(const PcmaxInstance& instance);

}  // namespace permbb::pcmax
