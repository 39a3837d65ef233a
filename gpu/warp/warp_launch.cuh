#pragma once
// What one team does in one launch of the exploration kernel (explore_kernel.cuh), by the
// kernel's mode (device_cut.hpp, CutMode): the rounds' launch (explore_ivm), the cut pass of a
// recording run (cut_pass_ivm, warp_cut_pass.cuh) or the persistent explorer's launch
// (warp_persistent.cuh).
// explore_team picks one; the kernel and the emulated engine of the tests
// (tests/gpu/emulated_gpu_engine.hpp) both call it, so they run the same code.
#include "device_cut.hpp"
#include "device_types.hpp"
#include "warp_cut_pass.cuh"
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

// One team's launch on IVM `ivm` in the kernel's mode. Returns the IVM's new state.
template <class Cell, Placement kPlacement, bool kLb2, int kTeam, int kMode>
__device__ int explore_team(const PoolView& pool, const ExploreParams& params, const Time* times,
                            const JohnsonView& johnson, unsigned char* workspace, int ivm) {
  if constexpr (kMode == kCutPassRecords) {
    return cut_pass_ivm<Cell, kPlacement, kLb2, kTeam>(pool, params, times, johnson, workspace,
                                                       ivm);
  } else if constexpr (is_persistent(kMode)) {
    // A settle runs the rounds' kernel (kernels.cu): this one only explores.
    return explore_persistent<Cell, kPlacement, kLb2, kTeam, kMode>(pool, params, times,
                                                                    johnson, workspace, ivm);
  } else {
    return explore_ivm<Cell, kPlacement, kLb2, kTeam, kMode>(pool, params, times, johnson,
                                                             workspace, ivm);
  }
}

}  // namespace permbb::gpu
