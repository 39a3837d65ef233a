#include "driver_start.hpp"

namespace permbb::gpu {

DriverStart::DriverStart(bool, std::optional<int>) {}

DriverStart::~DriverStart() = default;

}  // namespace permbb::gpu
