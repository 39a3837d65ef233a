#include "cpu_cores.hpp"

#include <sched.h>

#include <algorithm>
#include <cstddef>
#include <thread>

namespace permbb {

CpuMask affinity_mask() {
  CpuMask cpus;
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof mask, &mask) != 0) {
    const auto hardware = std::max(1u, std::thread::hardware_concurrency());
    for (std::size_t c = 0; c < std::min<std::size_t>(hardware, cpus.size()); ++c) cpus.set(c);
    return cpus;
  }
  for (std::size_t c = 0; c < cpus.size() && c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &mask)) cpus.set(c);
  }
  return cpus;
}

int cores_available() { return std::max(1, static_cast<int>(affinity_mask().count())); }

int worker_cores(const std::vector<CpuMask>& masks, int self, int rank_zero) {
  const auto count = static_cast<int>(masks.size());
  if (self < 0 || self >= count) return 1;
  const CpuMask& mine = masks[static_cast<std::size_t>(self)];
  const auto overlaps = [&](int rank) {
    return (masks[static_cast<std::size_t>(rank)] & mine).any();
  };
  int sharers = 0;
  for (int rank = 0; rank < count; ++rank) {
    if (rank != rank_zero && overlaps(rank)) ++sharers;
  }
  const bool with_rank_zero = rank_zero >= 0 && rank_zero < count && overlaps(rank_zero);
  const int cpus = static_cast<int>(mine.count()) - (with_rank_zero ? 1 : 0);
  return std::max(1, cpus / std::max(1, sharers));
}

}  // namespace permbb
