#include "driver_start.hpp"

namespace permbb::gpu {

DriverStart::DriverStart(bool) {}

DriverStart::~DriverStart() = default;

}  // namespace permbb::gpu
