#pragma once
// Host-side launchers of the GPU explorer's kernels (kernels.cu). One call per kernel; every
// launch is checked. The exploration kernel is instantiated for int8_t and int16_t matrix
// cells, each placement and both times locations, and picked from pool and params.
#include <cuda_runtime.h>

#include "device_types.hpp"

namespace permbb::gpu {

// The exploration kernel is instantiated per cell type, placement and times location; these
// act on the instantiation `params` selects.
// Raises its dynamic shared-memory limit to what `params` needs per block.
void configure_explore_kernel(int cell_bytes, const ExploreParams& params);

// Blocks of params.warps_per_block warps it keeps resident per multiprocessor.
int explore_blocks_per_sm(int cell_bytes, const ExploreParams& params);

// Shared memory per block of the exploration kernel: the times, Johnson's tables (LB2), then
// one workspace per warp.
int explore_shared_bytes(const ExploreParams& params);

// Each IVM (one warp) explores params.steps nodes, or settles (params.settle).
void launch_explore(const PoolView& pool, const ExploreParams& params, cudaStream_t stream);

// One launch of the persistent explorer (params.persistent, params.persist): its work queue
// reset, its holders counted, then every IVM explored until params.persist's deadline or until
// no work is left (warp_persistent.cuh).
void launch_persistent(const PoolView& pool, const ExploreParams& params, cudaStream_t stream);

// One stealing phase (measure, then steal), skipped on the device unless fewer than
// `trigger` IVMs are exploring (Control::active); thieves take victims by `rule`.
void launch_steal(const PoolView& pool, Control* control, int trigger, StealRule rule,
                  cudaStream_t stream);

// IVM indices[e] gets the interval digits[2n e .. 2n e + n) to digits[.. + 2n): initializing.
void launch_assign(const PoolView& pool, const int* indices, const int* digits, int entries,
                   cudaStream_t stream);

}  // namespace permbb::gpu
