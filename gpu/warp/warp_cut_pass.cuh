#pragma once
// The cut pass of a recording run (docs/audit.md, "The GPU explorer"): what an IVM's team does
// for the records its exploring pass left (device_cut.hpp, CutPending). The rounds run it as a
// launch of its own after each exploring pass (warp_launch.cuh); the persistent explorer's
// recording teams run it themselves, on their own IVM, as they go (warp_persistent.cuh).
#include "device_cut.hpp"
#include "device_types.hpp"
#include "warp_explorer.cuh"

namespace permbb::gpu {

// Whether the cut pass has something to do for an IVM: its pending step, close or start
// records, or a thief to start (not in a settle, where thieves wait). A start whose records
// wait is taken in a settle too: unfolded, its position may lie before its interval (below
// a pruned node), so it must move on before the host reads the intervals left.
__device__ __forceinline__ bool cut_pass_takes(int state, int pending, int settle) {
  return pending != kPendingNone || (state == kInitializing && !settle);
}

// The cut pass of a recording run (kCutPassRecords), after each exploring pass: each IVM
// with a pending step decomposes the node at the cut level it stopped before, one with a
// pending close closes its record, a thief the exploring pass started gets its start's
// records, and the other thieves start (their replay records too); then the pending mark is
// cleared. An IVM that finds no room for its records waits for the host's drain
// (CutBufferView::interrupted). Returns the IVM's new state.
template <class Cell, Placement kPlacement, bool kLb2, int kTeam>
__device__ int cut_pass_ivm(const PoolView& pool, const ExploreParams& params, const Time* times,
                            const JohnsonView& johnson, unsigned char* workspace, int ivm) {
  int state = pool.state[ivm];
  const int pending = params.cut.open[ivm].pending;
  if (!cut_pass_takes(state, pending, params.settle)) return state;
  const bool started = pending == kPendingStarted;  // by the exploring pass
  const bool starts = state == kInitializing && !started && !params.settle;
  WarpExplorer<Cell, kPlacement, kLb2, kTeam, kCutPassRecords> explorer(pool, ivm, params, times,
                                                                         johnson, workspace);
  if (explorer.looked_short()) return state;
  if (pending == kPendingClose && !starts) {
    explorer.close_exhausted();  // a thief's start closes it too
  } else {
    explorer.load(starts);
    if (started) {
      explorer.record_start();
      state = kExploring;
      // A settle runs again: this IVM is not at a clean point yet.
      if (warp::lane<kTeam>() == 0) atomicAdd(&params.control->cut_pending, 1);
    } else if (starts) {
      state = explorer.start() ? kExploring : kEmpty;
    } else if (state == kExploring) {
      explorer.step_at_cut_level();
      if (warp::lane<kTeam>() == 0) atomicAdd(&params.control->cut_pending, 1);
    }
    if (state == kExploring && !explorer.normalize()) state = kEmpty;
    if (state == kEmpty) explorer.close_exhausted();
    explorer.store(state);
  }
  if (warp::lane<kTeam>() == 0) params.cut.open[ivm].pending = kPendingNone;
  warp::sync<kTeam>();
  return state;
}

}  // namespace permbb::gpu
