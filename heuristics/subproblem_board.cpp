#include "subproblem_board.hpp"

#include <algorithm>

namespace permbb {

void SubproblemBoard::replace(const std::vector<PromotedSubproblem>& latest) {
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.clear();
  for (const PromotedSubproblem& subproblem : latest) {
    if (!subproblem.empty()) entries_.push_back(subproblem);
  }
  next_ = 0;
}

std::optional<PromotedSubproblem> SubproblemBoard::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (entries_.empty()) return std::nullopt;
  if (next_ >= entries_.size()) next_ = 0;
  return entries_[next_++];
}

std::size_t SubproblemBoard::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

PartialSchedule node_at_depth(const PromotedSubproblem& subproblem, int depth) {
  const int fixed = subproblem.prefix + subproblem.suffix;
  depth = std::clamp(depth, 0, fixed);
  const int keep_suffix = fixed == 0 ? 0 : (depth * subproblem.suffix) / fixed;
  const int keep_prefix = depth - keep_suffix;
  const auto& schedule = subproblem.schedule;
  PartialSchedule node;
  node.prefix.assign(schedule.begin(), schedule.begin() + keep_prefix);
  node.suffix.assign(schedule.end() - keep_suffix, schedule.end());
  return node;
}

int random_dive_depth(const PromotedSubproblem& subproblem, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> depth(0, subproblem.prefix + subproblem.suffix);
  return depth(rng);
}

}  // namespace permbb
