#pragma once
#include <atomic>

#include "flowshop_types.hpp"

namespace permbb {

// The lowest makespan any copy of a heuristic has found so far: the searches offer their
// improvements, another thread reads it for progress lines. Lock-free; only the value, since
// the schedule itself comes with the result.
class BestSoFar {
 public:
  void offer(Time makespan) {
    Time seen = value_.load(std::memory_order_relaxed);
    while (makespan < seen &&
           !value_.compare_exchange_weak(seen, makespan, std::memory_order_relaxed)) {
    }
  }
  Time value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<Time> value_{kInfiniteTime};
};

// Offers to `best` when there is one (the searches run without it too).
inline void offer_to(BestSoFar* best, Time makespan) {
  if (best != nullptr) best->offer(makespan);
}

}  // namespace permbb
