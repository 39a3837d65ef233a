#include "elite_restart.hpp"

#include <algorithm>

namespace permbb {

EliteRestart::EliteRestart(std::uint64_t stall_limit, int elite_size)
    : stall_limit_(stall_limit), elite_(std::max(1, elite_size)) {}

bool EliteRestart::after_iteration(const Schedule& current, bool new_best) {
  if (!enabled()) return false;
  elite_.insert(current);
  stalled_ = new_best ? 0 : stalled_ + 1;
  if (stalled_ < stall_limit_) return false;
  stalled_ = 0;
  return true;
}

Schedule EliteRestart::restart_point() {
  // Never empty here: after_iteration kept the current schedule before asking for a restart.
  return *elite_.take();
}

}  // namespace permbb
