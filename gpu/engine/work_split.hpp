#pragma once
// Host-side work preparation for the GPU explorer (no CUDA): the initial partition of the
// search space over the IVMs (2022 §3.1: "an initial partitioning of the search space
// {[j n!/K, (j+1) n!/K[}"), where IVMs get them, and the minimum stolen length.
#include <vector>

#include "interval.hpp"

namespace permbb::gpu {

// Cuts the non-empty `intervals` into at most `pieces` non-empty intervals of about equal
// length (each interval into 1 + floor((pieces - q) * length / total) parts, q intervals in
// all), in order, covering exactly the same integers. With more than `pieces` intervals they
// are returned unchanged (the caller queues the rest).
std::vector<Interval> split_intervals(const std::vector<Interval>& intervals, int pieces);

// Where `pieces` intervals go among `ivms` IVMs: spread evenly (i * ivms / pieces), so that
// empty IVMs find work in their hypercube neighbourhood.
std::vector<int> spread_indices(int pieces, int ivms);

// The minimum stolen length as factoradic digits: `min_leaves` when positive (at most n!),
// else k! leaves with k = n - 5 clamped to [2, 8] (8! as in 2022 §3.4 for large n), and never
// below 2, so that a cut [pos, mid) | [mid, end) always leaves mid > pos.
std::vector<int> min_steal_digits(int n, double min_leaves);

}  // namespace permbb::gpu
