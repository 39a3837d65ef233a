#pragma once
#include <atomic>
#include <mutex>
#include <vector>

#include "flowshop_types.hpp"

namespace permbb {

// The best schedule known so far, shared by every explorer of a process. Its value is the
// pruning threshold: a node is pruned when its bound reaches it. It starts from the initial
// upper bound (`--ub N`: only schedules better than N are looked for) with no schedule, or from
// a heuristic's schedule. Readers poll value() on the hot path (one relaxed atomic load);
// offers take a lock, and are rare.
class Incumbent {
 public:
  explicit Incumbent(Time upper_bound = kInfiniteTime) : value_(upper_bound) {}

  Time value() const { return value_.load(std::memory_order_relaxed); }

  // Takes the schedule if it is strictly better; returns whether it did.
  bool offer(const int* permutation, int jobs, Time makespan) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (makespan >= value_.load(std::memory_order_relaxed)) return false;
    permutation_.assign(permutation, permutation + jobs);
    value_.store(makespan, std::memory_order_relaxed);
    return true;
  }

  bool offer(const std::vector<int>& permutation, Time makespan) {
    return offer(permutation.data(), static_cast<int>(permutation.size()), makespan);
  }

  // A bound learnt from elsewhere (another rank) with no schedule attached.
  void lower_to(Time upper_bound) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (upper_bound < value_.load(std::memory_order_relaxed)) {
      value_.store(upper_bound, std::memory_order_relaxed);
      permutation_.clear();
    }
  }

  bool has_schedule() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return !permutation_.empty();
  }

  // The schedule achieving value(), empty when the value is only a bound.
  std::vector<int> permutation() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return permutation_;
  }

 private:
  std::atomic<Time> value_;
  mutable std::mutex mutex_;
  std::vector<int> permutation_;
};

// Offers to `incumbent` when there is one: the heuristics report their improvements to a
// shared Incumbent only when a caller follows them (progress lines).
inline void offer_to(Incumbent* incumbent, const std::vector<int>& permutation, Time makespan) {
  if (incumbent != nullptr) incumbent->offer(permutation, makespan);
}

}  // namespace permbb
