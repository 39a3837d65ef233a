#include "solution_pool.hpp"

#include <algorithm>
#include <stdexcept>

namespace permbb {

SolutionPool::SolutionPool(int capacity) : capacity_(capacity) {
  if (capacity < 1) throw std::invalid_argument("SolutionPool: the capacity must be positive");
  entries_.reserve(static_cast<std::size_t>(capacity));
}

int SolutionPool::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int>(entries_.size());
}

bool SolutionPool::insert(const std::vector<int>& permutation, Time makespan) {
  if (permutation.empty()) return false;
  std::lock_guard<std::mutex> lock(mutex_);
  const bool full = static_cast<int>(entries_.size()) >= capacity_;
  if (full && makespan >= entries_.back().makespan) return false;
  for (const Schedule& kept : entries_) {
    if (kept.makespan == makespan && kept.permutation == permutation) return false;
  }
  if (full) entries_.pop_back();
  const auto at =
      std::upper_bound(entries_.begin(), entries_.end(), makespan,
                       [](Time value, const Schedule& kept) { return value < kept.makespan; });
  entries_.insert(at, Schedule{permutation, makespan});
  return true;
}

std::optional<Schedule> SolutionPool::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (entries_.empty()) return std::nullopt;
  if (next_ >= entries_.size()) next_ = 0;
  return entries_[next_++];
}

std::optional<Schedule> SolutionPool::best() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (entries_.empty()) return std::nullopt;
  return entries_.front();
}

std::vector<Schedule> SolutionPool::contents() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_;
}

}  // namespace permbb
