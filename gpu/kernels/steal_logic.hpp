#pragma once
// Work stealing between the IVMs of one GPU (2022 §3.4, 2016 §3.3.1), one thread per IVM.
// Host and device code, so the CPU tests exercise the very functions the kernels run.
//
// A stealing phase, run when fewer than a fraction of the IVMs are exploring:
//  1. measure: each exploring IVM computes its remaining length end - pos (factoradic
//     digits), and is a candidate victim when the length reaches the minimum; the lengths,
//     as fractions of n!, are summed for the threshold (StealRule);
//  2. steal: each empty IVM polls its neighbours in a 4-ary hypercube (IVM indices written in
//     base 4; neighbours differ in one digit, digit d shifted by 1, 2, 3 modulo 4, lowest
//     digit first) and takes a candidate whose length reaches the threshold and that no
//     other thief has claimed (an atomic flag: no victim is chosen twice). It takes the right
//     half [mid, end) and initialises there; the victim keeps [pos, mid).
// Victims were normalised (ivm::advance) at the end of the exploration kernel, so their
// digits are in range and mid > pos: every node keeps exactly one owner (docs/gpu.md).
#include "device_types.hpp"
#include "factoradic.hpp"
#include "host_device.hpp"

namespace permbb::gpu {

// The shortest length a thief takes, from the sum of `count` victims' lengths (count > 0).
PERMBB_HD double steal_threshold(StealRule rule, double sum, int count) {
  return rule == StealRule::kLargestNeighbour ? 0.0 : sum / count;
}

// Base-4 digits needed to number `count` IVMs.
PERMBB_HD int hypercube_digits(int count) {
  int digits = 0;
  long long reach = 1;
  while (reach < count) {
    reach *= 4;
    ++digits;
  }
  return digits;
}

// IVM i with base-4 digit `digit` decreased by `shift` (1..3) modulo 4.
PERMBB_HD int hypercube_neighbour(int i, int digit, int shift) {
  const int offset = 2 * digit;
  const int alpha = (i >> offset) & 3;
  const int moved = (alpha - shift + 4) & 3;
  return (i & ~(3 << offset)) | (moved << offset);
}

// Atomic test-and-set of a claim flag: true for the one caller that finds it clear.
PERMBB_HD bool claim_flag(int* flag) {
#if defined(__CUDA_ARCH__)
  return atomicCAS(flag, 0, 1) == 0;
#else
  if (*flag != 0) return false;
  *flag = 1;
  return true;
#endif
}

// Step 1 for IVM i: its remaining length as a fraction of n! (-1 when not exploring). Sets
// its claim flag: clear for a candidate victim, set otherwise.
PERMBB_HD double measure_victim(const PoolView& pool, int i) {
  const int n = pool.n;
  int* pos = pool.pos + static_cast<long long>(i) * n;
  int* end = pool.end + static_cast<long long>(i) * n;
  int* length = pool.scratch + static_cast<long long>(i) * n;
  pool.claimed[i] = 1;
  if (pool.state[i] != kExploring || factoradic::compare(pos, end, n) >= 0) return -1.0;
  factoradic::subtract(end, pos, length, n);
  if (factoradic::compare(length, pool.min_steal, n) >= 0) pool.claimed[i] = 0;
  return factoradic::fraction_of_space(length, n);
}

// Thief i takes the right half of victim v's interval.
PERMBB_HD void split_interval(const PoolView& pool, int v, int i) {
  const int n = pool.n;
  int* victim_pos = pool.pos + static_cast<long long>(v) * n;
  int* victim_end = pool.end + static_cast<long long>(v) * n;
  int* thief_pos = pool.pos + static_cast<long long>(i) * n;
  int* thief_end = pool.end + static_cast<long long>(i) * n;
  factoradic::midpoint(victim_pos, victim_end, thief_pos, n);
  for (int d = 0; d < n; ++d) {
    thief_end[d] = victim_end[d];
    victim_end[d] = thief_pos[d];
  }
  pool.state[i] = kInitializing;
}

// Whether neighbour v is a victim IVM i may try: a candidate not yet claimed, as long as
// `threshold`.
PERMBB_HD bool open_victim(const PoolView& pool, int v, double threshold) {
  return v < pool.count && pool.claimed[v] == 0 && pool.length[v] >= threshold;
}

// The longest open victim among i's neighbours, -1 when none.
PERMBB_HD int longest_open_neighbour(const PoolView& pool, int i, int digits) {
  int best = -1;
  for (int digit = 0; digit < digits; ++digit) {
    for (int shift = 1; shift <= 3; ++shift) {
      const int v = hypercube_neighbour(i, digit, shift);
      if (open_victim(pool, v, 0.0) && (best < 0 || pool.length[v] > pool.length[best])) best = v;
    }
  }
  return best;
}

// Step 2 for IVM i: true when it stole. pool.length holds step 1's results, `threshold` is
// steal_threshold() of their sum.
PERMBB_HD bool steal_for(const PoolView& pool, int i, double threshold, StealRule rule) {
  if (pool.state[i] != kEmpty) return false;
  const int digits = hypercube_digits(pool.count);
  if (rule == StealRule::kLargestNeighbour) {
    // Another thief may claim the longest first: then the next longest. Bounded, as a claim
    // made by another thread may not yet show in this one's plain reads of the flags.
    for (int attempt = 0; attempt < 3 * digits; ++attempt) {
      const int v = longest_open_neighbour(pool, i, digits);
      if (v < 0) return false;
      if (!claim_flag(pool.claimed + v)) continue;
      split_interval(pool, v, i);
      return true;
    }
    return false;
  }
  for (int digit = 0; digit < digits; ++digit) {
    for (int shift = 1; shift <= 3; ++shift) {
      const int v = hypercube_neighbour(i, digit, shift);
      if (!open_victim(pool, v, threshold) || !claim_flag(pool.claimed + v)) continue;
      split_interval(pool, v, i);
      return true;
    }
  }
  return false;
}

// One stealing phase on the host, IVM after IVM, as the two kernels run it (the emulated
// engine and the tests). Returns the number of steals.
inline int steal_phase_on_host(const PoolView& pool, StealRule rule) {
  double sum = 0;
  int measured = 0;
  for (int i = 0; i < pool.count; ++i) {
    pool.length[i] = measure_victim(pool, i);
    if (pool.length[i] < 0) continue;
    sum += pool.length[i];
    ++measured;
  }
  if (measured == 0) return 0;
  const double threshold = steal_threshold(rule, sum, measured);
  int steals = 0;
  for (int i = 0; i < pool.count; ++i) steals += steal_for(pool, i, threshold, rule) ? 1 : 0;
  return steals;
}

// Whether a round's stealing phase runs: some IVMs explore, fewer than the trigger.
PERMBB_HD bool stealing_triggered(int active, int trigger) { return active > 0 && active < trigger; }

}  // namespace permbb::gpu
