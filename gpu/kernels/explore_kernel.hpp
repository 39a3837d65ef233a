#pragma once
// The exploration kernel's instantiations (explore_kernel.cuh). Each bound and team width is
// compiled in its own translation unit (explore_lb1_team8.cu, explore_lb1_team16.cu,
// explore_lb1_team32.cu, explore_lb2.cu), so that a build compiles them side by side: the
// instantiations are most of the GPU library's compile time. kernels.cu picks one per launch.
#include "device_types.hpp"

namespace permbb::gpu {

using ExploreKernel = void (*)(PoolView, ExploreParams);

// The kernel for matrix cells of `cell_bytes` bytes (1 or 2) and the placement and times
// location of `params`: LB2 in whole warps (kLb2), or LB1 in teams of kTeam lanes.
template <bool kLb2, int kTeam>
ExploreKernel explore_kernel_instance(int cell_bytes, const ExploreParams& params);

}  // namespace permbb::gpu
