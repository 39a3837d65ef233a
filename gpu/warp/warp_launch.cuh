#pragma once
// What one team does in one launch of the exploration kernel (explore_kernel.cuh), by the
// kernel's mode (device_cut.hpp, CutMode): the rounds' launch (explore_ivm), the cut pass of a
// recording run (cut_pass_ivm) or the persistent explorer's launch (warp_persistent.cuh).
// explore_team picks one; the kernel and the emulated engine of the tests
// (tests/gpu/emulated_gpu_engine.hpp) both call it, so they run the same code.
#include "device_cut.hpp"
#include "device_types.hpp"
#include "warp_explorer.cuh"
#include "warp_persistent.cuh"

namespace permbb::gpu {

// What one team does in one launch of the exploration kernel (explore_kernel.cuh): initialise a
// thief, then `steps` steps and a normalisation, or settle. Returns the IVM's new state.
// Recording (kCutExplore): a thief unfolds to its start and waits there for the cut pass to
// write its start's records (its unfold is most of a start: in the cut pass, where few IVMs
// work, it held the whole device up for each round); an IVM stops before a node at the cut
// level or marks its last record to close.
template <class Cell, Placement kPlacement, bool kLb2, int kTeam = warp::kSize,
          int kMode = kCutOff>
__device__ int explore_ivm(const PoolView& pool, const ExploreParams& params, const Time* times,
                           const JohnsonView& johnson, unsigned char* workspace, int ivm) {
  int state = pool.state[ivm];
  if (state == kEmpty || (params.settle && state == kInitializing)) return state;
  if constexpr (kMode == kCutExplore) {
    // A thief whose start waits for its records, or whose last record is still open: the
    // cut pass's.
    if (state == kInitializing && params.cut.open[ivm].pending != kPendingNone) return state;
  }
  WarpExplorer<Cell, kPlacement, kLb2, kTeam, kMode> explorer(pool, ivm, params, times, johnson,
                                                              workspace);
  if constexpr (kMode == kCutExplore) explorer.forget_pending_step();
  explorer.load(state == kInitializing);
  if (state == kInitializing) {
    const bool open = explorer.start();
    if (kMode == kCutExplore && open) {
      // Recording: the thief unfolds here, beside the others' steps, and waits as it is (not
      // even normalised: the cut pass records from its start position) for its records.
      explorer.leave_start_pending();
      explorer.store(kInitializing);
      return kInitializing;
    }
    state = open ? kExploring : kEmpty;
  }
  if (params.settle) {
    if (state == kExploring && !explorer.settle()) state = kEmpty;
  } else {
    for (int s = 0; s < params.steps && state == kExploring && !explorer.pending(); ++s) {
      if (!explorer.step()) state = kEmpty;
    }
    if (state == kExploring && !explorer.normalize()) state = kEmpty;
  }
  if constexpr (kMode == kCutExplore) {
    if (state == kEmpty) explorer.leave_close_pending();
  }
  explorer.store(state);
  return state;
}

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

// One team's launch on IVM `ivm` in the kernel's mode. Returns the IVM's new state.
template <class Cell, Placement kPlacement, bool kLb2, int kTeam, int kMode>
__device__ int explore_team(const PoolView& pool, const ExploreParams& params, const Time* times,
                            const JohnsonView& johnson, unsigned char* workspace, int ivm) {
  if constexpr (kMode == kCutPassRecords) {
    return cut_pass_ivm<Cell, kPlacement, kLb2, kTeam>(pool, params, times, johnson, workspace,
                                                       ivm);
  } else if constexpr (kMode == kPersistent) {
    // A settle runs the rounds' kernel (kernels.cu): this one only explores.
    return explore_persistent<Cell, kPlacement, kLb2, kTeam>(pool, params, times, johnson,
                                                             workspace, ivm);
  } else {
    return explore_ivm<Cell, kPlacement, kLb2, kTeam, kMode>(pool, params, times, johnson,
                                                             workspace, ivm);
  }
}

}  // namespace permbb::gpu
