// The CUDA driver started on a thread of its own (gpu/runtime/driver_start.hpp): whether
// or not this machine has a GPU, starting it early (and making the guessed device's context)
// changes nothing the set-up then reads, and the set-up's own first CUDA call may run while
// it starts.
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

// Given a local rank, the thread also makes the context of the device that rank takes (the
// rank modulo the devices): a rank past the device count wraps, and the set-up's own calls
// beside it see the same devices.
TEST(DriverStart, AGuessedDeviceLeavesTheDevicesAsTheSetUpWouldFindThem) {
  const std::vector<std::string> before = names(list_devices());
  for (int local_rank : {0, 7}) {
    std::vector<std::string> during;
    {
      const DriverStart start(true, local_rank);
      during = names(list_devices());
    }
    EXPECT_EQ(during, before) << "local rank " << local_rank;
  }
  EXPECT_EQ(names(list_devices()), before);
}

}  // namespace
}  // namespace permbb::gpu
