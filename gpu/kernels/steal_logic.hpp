#pragma once
// Work stealing between the IVMs of one GPU (2022 §3.4, 2016 §3.3.1), one thread per IVM.
// Host and device code, so the CPU tests exercise the very functions the kernels run.
//
// A stealing phase, run when fewer than a fraction of the IVMs are exploring:
//  1. measure: each exploring IVM computes its remaining length end - pos (factoradic
//     digits), and is a candidate victim when the length reaches the minimum; the lengths,
//     as fractions of n!, are summed for the average;
//  2. steal: each empty IVM polls its neighbours in a 4-ary hypercube (IVM indices written in
//     base 4; neighbours differ in one digit, digit d shifted by 1, 2, 3 modulo 4, lowest
//     digit first) and takes the first candidate whose length is at least the average and
//     that no other thief has claimed (an atomic flag: no victim is chosen twice). It takes
//     the right half [mid, end) and initialises there; the victim keeps [pos, mid).
// Victims were normalised (ivm::advance) at the end of the exploration kernel, so their
// digits are in range and mid > pos: every node keeps exactly one owner (docs/gpu.md).
#include "device_types.hpp"
#include "factoradic.hpp"
#include "host_device.hpp"

namespace permbb::gpu {

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

// Step 2 for IVM i: true when it stole. `lengths` are step 1's results.
PERMBB_HD bool steal_for(const PoolView& pool, int i, double average) {
  if (pool.state[i] != kEmpty) return false;
  const int digits = hypercube_digits(pool.count);
  for (int digit = 0; digit < digits; ++digit) {
    for (int shift = 1; shift <= 3; ++shift) {
      const int v = hypercube_neighbour(i, digit, shift);
      if (v >= pool.count || pool.claimed[v] != 0 || pool.length[v] < average) continue;
      if (!claim_flag(pool.claimed + v)) continue;
      split_interval(pool, v, i);
      return true;
    }
  }
  return false;
}

// Whether a round's stealing phase runs: some IVMs explore, fewer than the trigger.
PERMBB_HD bool stealing_triggered(int active, int trigger) { return active > 0 && active < trigger; }

}  // namespace permbb::gpu
