// The exploration kernel for LB2 and LB1+LB2, in whole warps; explore_kernel.hpp says why
// each bound and team width has its own file.
#include "explore_kernel.cuh"

namespace permbb::gpu {

template ExploreKernel explore_kernel_instance<true, 32>(int cell_bytes,
                                                       const ExploreParams& params);

}  // namespace permbb::gpu
