#pragma once
// Checked CUDA calls: every runtime call and kernel launch goes through PERMBB_CUDA_CHECK, which
// throws std::runtime_error naming the call, file:line and cudaGetErrorString, so a failure is
// reported where it happened (style.md: errors checked at every boundary, with context).
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace permbb::gpu {

inline std::string cuda_error_message(cudaError_t error, const char* call, const char* file,
                                      int line) {
  return std::string("CUDA error: ") + call + " at " + file + ":" + std::to_string(line) + ": " +
         cudaGetErrorString(error);
}

inline void cuda_check(cudaError_t error, const char* call, const char* file, int line) {
  if (error != cudaSuccess) {
    cudaGetLastError();  // clear a non-sticky error so later calls are not blamed for it
    throw std::runtime_error(cuda_error_message(error, call, file, line));
  }
}

}  // namespace permbb::gpu

#define PERMBB_CUDA_CHECK(call) ::permbb::gpu::cuda_check((call), #call, __FILE__, __LINE__)

// After a <<<...>>> launch: configuration errors surface at once, faults at the next sync.
#define PERMBB_CUDA_CHECK_LAUNCH(what) \
  ::permbb::gpu::cuda_check(cudaGetLastError(), "launch of " what, __FILE__, __LINE__)
