#pragma once
// CoordinatorSettings: the knobs of the coordinator's work distribution (2022 §4.1.3).
#include <gmpxx.h>

#include <algorithm>

namespace permbb::cluster {

struct CoordinatorSettings {
  // A copy is split for a waiting worker only when its size ||W|| reaches this (at least 1).
  // With 2, the owner of a single-interval unit always keeps a part.
  mpz_class min_split_size = 2;
  // H: the most intervals one split or handover moves to a waiting worker (at least 1). A
  // CPU worker's unit (one interval per thread) is below it and is halved whole, as in the
  // paper; a GPU worker's 16,384 may not be: moving them all costs rank 0 about 4 ms, which
  // thousands of workers asking could not afford (docs/scale.md). The largest H intervals are
  // halved then (WorkUnit::split), and the GPU's own stealing spreads them. A cluster solve
  // sets it from the worker count (handover_interval_cap, below).
  int max_handover_intervals = 256;
};

// H for a job of `workers` workers (--handover-intervals 0). A handover of H intervals costs
// rank 0 about H x 0.3 µs, and handovers come at a rate that grows with the workers, so rank 0
// can afford large ones when few workers ask: kHandoverIntervalBudget / workers, never fewer
// than 256 (what thousands of GPUs need, docs/scale.md). With four GPU workers that is all of
// an H100's 16,384 IVMs: the waiting worker gets the right half of every interval, about half
// of the victim's work, where the halves of its 256 largest (by permutations, not nodes) gave
// it a sliver and it soon asked again (docs/scale.md, "Four GPUs").
inline constexpr int kHandoverIntervalBudget = 1 << 16;
inline constexpr int kMinHandoverIntervals = 256;

inline int handover_interval_cap(int workers) {
  return std::max(kMinHandoverIntervals, kHandoverIntervalBudget / std::max(1, workers));
}

}  // namespace permbb::cluster
