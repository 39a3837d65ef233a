#pragma once
// The exploration kernel (2022 §3, 2016 §3.3) as a template over the cell type, placement,
// times location, bound and team width; included only by the files that instantiate it
// (explore_kernel.hpp lists them).
#include <cstdint>

#include "explore_kernel.hpp"
#include "warp_launch.cuh"

namespace permbb::gpu {

// At most 64 registers per thread, so that 32 warps can be resident per SM (2 blocks of the
// largest size, or more of smaller ones). Capping LB1 at 40 registers for 48 warps (75 %
// occupancy) spilled 200-600 bytes per thread and explored 5-32 % slower on an H200
// (docs/gpu.md, "Registers and occupancy").
constexpr int kMaxExploreThreads = warp::kSize * kMaxWarpsPerBlock;
constexpr int kExploreBlocksPerSm = 32 / kMaxWarpsPerBlock;

// The per-block shared copy of Johnson's tables (LB2): machine pairs then sequences, placed
// after the processing times. All lanes of a warp read the same entry at once, which shared
// memory serves as a broadcast (2016 §5.2 put the bound's data in the fastest memory too).
inline __device__ JohnsonView johnson_in_shared(const JohnsonView& global, unsigned char* at) {
  JohnsonView copy = global;
  int* pairs = reinterpret_cast<int*>(at);
  const int count = global.pairs;
  for (int i = threadIdx.x; i < count; i += blockDim.x) {
    pairs[i] = global.machine_a[i];
    pairs[count + i] = global.machine_b[i];
  }
  JohnsonEntry* sequence = reinterpret_cast<JohnsonEntry*>(at + align16(8LL * count));
  const int entries = count * global.stride;
  for (int i = threadIdx.x; i < entries; i += blockDim.x) sequence[i] = global.sequence[i];
  copy.machine_a = pairs;
  copy.machine_b = pairs + count;
  copy.sequence = sequence;
  return copy;
}

// Where the exploration kernel reads the processing times: global memory or a per-block copy in
// shared memory, fixed when compiled (LB1, whose bound reads them at every step: the loads are
// known to be shared ones), or chosen when launched from params.times_shared (LB2, whose sweeps
// read Johnson's tables from memory chosen when launched too). The LB2 kernels take the IVM's
// placement at launch as well (WarpExplorer, Placement::kAuto): one LB2 kernel per cell type
// instead of three, one per placement (docs/gpu.md, "Build time").
enum class TimesPlace { kGlobal, kShared, kFromParams };

// Select, decode, bound, branch and prune, fused (2022 §3.2-3.3): one team of kTeam lanes per
// IVM (a warp, or a slice of one: docs/gpu.md "Teams"), the kernel launched with K teams in
// blocks of params.warps_per_block warps. Within a launch the IVMs
// are independent (they share only the incumbent), so each warp runs `steps` iterations of its
// IVM in shared memory without global synchronisation, instead of one kernel per operator and
// iteration: the state is loaded and stored once per launch. Initializing IVMs (thieves) first
// unfold at their start (2016 §3.3.2, Algorithm 3). At the end each exploring IVM is normalised
// so that stealing may cut its interval, and counted in Control::active (2022 §3.1). With
// params.settle, exploring IVMs instead run to a clean point and initializing ones wait.
// kMode kPersistent: the persistent explorer instead (warp_persistent.cuh), each team exploring
// its IVM until the launch's deadline and sharing work through the device queue;
// kPersistentRecord the same, recording (it runs the cut pass's code where a team stops).
// The parameters are __grid_constant__: the recording kernel passes them by reference to a
// function it does not inline (cut_pass_here), which otherwise copies them to local memory,
// where the exploration loop then read them (docs/audit.md, "Recording with the persistent
// explorer").
template <class Cell, Placement kPlacement, TimesPlace kTimes, bool kLb2, int kTeam,
          int kMode>
__global__ void __launch_bounds__(kMaxExploreThreads, kExploreBlocksPerSm)
    explore_kernel(const __grid_constant__ PoolView pool,
                   const __grid_constant__ ExploreParams params) {
  extern __shared__ __align__(16) unsigned char shared[];
  const int team_in_block = static_cast<int>(threadIdx.x) / kTeam;
  const int ivm = static_cast<int>(blockIdx.x) * ivms_per_block(params) + team_in_block;
  if constexpr (kMode == kCutPassRecords) {
    // The cut pass has work for a few IVMs of a round: a block with none leaves at once,
    // before it copies the tables into shared memory.
    const bool takes = ivm < pool.count && cut_pass_takes(pool.state[ivm],
                                                          params.cut.open[ivm].pending,
                                                          params.settle);
    if (!__syncthreads_or(takes)) return;
  }
  const Time* times = params.data.times_by_job;
  const bool times_shared = kTimes == TimesPlace::kShared ||
                            (kTimes == TimesPlace::kFromParams && params.times_shared);
  if (times_shared) {
    Time* copy = reinterpret_cast<Time*>(shared);
    const int count = pool.n * pool.m;
    for (int i = threadIdx.x; i < count; i += blockDim.x) copy[i] = times[i];
    times = copy;
  }
  JohnsonView johnson = params.johnson;
  if (kLb2 && params.johnson_shared) {
    johnson = johnson_in_shared(params.johnson, shared + params.times_bytes);
  }
  if (times_shared || (kLb2 && params.johnson_shared)) __syncthreads();
  if (ivm >= pool.count) return;  // whole teams leave: the others' collectives name their own
  unsigned char* workspace = shared + params.times_bytes + params.johnson_bytes +
                             team_in_block * params.layout.bytes;
  const int state = explore_team<Cell, kPlacement, kLb2, kTeam, kMode>(pool, params, times,
                                                                       johnson, workspace, ivm);
  // Recording: thieves waiting for their records (or for the cut pass to start them) count
  // as work; so do the persistent explorer's IVMs that took an interval as their launch ended.
  const bool has_work = state == kExploring ||
                        ((stops_at_cut(kMode) || is_persistent(kMode)) && state == kInitializing);
  if (kMode != kCutPassRecords && warp::lane<kTeam>() == 0 && has_work) {
    atomicAdd(&params.control->active, 1);
  }
}

template <class Cell, Placement kPlacement, int kTeam, int kMode>
ExploreKernel lb1_explore_kernel(bool times_shared) {
  return times_shared
             ? explore_kernel<Cell, kPlacement, TimesPlace::kShared, false, kTeam, kMode>
             : explore_kernel<Cell, kPlacement, TimesPlace::kGlobal, false, kTeam, kMode>;
}

template <class Cell, bool kLb2, int kTeam, int kMode>
ExploreKernel explore_kernel_instance(const ExploreParams& params) {
  if constexpr (kLb2) {
    return explore_kernel<Cell, Placement::kAuto, TimesPlace::kFromParams, true, kTeam, kMode>;
  } else {
    switch (params.placement) {
      case Placement::kShared:
        return lb1_explore_kernel<Cell, Placement::kShared, kTeam, kMode>(params.times_shared);
      case Placement::kStackGlobal:
        return lb1_explore_kernel<Cell, Placement::kStackGlobal, kTeam, kMode>(
            params.times_shared);
      default:
        return lb1_explore_kernel<Cell, Placement::kGlobal, kTeam, kMode>(params.times_shared);
    }
  }
}

}  // namespace permbb::gpu
