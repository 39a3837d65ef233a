// The GPU explorer's launchers (2022 §3, 2016 §3.3), and its stealing and assignment kernels;
// the exploration kernel is in explore_kernel.cuh.
#include <cstdint>
#include <stdexcept>

#include "cuda_check.hpp"
#include "explore_kernel.hpp"
#include "kernels.hpp"
#include "steal_logic.hpp"
#include "warp_primitives.cuh"

namespace permbb::gpu {
namespace {

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
__global__ void steal_kernel(const PoolView pool, Control* control, int trigger, StealRule rule) {
  if (!stealing_triggered(control->active, trigger)) return;
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= pool.count || control->length_count == 0) return;
  const double threshold = steal_threshold(rule, control->length_sum, control->length_count);
  if (steal_for(pool, i, threshold, rule)) atomicAdd(&control->steals, 1ULL);
}

// Before a persistent launch: each IVM with an interval makes its team a holder
// (work_queue.hpp); warp counts, one atomic per warp.
__global__ void count_holders_kernel(const PoolView pool, const WorkQueueView queue) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const bool holds = i < pool.count && pool.state[i] != kEmpty;
  const int holders = warp::sum(holds ? 1 : 0);
  if (warp::lane() == 0 && holders > 0) {
    atomicAdd(&queue.counters->work, static_cast<unsigned long long>(holders) * kOneHolder);
  }
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

// LB1 runs in teams of params.team_width lanes (8 and 16 only where built: PERMBB_GPU_TEAMS);
// the LB2 kernels in whole warps.
template <class Cell, int kMode>
ExploreKernel explore_kernel_for(const ExploreParams& params) {
  if (params.bound != GpuBound::kLb1) {
    return explore_kernel_instance<Cell, true, warp::kSize, kMode>(params);
  }
#if PERMBB_GPU_TEAMS
  if (params.team_width == 8) return explore_kernel_instance<Cell, false, 8, kMode>(params);
  if (params.team_width == 16) return explore_kernel_instance<Cell, false, 16, kMode>(params);
#endif
  return explore_kernel_instance<Cell, false, warp::kSize, kMode>(params);
}

template <class Cell>
ExploreKernel explore_kernel_for(const ExploreParams& params) {
  if (params.cut.depth < 0) {
    // A settle of the persistent explorer runs the rounds' kernel.
    return params.persistent && !params.settle ? explore_kernel_for<Cell, kPersistent>(params)
                                               : explore_kernel_for<Cell, kCutOff>(params);
  }
  if (params.cut_pass) return explore_kernel_for<Cell, kCutPassRecords>(params);
  return params.persistent && !params.settle ? explore_kernel_for<Cell, kPersistentRecord>(params)
                                             : explore_kernel_for<Cell, kCutExplore>(params);
}

// The instantiation for the cell type, placement, times location and bound of `params`, and
// whether (and in which pass) it records a certificate's cut.
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

void launch_persistent(const PoolView& pool, const ExploreParams& params, cudaStream_t stream) {
  // Each team keeps its progress in its workspace (warp_persistent.cuh, team_progress).
  if (params.layout.progress < 0) {
    throw std::logic_error("launch_persistent: the layout has no progress slot");
  }
  const WorkQueueView& queue = params.persist.queue;
  PERMBB_CUDA_CHECK(
      cudaMemsetAsync(queue.counters, 0, sizeof(WorkQueueCounters), stream));
  PERMBB_CUDA_CHECK(cudaMemsetAsync(queue.ready, 0, sizeof(unsigned) * queue.capacity, stream));
  constexpr int kThreads = 256;
  count_holders_kernel<<<blocks_for(pool.count, kThreads), kThreads, 0, stream>>>(pool, queue);
  PERMBB_CUDA_CHECK_LAUNCH("count_holders_kernel");
  launch_explore(pool, params, stream);
}

void launch_steal(const PoolView& pool, Control* control, int trigger, StealRule rule,
                  cudaStream_t stream) {
  constexpr int kThreads = 256;
  const int blocks = blocks_for(pool.count, kThreads);
  measure_kernel<<<blocks, kThreads, 0, stream>>>(pool, control, trigger);
  PERMBB_CUDA_CHECK_LAUNCH("measure_kernel");
  steal_kernel<<<blocks, kThreads, 0, stream>>>(pool, control, trigger, rule);
  PERMBB_CUDA_CHECK_LAUNCH("steal_kernel");
}

void launch_assign(const PoolView& pool, const int* indices, const int* digits, int entries,
                   cudaStream_t stream) {
  if (entries == 0) return;
  assign_kernel<<<entries, 32, 0, stream>>>(pool, indices, digits, entries);
  PERMBB_CUDA_CHECK_LAUNCH("assign_kernel");
}

}  // namespace permbb::gpu
