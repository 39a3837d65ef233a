#pragma once
// LB2 with a node's work shared between its children, on the device: the GPU's form of the
// CPU's Lb2Children (common/lb2_children.hpp, which derives the formula). For one machine pair
// (a, b), the Johnson sweep of the child that adds job e ends at
//   done_a = a0 + rest_a,   done_b = max(b0 + rest_b, a0 + lagged(e))
// (a0, b0: the child's front on a and b; rest: the node's unscheduled work less e's), where
// lagged(e) = max(W before e + B - p_b(e), W after e + B - p_a(e)) over the node's unscheduled
// jobs in Johnson's order, W_i = P_a(i) + lag_i - (p_b of the jobs before i), B = the node's
// unscheduled work on b. The terms depend on the node only, not on the child.
//
// So the warp builds one pair's terms for all of a node's children at once, with its lanes
// over the pair's Johnson order (prefix sums and a prefix maximum forward, a suffix maximum
// backward: O(n / 32) steps of the warp), and then each child's pair bound costs O(1) on its
// lane. The plain per-child sweep costs O(n) per child and pair. Every function is called by
// the whole warp with warp-uniform arguments; the values are lb2.hpp's, which the emulated-warp
// tests check against a plain sweep.
#include "ivm.hpp"
#include "lb1.hpp"
#include "lb2.hpp"
#include "warp_primitives.cuh"

namespace permbb::gpu::warp {

// Per IVM, in global memory (PoolView::lb2_scratch): the changed side (front or back) of each
// child being bounded, machine-major so that lanes on consecutive children read consecutive
// words, then one pair's terms by job and its W by rank.
struct Lb2Scratch {
  Time* sides = nullptr;  // [machine * items + item]
  Time* terms = nullptr;  // [job]: lagged(job), kNoTerm when no job lies on either side
  Time* w = nullptr;      // [rank]: W of the job at that rank (kNoTerm for a fixed job)
};

// Children bounded together at most: one bit of a lane's register per 32 of them.
inline constexpr int kMaxSharedItems = kSize * 32;

PERMBB_HD Lb2Scratch lb2_scratch_at(Time* base, int n, int m) {
  return {base, base + 2LL * n * m, base + 2LL * n * m + n};
}

// No term: the job has no unscheduled job on that side. Real values are at least
// -(sum of all times), far above, and a0 + kNoTerm never overflows (a0 >= 0).
inline constexpr Time kNoTerm = INT32_MIN;

// terms[e] for `pair` and every unscheduled job e of the node (the jobs `fixed` leaves open;
// remain: the node's unscheduled work per machine), written by the lane that meets e.
template <class FixedJobs>
__device__ __forceinline__ void build_pair_terms(const JohnsonView& johnson, int pair,
                                                 FixedJobs fixed, const Time* remain,
                                                 const Lb2Scratch& s) {
  const JohnsonEntry* sequence = johnson.sequence + pair * johnson.stride;
  const Time total_b = remain[johnson.machine_b[pair]];
  const auto plus = [](Time x, Time y) { return x + y; };
  const auto larger = [](Time x, Time y) { return time_max(x, y); };
  Time sum_a = 0;           // p_a of the unscheduled jobs of the chunks before
  Time sum_b = 0;           // p_b likewise
  Time best = kNoTerm;      // the largest W so far
  for (int base = 0; base < johnson.jobs; base += kSize) {
    const int rank = base + lane();
    JohnsonEntry e{-1, 0, 0, 0};
    if (rank < johnson.jobs) e = sequence[rank];
    const bool open = e.job >= 0 && !is_fixed(fixed, e.job);
    const Time p_a = open ? e.on_a : 0;
    const Time p_b = open ? e.on_b : 0;
    const Time through_a = sum_a + inclusive_scan(p_a, plus);
    const Time through_b = sum_b + inclusive_scan(p_b, plus);
    const Time w = open ? through_a + e.lag - (through_b - p_b) : kNoTerm;
    const Time upto = time_max(best, inclusive_scan(w, larger));
    const Time lower = __shfl_up_sync(kAll, upto, 1);  // the largest W of the lanes below
    const Time before_me = lane() > 0 ? lower : best;
    if (rank < johnson.jobs) s.w[rank] = w;
    if (open) s.terms[e.job] = before_me == kNoTerm ? kNoTerm : before_me + total_b - e.on_b;
    sum_a = broadcast(through_a, kSize - 1);
    sum_b = broadcast(through_b, kSize - 1);
    best = broadcast(upto, kSize - 1);
  }
  best = kNoTerm;  // now the largest W after
  for (int base = (johnson.jobs - 1) / kSize * kSize; base >= 0; base -= kSize) {
    const int rank = base + lane();  // the same lane as in the forward pass: no barrier needed
    const Time w = rank < johnson.jobs ? s.w[rank] : kNoTerm;
    const Time from = time_max(best, inclusive_suffix_scan(w, larger));
    const Time next = __shfl_down_sync(kAll, from, 1);
    const Time after = lane() < kSize - 1 ? next : best;
    if (w != kNoTerm) {
      const JohnsonEntry e = sequence[rank];
      if (after != kNoTerm) s.terms[e.job] = time_max(s.terms[e.job], after + total_b - e.on_a);
    }
    best = broadcast(from, 0);
  }
  __syncwarp();
}

// The pair bound of the child `item` (adding `job` in `direction`) from the terms built for
// `pair`: johnson_pair_bound's value in O(1). front/back/remain: the node's summary.
__device__ __forceinline__ Time shared_pair_bound(const FlowshopView& d,
                                                  const JohnsonView& johnson, int pair,
                                                  const Time* front, const Time* back,
                                                  const Time* remain, const Lb2Scratch& s,
                                                  int items, int item, int job, int direction) {
  const int a = johnson.machine_a[pair];
  const int b = johnson.machine_b[pair];
  const Time* side = s.sides + item;
  const bool adds_front = direction == kFront;
  const Time front_a = adds_front ? side[a * items] : front[a];
  const Time front_b = adds_front ? side[b * items] : front[b];
  const Time back_a = adds_front ? back[a] : side[a * items];
  const Time back_b = adds_front ? back[b] : side[b * items];
  const Time* p = d.times_by_job + job * d.machines;
  const Time rest_a = remain[a] - p[a];
  const Time rest_b = remain[b] - p[b];
  const Time lagged = s.terms[job];
  Time done_b = front_b + rest_b;
  if (lagged != kNoTerm) done_b = time_max(done_b, front_a + lagged);
  return time_max(front_a + rest_a + back_a, done_b + back_b);
}

}  // namespace permbb::gpu::warp
