// The stand-in for builds without nvcc: no GPU filler can be made.
#include <stdexcept>

#include "gpu_table_filler.hpp"

namespace permbb::pcmax::gpu {

std::unique_ptr<TableFiller> make_gpu_table_filler(const GpuFillerOptions&) {
  throw std::runtime_error("built without CUDA");
}

}  // namespace permbb::pcmax::gpu
