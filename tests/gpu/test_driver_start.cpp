// The CUDA driver started on a thread of its own (gpu/runtime/driver_start.hpp): whether
// or not this machine has a GPU, starting it early changes nothing the set-up then reads,
// and the set-up's own first CUDA call may run while it starts.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver_start.hpp"
#include "gpu_devices.hpp"

namespace permbb::gpu {
namespace {

std::vector<std::string> names(const std::vector<DeviceInfo>& devices) {
  std::vector<std::string> out;
  for (const DeviceInfo& d : devices) out.push_back(std::to_string(d.index) + " " + d.name);
  return out;
}

TEST(DriverStart, LeavesTheDevicesAsTheSetUpWouldFindThem) {
  { const DriverStart idle(false); }
  std::vector<std::string> during;
  {
    const DriverStart start(true);
    during = names(list_devices());  // the set-up's first call, beside the start
  }
  const std::vector<std::string> after = names(list_devices());
  EXPECT_EQ(during, after);
  if (!built_with_cuda()) EXPECT_TRUE(after.empty());
}

}  // namespace
}  // namespace permbb::gpu
