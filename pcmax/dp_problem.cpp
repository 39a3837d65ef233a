#include "dp_problem.hpp"

#include <stdexcept>

namespace permbb::pcmax {

DpProblem::DpProblem(const std::vector<ClassCount>& classes, std::uint64_t capacity,
                     std::uint32_t limit_, std::uint64_t max_configurations,
                     const RunControl* control)
    : shape(classes, capacity), configs(shape, max_configurations, control), limit(limit_) {
  if (limit < 1 || limit >= 0xffffffffu) throw std::invalid_argument("DpProblem: bad limit");
}

int DpProblem::entry_bytes() const {
  return entry_bytes_for_limit(limit);
}

int entry_bytes_for_limit(std::uint32_t limit) {
  if (limit <= 0xffu) return 1;
  if (limit <= 0xffffu) return 2;
  return 4;
}

}  // namespace permbb::pcmax
