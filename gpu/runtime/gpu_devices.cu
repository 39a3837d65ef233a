#include <cuda_runtime.h>

#include "gpu_devices.hpp"

namespace permbb::gpu {

bool built_with_cuda() { return true; }

// A machine without a driver or device is not an error here: the solver then runs on CPUs.
std::vector<DeviceInfo> list_devices() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error
    return {};
  }
  std::vector<DeviceInfo> devices;
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) continue;
    DeviceInfo info;
    info.index = i;
    info.name = prop.name;
    info.multiprocessors = prop.multiProcessorCount;
    info.global_memory_bytes = static_cast<long long>(prop.totalGlobalMem);
    info.shared_memory_per_block = static_cast<int>(prop.sharedMemPerBlockOptin);
    info.compute_major = prop.major;
    info.compute_minor = prop.minor;
    devices.push_back(info);
  }
  return devices;
}

}  // namespace permbb::gpu
