// The kernels of the GPU explorer (2022 §3, 2016 §3.3) and their launchers.
#include <cstdint>

#include "cuda_check.hpp"
#include "kernels.hpp"
#include "steal_logic.hpp"
#include "warp_explorer.cuh"

namespace permbb::gpu {
namespace {

// At most 64 registers per thread, so that 32 warps can be resident per SM (2 blocks of the
// largest size, or more of smaller ones). Capping LB1 at 40 registers for 48 warps (75 %
// occupancy) spilled 200-600 bytes per thread and explored 5-32 % slower on an H200
// (docs/gpu.md, "Registers and occupancy").
constexpr int kMaxExploreThreads = warp::kSize * kMaxWarpsPerBlock;
constexpr int kExploreBlocksPerSm = 32 / kMaxWarpsPerBlock;

// Select, decode, bound, branch and prune, fused (2022 §3.2-3.3): one team of kTeam lanes per
// IVM (a warp, or a slice of one: docs/gpu.md "Teams"), the kernel launched with K teams in
// blocks of params.warps_per_block warps. Within a launch the IVMs
// are independent (they share only the incumbent), so each warp runs `steps` iterations of its
// IVM in shared memory without global synchronisation, instead of one kernel per operator and
// iteration: the state is loaded and stored once per launch. Initializing IVMs (thieves) first
// unfold at their start (2016 §3.3.2, Algorithm 3). At the end each exploring IVM is normalised
// so that stealing may cut its interval, and counted in Control::active (2022 §3.1). With
// params.settle, exploring IVMs instead run to a clean point and initializing ones wait.
// The per-block shared copy of Johnson's tables (LB2): machine pairs then sequences, placed
// after the processing times. All lanes of a warp read the same entry at once, which shared
// memory serves as a broadcast (2016 §5.2 put the bound's data in the fastest memory too).
__device__ JohnsonView johnson_in_shared(const JohnsonView& global, unsigned char* at) {
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

template <class Cell, Placement kPlacement, bool kTimesShared, bool kLb2, int kTeam>
__global__ void __launch_bounds__(kMaxExploreThreads, kExploreBlocksPerSm)
    explore_kernel(const PoolView pool, const ExploreParams params) {
  extern __shared__ __align__(16) unsigned char shared[];
  const Time* times = params.data.times_by_job;
  if (kTimesShared) {
    Time* copy = reinterpret_cast<Time*>(shared);
    const int count = pool.n * pool.m;
    for (int i = threadIdx.x; i < count; i += blockDim.x) copy[i] = times[i];
    times = copy;
  }
  JohnsonView johnson = params.johnson;
  if (kLb2 && params.johnson_shared) {
    johnson = johnson_in_shared(params.johnson, shared + params.times_bytes);
  }
  if (kTimesShared || (kLb2 && params.johnson_shared)) __syncthreads();
  const int team_in_block = static_cast<int>(threadIdx.x) / kTeam;
  const int ivm = static_cast<int>(blockIdx.x) * ivms_per_block(params) + team_in_block;
  if (ivm >= pool.count) return;  // whole teams leave: the others' collectives name their own
  unsigned char* workspace = shared + params.times_bytes + params.johnson_bytes +
                             team_in_block * params.layout.bytes;
  const int state =
      explore_ivm<Cell, kPlacement, kLb2, kTeam>(pool, params, times, johnson, workspace, ivm);
  if (warp::lane<kTeam>() == 0 && state == kExploring) atomicAdd(&params.control->active, 1);
}

// Stealing step 1 (2022 §3.4, "a helper kernel computes the average interval-length"): one
// thread per IVM measures its interval; warp sums, then one atomic per warp.
__global__ void measure_kernel(const PoolView pool, Control* control, int trigger) {
  if (!stealing_triggered(control->active, trigger)) return;
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  double length = -1.0;
  if (i < pool.count) {
    length = measure_victim(pool, i);
    pool.length[i] = length;
  }
  const bool counted = length >= 0;
  const double sum = warp::sum(counted ? length : 0.0);
  const int count = warp::sum(counted ? 1 : 0);
  if (warp::lane() == 0 && count > 0) {
    atomicAdd(&control->length_sum, sum);
    atomicAdd(&control->length_count, count);
  }
}

// Stealing step 2 (2022 §3.4): each empty IVM polls its hypercube neighbours for a victim.
__global__ void steal_kernel(const PoolView pool, Control* control, int trigger) {
  if (!stealing_triggered(control->active, trigger)) return;
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= pool.count || control->length_count == 0) return;
  const double average = control->length_sum / control->length_count;
  if (steal_for(pool, i, average)) atomicAdd(&control->steals, 1ULL);
}

// Intervals from the host (set_work, the host queue) handed to IVMs, which initialise next.
__global__ void assign_kernel(const PoolView pool, const int* indices, const int* digits,
                              int entries) {
  const int e = static_cast<int>(blockIdx.x);
  if (e >= entries) return;
  const int i = indices[e];
  const int n = pool.n;
  for (int d = threadIdx.x; d < n; d += blockDim.x) {
    pool.pos[static_cast<long long>(i) * n + d] = digits[2LL * n * e + d];
    pool.end[static_cast<long long>(i) * n + d] = digits[2LL * n * e + n + d];
  }
  if (threadIdx.x == 0) pool.state[i] = kInitializing;
}

int blocks_for(int count, int per_block) { return (count + per_block - 1) / per_block; }

using ExploreKernel = void (*)(PoolView, ExploreParams);

template <class Cell, Placement kPlacement, bool kLb2, int kTeam>
ExploreKernel explore_kernel_with(bool times_shared) {
  return times_shared ? explore_kernel<Cell, kPlacement, true, kLb2, kTeam>
                      : explore_kernel<Cell, kPlacement, false, kLb2, kTeam>;
}

template <class Cell, bool kLb2, int kTeam>
ExploreKernel explore_kernel_for(const ExploreParams& params) {
  switch (params.placement) {
    case Placement::kShared:
      return explore_kernel_with<Cell, Placement::kShared, kLb2, kTeam>(params.times_shared);
    case Placement::kStackGlobal:
      return explore_kernel_with<Cell, Placement::kStackGlobal, kLb2, kTeam>(params.times_shared);
    default:
      return explore_kernel_with<Cell, Placement::kGlobal, kLb2, kTeam>(params.times_shared);
  }
}

// LB1 runs in teams of params.team_width lanes; the LB2 kernels in whole warps.
template <class Cell>
ExploreKernel explore_kernel_for(const ExploreParams& params) {
  if (params.bound != GpuBound::kLb1) return explore_kernel_for<Cell, true, warp::kSize>(params);
  switch (params.team_width) {
    case 8: return explore_kernel_for<Cell, false, 8>(params);
    case 16: return explore_kernel_for<Cell, false, 16>(params);
    default: return explore_kernel_for<Cell, false, warp::kSize>(params);
  }
}

// The instantiation for the cell type, placement, times location and bound of `params`.
ExploreKernel explore_kernel_for(int cell_bytes, const ExploreParams& params) {
  return cell_bytes == 1 ? explore_kernel_for<std::int8_t>(params)
                         : explore_kernel_for<std::int16_t>(params);
}

}  // namespace

void configure_explore_kernel(int cell_bytes, const ExploreParams& params) {
  PERMBB_CUDA_CHECK(cudaFuncSetAttribute(explore_kernel_for(cell_bytes, params),
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         explore_shared_bytes(params)));
}

int explore_blocks_per_sm(int cell_bytes, const ExploreParams& params) {
  int blocks = 0;
  PERMBB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, explore_kernel_for(cell_bytes, params), warp::kSize * params.warps_per_block,
      explore_shared_bytes(params)));
  return blocks;
}

int explore_shared_bytes(const ExploreParams& params) {
  return params.times_bytes + params.johnson_bytes + ivms_per_block(params) * params.layout.bytes;
}

void launch_explore(const PoolView& pool, const ExploreParams& params, cudaStream_t stream) {
  const int blocks = blocks_for(pool.count, ivms_per_block(params));
  explore_kernel_for(pool.cell_bytes, params)<<<blocks, warp::kSize * params.warps_per_block,
                                                explore_shared_bytes(params), stream>>>(pool,
                                                                                        params);
  PERMBB_CUDA_CHECK_LAUNCH("explore_kernel");
}

void launch_steal(const PoolView& pool, Control* control, int trigger, cudaStream_t stream) {
  constexpr int kThreads = 256;
  const int blocks = blocks_for(pool.count, kThreads);
  measure_kernel<<<blocks, kThreads, 0, stream>>>(pool, control, trigger);
  PERMBB_CUDA_CHECK_LAUNCH("measure_kernel");
  steal_kernel<<<blocks, kThreads, 0, stream>>>(pool, control, trigger);
  PERMBB_CUDA_CHECK_LAUNCH("steal_kernel");
}

void launch_assign(const PoolView& pool, const int* indices, const int* digits, int entries,
                   cudaStream_t stream) {
  if (entries == 0) return;
  assign_kernel<<<entries, 32, 0, stream>>>(pool, indices, digits, entries);
  PERMBB_CUDA_CHECK_LAUNCH("assign_kernel");
}

}  // namespace permbb::gpu
