#pragma once
// Progress lines for a command whose work runs inside a library call: a thread that calls
// `tick(seconds since start)` every `period` seconds until it is destroyed.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

namespace permbb {

class ProgressTicker {
 public:
  // No thread for a period <= 0 (progress off), nor from a billion seconds up: the clock
  // counts nanoseconds, which overflow past 9.2e9 s and would tick at once, and no run lasts
  // 31 years.
  ProgressTicker(double period_seconds, std::function<void(double)> tick)
      : period_(period_seconds), tick_(std::move(tick)) {
    if (period_seconds > 0 && period_seconds < kLongestPeriodSeconds) {
      thread_ = std::thread([this] { run(); });
    }
  }
  ~ProgressTicker() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopped_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  ProgressTicker(const ProgressTicker&) = delete;
  ProgressTicker& operator=(const ProgressTicker&) = delete;

 private:
  static constexpr double kLongestPeriodSeconds = 1e9;

  void run() {
    const auto start = std::chrono::steady_clock::now();
    const auto period = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(period_));
    auto next = start + period;
    std::unique_lock<std::mutex> lock(mutex_);
    while (!wake_.wait_until(lock, next, [this] { return stopped_; })) {
      tick_(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      next += period;
    }
  }

  const double period_;
  const std::function<void(double)> tick_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopped_ = false;
  std::thread thread_;  // last: started once the rest is built
};

}  // namespace permbb
