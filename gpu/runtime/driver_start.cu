#include <cuda_runtime.h>

#include <system_error>

#include "driver_start.hpp"

namespace permbb::gpu {

DriverStart::DriverStart(bool wanted, std::optional<int> local_rank) {
  if (!wanted) return;
  try {
    thread_ = std::thread([local_rank] {
      int count = 0;
      // No driver or no device is not an error here (list_devices says so later); the error
      // state is this thread's own, cleared so that it ends clean.
      if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();
        return;
      }
      // cudaSetDevice makes the device's primary context, which the set-up's own
      // cudaSetDevice on the same device then finds (engine_setup.cu, select_device).
      if (local_rank && *local_rank >= 0 && count > 0 &&
          cudaSetDevice(*local_rank % count) != cudaSuccess) {
        cudaGetLastError();
      }
    });
  } catch (const std::system_error&) {
    // No thread to spare: the set-up starts the driver itself, as without this.
  }
}

DriverStart::~DriverStart() {
  if (thread_.joinable()) thread_.join();
}

}  // namespace permbb::gpu
