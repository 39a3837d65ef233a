#pragma once
// The subset sums kept for their profit bound only (ReachableSums with
// SumsKeep::kProfitEnvelope): the intervals as an upper envelope of profit against weight.
//
// A set of disjoint intervals [lo, hi] with excess e (the largest Σ (p_i r_w - r_p w_i) of
// the subsets whose weight falls in it) bounds the profit of every subset of weight at most
// ρ by the largest r min(hi, ρ) + e over the intervals with lo <= ρ (reachable_sums.hpp).
// Joining two neighbours into [lo_1, hi_2] with the larger excess keeps that valid, but hands
// the heavier one's excess to the lighter rooms, or the lighter one's to the heavier weights
// without the room the lighter one left unused. On Jooken et al.'s class the sums of the light
// items fill the weights near c densely, every interval there touches the next, and joining
// them all (as SumsKeep::kEveryWeight does) leaves one run whose bound is the plain Lagrangian
// one: the best excess of the run at the full room. Here:
//  - overlapping intervals are split where the second starts: the part below keeps its own
//    excess, the part above takes the larger; intervals that only touch stay apart;
//  - an interval whose top r hi + e is no more than that of an interval below it is dropped:
//    no room's bound is raised by it, and none by its later shifts (for each item added, the
//    shift of the interval below reaches the same rooms first and stays at least as high);
//  - when there are too many, neighbours are joined where the bound loses least.
#include <cstdint>
#include <vector>

#include "reachable_sums.hpp"

namespace permbb::knapsack {

// Appends `next` (lo at least the last interval's lo) to `out`, splitting an overlap as above.
void append_to_envelope(std::vector<SumInterval>& out, const SumInterval& next);

// Drops the intervals that no room's bound needs (their top r_p hi + excess at most a lower
// interval's).
void drop_dominated_intervals(std::vector<SumInterval>& intervals, const ItemRatio& ratio);

// The most the bound of some room grows by when neighbours `lower` and `upper` are joined
// (scaled by ratio.weight, as the excesses are).
WideSigned join_loss(const SumInterval& lower, const SumInterval& upper, const ItemRatio& ratio);

// Joins neighbours, those of the least join_loss first, until `keep` intervals remain (or a
// few fewer: ties at the threshold are joined too).
void coarsen_envelope(std::vector<SumInterval>& intervals, std::int64_t keep,
                      const ItemRatio& ratio);

}  // namespace permbb::knapsack
