#pragma once
#include <optional>
#include <thread>

namespace permbb::gpu {

// Starts the CUDA driver on a thread of its own, so that its start (0.2-0.5 s, longer when
// several processes start at once: docs/scale.md, "The start at four GPUs") overlaps what the
// process does before it sets up an engine: MPI's start, reading the instance, the upper
// bound. Given the rank's place on its node as its launcher tells it (`local_rank`), the
// thread also makes the context of the device that rank will take (local rank modulo the
// visible devices, solve/engine_factory.cpp), which costs as much again; the set-up's first
// CUDA calls then find them made, or wait for the rest. A guess that proves wrong leaves that
// device a context this process does not use (worker/worker_rank.cpp says so). The
// destructor waits for the thread. Without CUDA, when not `wanted`, or when no thread can be
// started, nothing happens.
class DriverStart {
 public:
  explicit DriverStart(bool wanted, std::optional<int> local_rank = std::nullopt);
  ~DriverStart();
  DriverStart(const DriverStart&) = delete;
  DriverStart& operator=(const DriverStart&) = delete;

 private:
  std::thread thread_;
};

}  // namespace permbb::gpu
