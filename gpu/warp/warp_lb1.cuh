#pragma once
// Team-level LB1 (2022 §2.4 and §3.3): one team (a warp, or a slice of W lanes of one,
// warp_primitives.cuh) per subproblem.
//  - The bound summary of a node (front, back, remain per machine, lb1.hpp) is derived from
//    its parent's with lanes over machines; the completion times of the new prefix or suffix
//    are a max-plus scan across lanes (Bożejko's wavefront, 2022 Figure 7), in chunks of W
//    machines.
//  - The 2(n-d) children are bounded with lanes over children, each lane calling the very
//    lb1_child_bound the CPU explorer calls (O(m) each), both directions in one pass.
// Every function is called by the whole team; results are equal to lb1.hpp's, which the GPU
// tests check on random subproblems.
#include "branching.hpp"
#include "flowshop_view.hpp"
#include "ivm.hpp"
#include "lb1.hpp"
#include "warp_primitives.cuh"

namespace permbb::gpu::warp {

// out = completion times of (the prefix summarised by `in`) followed by `job`: equal to
// lb1_append_front. `out` may alias `in`.
template <int W = kSize>
__device__ __forceinline__ void append_front(const FlowshopView& d, const Time* in, int job,
                                             Time* out) {
  const Time* p = d.times_by_job + job * d.machines;
  const int m = d.machines;
  Time carry = 0;
  for (int base = 0; base < m; base += W) {
    const int k = base + lane<W>();
    const bool valid = k < m;
    const Time pk = valid ? p[k] : 0;
    Time a = valid ? in[k] + pk : 0;
    Time b = pk;
    max_plus_scan<W>(a, b);
    if (base > 0) a = time_max(a, carry + b);
    sync<W>();
    if (valid) out[k] = a;
    carry = broadcast<W>(a, W - 1);
  }
  sync<W>();
}

// out = `job` prepended to the suffix summarised by `in` (machines scanned from the last):
// equal to lb1_prepend_back. `out` may alias `in`.
template <int W = kSize>
__device__ __forceinline__ void prepend_back(const FlowshopView& d, const Time* in, int job,
                                             Time* out) {
  const Time* p = d.times_by_job + job * d.machines;
  const int m = d.machines;
  Time carry = 0;
  for (int base = 0; base < m; base += W) {
    const int t = base + lane<W>();
    const bool valid = t < m;
    const int k = m - 1 - t;
    const Time pk = valid ? p[k] : 0;
    Time a = valid ? in[k] + pk : 0;
    Time b = pk;
    max_plus_scan<W>(a, b);
    if (base > 0) a = time_max(a, carry + b);
    sync<W>();
    if (valid) out[k] = a;
    carry = broadcast<W>(a, W - 1);
  }
  sync<W>();
}

// out[k] = in[k] - p(job, k): equal to lb1_remove_job.
template <int W = kSize>
__device__ __forceinline__ void remove_job(const FlowshopView& d, const Time* in, int job,
                                           Time* out) {
  const Time* p = d.times_by_job + job * d.machines;
  for (int k = lane<W>(); k < d.machines; k += W) out[k] = in[k] - p[k];
  sync<W>();
}

template <int W = kSize>
__device__ __forceinline__ void copy_times(const Time* in, Time* out, int count) {
  for (int k = lane<W>(); k < count; k += W) out[k] = in[k];
  sync<W>();
}

// The summary of a child from its parent's: `job` appended to the prefix (kFront) or
// prepended to the suffix (kBack). Each of the three arrays has m entries; the child's must
// not overlap the parent's. Equal to IvmExplorer::compute_node_costs.
template <int W = kSize>
__device__ __forceinline__ void child_summary(const FlowshopView& d, const Time* front,
                                              const Time* back, const Time* remain, int job,
                                              int direction, Time* child_front, Time* child_back,
                                              Time* child_remain) {
  if (direction == kFront) {
    append_front<W>(d, front, job, child_front);
    copy_times<W>(back, child_back, d.machines);
  } else {
    copy_times<W>(front, child_front, d.machines);
    prepend_back<W>(d, back, job, child_back);
  }
  remove_job<W>(d, remain, job, child_remain);
}

// The makespan of σ1 · job · σ2 from the summaries of σ1 and σ2: equal to complete_makespan.
template <int W = kSize>
__device__ __forceinline__ Time complete_makespan(const FlowshopView& d, const Time* front,
                                                  const Time* back, bool suffix_empty, int job) {
  const Time* p = d.times_by_job + job * d.machines;
  const int m = d.machines;
  Time carry = 0;
  Time cmax = 0;
  Time a = 0;
  for (int base = 0; base < m; base += W) {
    const int k = base + lane<W>();
    const bool valid = k < m;
    const Time pk = valid ? p[k] : 0;
    a = valid ? front[k] + pk : 0;
    Time b = pk;
    max_plus_scan<W>(a, b);
    if (base > 0) a = time_max(a, carry + b);
    if (valid) cmax = time_max(cmax, a + back[k]);
    carry = broadcast<W>(a, W - 1);
  }
  if (suffix_empty) return broadcast<W>(a, (m - 1) % W);  // completion on the last machine
  return max<W>(cmax);
}

// The tails of the children of a node (lb1.hpp, SummedTail) in the wanted directions, lanes
// over machines: tails[k] for the front children, tails[m + k] for the back ones.
template <int W = kSize>
__device__ __forceinline__ void child_tails(const FlowshopView& d, const Time* front,
                                           const Time* back, const Time* remain, bool want_front,
                                           bool want_back, Time* tails) {
  const int m = d.machines;
  for (int k = lane<W>(); k < m; k += W) {
    if (want_front) tails[k] = SummedTail{remain, back}(k);
    if (want_back) tails[m + k] = SummedTail{remain, front}(k);
  }
  sync<W>();
}

// Bounds of the children of a node whose summary is (front, back, remain): the jobs of
// `cells` (count of them, pruned flags ignored) added in front (lb_front[i]) and/or in back
// (lb_back[i]). Their tails are summed once into `tails` (2m times of scratch), so each
// child's O(m) loop reads the side and the tail per machine, not the side, remain and other
// side (the kernel's time goes mostly to shared-memory loads: docs/gpu.md). A row whose
// children of both directions fit the team (at most W/2 jobs, the last levels of every dive)
// is bounded in one pass, front children on the first lanes,
// lb1_child_bound taking the direction as data so that both halves run one path (2016 §4.1).
// Longer rows take one pass set per direction with the direction a constant: the per-step
// machine index of a data direction cost more than the pass it saves there (an H200: ta056
// 0.79x, ta090 0.75x with one pass set for every row; docs/gpu.md).
template <int W = kSize, class Cell>
__device__ __forceinline__ void bound_children(const FlowshopView& d, const Time* front,
                                               const Time* back, const Time* remain,
                                               const Cell* cells, int count, bool want_front,
                                               bool want_back, Time* lb_front, Time* lb_back,
                                               Time* tails) {
  child_tails<W>(d, front, back, remain, want_front, want_back, tails);
  const int m = d.machines;
  if (want_front && want_back && 2 * count <= W) {
    const int t = lane<W>();
    if (t < 2 * count) {
      const int direction = t < count ? kFront : kBack;
      const int i = t - direction * count;
      const Time bound = lb1_child_bound_from_tails(d, direction == kFront ? front : back,
                                                    tails + direction * m,
                                                    ivm::job_of(cells[i]), direction);
      (direction == kFront ? lb_front : lb_back)[i] = bound;
    }
    sync<W>();
    return;
  }
  if (want_front) {
    for (int i = lane<W>(); i < count; i += W) {
      lb_front[i] = lb1_child_bound_from_tails(d, front, tails, ivm::job_of(cells[i]), kFront);
    }
  }
  if (want_back) {
    for (int i = lane<W>(); i < count; i += W) {
      lb_back[i] = lb1_child_bound_from_tails(d, back, tails + m, ivm::job_of(cells[i]), kBack);
    }
  }
  sync<W>();
}

}  // namespace permbb::gpu::warp
