#pragma once
#include <atomic>
#include <chrono>

namespace permbb {

// When a heuristic must stop: a time limit on the steady clock, a flag that another thread
// raises (a solver ending its heuristic threads), both or neither. expired() reads the clock
// once (tens of nanoseconds), so the heuristics poll it once per move or node, which costs far
// more.
class Deadline {
 public:
  // Never expires.
  Deadline() = default;
  // Expires `seconds` from now (none when seconds <= 0), or as soon as *stop is true.
  explicit Deadline(double seconds, const std::atomic<bool>* stop = nullptr) : stop_(stop) {
    if (seconds > 0) {
      timed_ = true;
      end_ = Clock::now() +
             std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    }
  }

  bool expired() const {
    if (stop_ != nullptr && stop_->load(std::memory_order_relaxed)) return true;
    return timed_ && Clock::now() >= end_;
  }

  // Whether expired() can ever become true.
  bool bounded() const { return timed_ || stop_ != nullptr; }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point end_{};
  bool timed_ = false;
  const std::atomic<bool>* stop_ = nullptr;
};

}  // namespace permbb
