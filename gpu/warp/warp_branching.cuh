#pragma once
// Team-level dynamic branching (2022 §2.3 and §3.3 step 5: "warp-parallel min-reduce and
// warp-vote functions"): the branching rule of branching.hpp with the lanes of a team
// (warp_primitives.cuh) over children. The minimum is a reduction, its occurrences are counted
// with ballots, and the sums are compared through one 64-bit reduction of their difference,
// computed only when the rule gets that far. The decision is choose_direction's on the same bounds, ties included; the tests
// compare both on random bound arrays rich in ties.
#include "branching.hpp"
#include "warp_primitives.cuh"

namespace permbb::gpu::warp {

// sum over i < count of lb_back[i] - lb_front[i]: "sum_back > sum_front" exactly, in 64 bits.
template <int W = kSize>
__device__ __forceinline__ long long sum_difference(const Time* lb_front, const Time* lb_back,
                                                    int count) {
  long long difference = 0;
  for (int i = lane<W>(); i < count; i += W) {
    difference += static_cast<long long>(lb_back[i]) - lb_front[i];
  }
  return sum<W>(difference);
}

// Occurrences of `lowest` among the front bounds minus among the back bounds (ballots).
template <int W = kSize>
__device__ __forceinline__ int minimum_balance(const Time* lb_front, const Time* lb_back,
                                               int count, Time lowest) {
  int balance = 0;
  for (int base = 0; base < count; base += W) {
    const int i = base + lane<W>();
    const bool valid = i < count;
    const unsigned in_front = ballot<W>(valid && lb_front[i] == lowest);
    const unsigned in_back = ballot<W>(valid && lb_back[i] == lowest);
    balance += __popc(in_front) - __popc(in_back);
  }
  return balance;
}

// The smallest bound over both sets (a warp reduction).
template <int W = kSize>
__device__ __forceinline__ Time lowest_bound(const Time* lb_front, const Time* lb_back,
                                             int count) {
  Time lowest = kInfiniteTime;
  for (int i = lane<W>(); i < count; i += W) {
    lowest = lb_front[i] < lowest ? lb_front[i] : lowest;
    lowest = lb_back[i] < lowest ? lb_back[i] : lowest;
  }
  return min<W>(lowest);
}

template <int W = kSize>
__device__ __forceinline__ int choose_direction(BranchingRule rule, const Time* lb_front,
                                                const Time* lb_back, int count) {
  if (rule == BranchingRule::kForward) return kFront;
  if (rule == BranchingRule::kBackward) return kBack;
  if (rule != BranchingRule::kMaxSum) {
    const Time lowest = lowest_bound<W>(lb_front, lb_back, count);
    const int balance = minimum_balance<W>(lb_front, lb_back, count, lowest);
    if (balance < 0) return kFront;
    if (balance > 0) return kBack;
    if (rule == BranchingRule::kMinMinForwardTies) return kFront;
  }
  return sum_difference<W>(lb_front, lb_back, count) > 0 ? kBack : kFront;
}

// permbb::needs_exact_sums (branching.hpp) with lanes over children.
__device__ __forceinline__ bool needs_exact_sums(BranchingRule rule, const Time* lb_front,
                                                 const Time* lb_back, int count, Time cutoff) {
  if (rule != BranchingRule::kMinMin || cutoff == kInfiniteTime) return false;
  const Time lowest = lowest_bound(lb_front, lb_back, count);
  return lowest < cutoff && minimum_balance(lb_front, lb_back, count, lowest) == 0;
}

}  // namespace permbb::gpu::warp
