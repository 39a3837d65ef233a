#include "cpu_cores.hpp"

#include <sched.h>

#include <algorithm>
#include <thread>

namespace permbb {
namespace {

int hardware_threads() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

}  // namespace

int cores_available() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof mask, &mask) != 0) return hardware_threads();
  return std::max(1, CPU_COUNT(&mask));
}

int cores_per_process(int processes_on_node, int reserved_cores) {
  const int available = cores_available();
  if (available < hardware_threads()) return available;
  return std::max(1, (available - std::max(0, reserved_cores)) / std::max(1, processes_on_node));
}

int cores_per_worker(int ranks_on_node, bool rank_zero_here) {
  const int rank_zero = rank_zero_here ? 1 : 0;
  return cores_per_process(std::max(1, ranks_on_node - rank_zero), rank_zero);
}

}  // namespace permbb
