#include <cuda_runtime.h>

#include <system_error>

#include "driver_start.hpp"

namespace permbb::gpu {

DriverStart::DriverStart(bool wanted) {
  if (!wanted) return;
  try {
    thread_ = std::thread([] {
      int count = 0;
      // No driver or no device is not an error here (list_devices says so later); the error
      // state is this thread's own, cleared so that it ends clean.
      if (cudaGetDeviceCount(&count) != cudaSuccess) cudaGetLastError();
    });
  } catch (const std::system_error&) {
    // No thread to spare: the set-up starts the driver itself, as without this.
  }
}

DriverStart::~DriverStart() {
  if (thread_.joinable()) thread_.join();
}

}  // namespace permbb::gpu
