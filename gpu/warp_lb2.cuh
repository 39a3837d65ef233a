#pragma once
// Warp-level LB2 (2016 §3.3.4 and §4; 2011 §4-5): the children of one parent are bounded
// together by the lanes of its warp, each lane calling the very lb2_child_bound the CPU
// explorer calls. All lanes of a warp sweep the same machine pair's Johnson sequence at the
// same time (one broadcast load per step) and skip the parent's fixed jobs by selects, so
// the only divergence left is between lanes whose early exit (the cutoff) comes at
// different pairs. Every function is called by the whole warp with warp-uniform arguments.
#include "device_types.hpp"
#include "ivm.hpp"
#include "lb2.hpp"
#include "warp_primitives.cuh"

namespace permbb::gpu::warp {

// scheduled[j] = 1 for the jobs fixed in the node whose free jobs are `cells` (count of
// them), 0 for its free jobs.
template <class Cell>
__device__ __forceinline__ void mark_scheduled(const Cell* cells, int count, int n,
                                               unsigned char* scheduled) {
  for (int j = lane(); j < n; j += kSize) scheduled[j] = 1;
  __syncwarp();
  for (int i = lane(); i < count; i += kSize) scheduled[ivm::job_of(cells[i])] = 0;
  __syncwarp();
}

// Everything a lane needs to bound one child of the node being decomposed.
struct Lb2Node {
  FlowshopView data;
  JohnsonView johnson;
  const Time* front;
  const Time* back;
  const Time* remain;
  const unsigned char* scheduled;
};

__device__ __forceinline__ Time child_lb2(const Lb2Node& node, int job, int direction,
                                          Time cutoff) {
  Time side[kMaxGpuLb2Machines];
  return lb2_child_bound(node.data, node.johnson, node.front, node.back, node.remain,
                         node.scheduled, job, direction, cutoff, side);
}

// LB2 of the children in the wanted directions: lb[direction * n + i] for the job of
// cells[i]. kRemap with both directions interleaves them (item t: child t/2, direction t%2,
// 2016 Algorithm 5), so 2*count items fill ceil(2*count/32) passes; kStatic runs a pass set
// per direction with lane i on child i (Algorithm 4).
template <class Cell>
__device__ __forceinline__ void bound_children_lb2(const Lb2Node& node, const Cell* cells,
                                                   int count, bool want_front, bool want_back,
                                                   Time cutoff, GpuMapping mapping, Time* lb,
                                                   int n) {
  if (mapping == GpuMapping::kRemap && want_front && want_back) {
    for (int t = lane(); t < 2 * count; t += kSize) {
      const int i = t >> 1;
      const int direction = t & 1;
      lb[direction * n + i] = child_lb2(node, ivm::job_of(cells[i]), direction, cutoff);
    }
  } else {
    for (int direction = kFront; direction <= kBack; ++direction) {
      if (direction == kFront ? !want_front : !want_back) continue;
      for (int i = lane(); i < count; i += kSize) {
        lb[direction * n + i] = child_lb2(node, ivm::job_of(cells[i]), direction, cutoff);
      }
    }
  }
  __syncwarp();
}

// lb1+lb2: `kept` holds the LB1 bounds of the children in the chosen direction; those below
// the upper bound are replaced by their LB2 (cut off at the upper bound). kRemap first lists
// the survivors in `todo` with a warp prefix sum (ballot, then popc of the lower lanes'
// bits: 2016 §4.2, Algorithm 7, at warp scope) so that they occupy consecutive lanes;
// kStatic leaves lane i on child i, idle when LB1 already pruned it.
template <class Cell>
__device__ __forceinline__ void refine_with_lb2(const Lb2Node& node, const Cell* cells,
                                                int count, int direction, Time upper_bound,
                                                GpuMapping mapping, Time* kept, int* todo) {
  if (mapping == GpuMapping::kStatic) {
    for (int i = lane(); i < count; i += kSize) {
      if (kept[i] < upper_bound) {
        kept[i] = child_lb2(node, ivm::job_of(cells[i]), direction, upper_bound);
      }
    }
    __syncwarp();
    return;
  }
  const unsigned lower_lanes = (1u << lane()) - 1u;
  int listed = 0;
  for (int base = 0; base < count; base += kSize) {
    const int i = base + lane();
    const bool survives = i < count && kept[i] < upper_bound;
    const unsigned ballot = __ballot_sync(kAll, survives);
    if (survives) todo[listed + __popc(ballot & lower_lanes)] = i;
    listed += __popc(ballot);
  }
  __syncwarp();
  for (int t = lane(); t < listed; t += kSize) {
    const int i = todo[t];
    kept[i] = child_lb2(node, ivm::job_of(cells[i]), direction, upper_bound);
  }
  __syncwarp();
}

}  // namespace permbb::gpu::warp
