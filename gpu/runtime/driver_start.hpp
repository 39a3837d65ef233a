#pragma once
#include <thread>

namespace permbb::gpu {

// Starts the CUDA driver on a thread of its own, so that its start (0.2-0.5 s, longer when
// several processes start at once: docs/scale.md, "The start at four GPUs") overlaps what the
// process does before it sets up an engine: MPI's start, reading the instance, the upper
// bound. The set-up's first CUDA call then finds the driver started, or waits for the rest of
// its start. Nothing is made on a device: which device a rank takes is known only later. The
// destructor waits for the thread. Without CUDA, when not `wanted`, or when no thread can be
// started, nothing happens.
class DriverStart {
 public:
  explicit DriverStart(bool wanted);
  ~DriverStart();
  DriverStart(const DriverStart&) = delete;
  DriverStart& operator=(const DriverStart&) = delete;

 private:
  std::thread thread_;
};

}  // namespace permbb::gpu
