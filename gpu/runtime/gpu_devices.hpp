#pragma once
#include <string>
#include <vector>

namespace permbb::gpu {

// What the solver needs to know of a CUDA device to size its IVMs (read off the device,
// never assumed).
struct DeviceInfo {
  int index = 0;
  std::string name;
  int multiprocessors = 0;
  long long global_memory_bytes = 0;
  int shared_memory_per_block = 0;
  int compute_major = 0;
  int compute_minor = 0;
};

// True when this binary was built with the CUDA explorer.
bool built_with_cuda();

// The devices visible to this process; empty without a GPU (or without CUDA support).
std::vector<DeviceInfo> list_devices();

}  // namespace permbb::gpu
