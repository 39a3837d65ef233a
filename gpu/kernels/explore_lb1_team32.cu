// The exploration kernel for LB1 in whole warps, the default; explore_kernel.hpp says why
// each bound and team width has its own file.
#include "explore_kernel.cuh"

namespace permbb::gpu {

template ExploreKernel explore_kernel_instance<false, 32>(int cell_bytes,
                                                       const ExploreParams& params);

}  // namespace permbb::gpu
