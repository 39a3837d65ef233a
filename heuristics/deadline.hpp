#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>

namespace permbb {

// Which time a Deadline's limit counts.
//   kWall       the steady clock: what a caller waiting for the result sees;
//   kThreadCpu  the CPU time of the thread that polls it: a search's own work, whatever else
//               runs on the machine (benchmarks on a shared machine, where the wall clock
//               gives each run a varying fraction of a core).
enum class DeadlineClock { kWall, kThreadCpu };

// When a heuristic must stop: a time limit, a flag that another thread raises (a solver
// ending its heuristic threads), both or neither. On the wall clock expired() reads the clock
// once (tens of nanoseconds), so the heuristics poll it once per move or node, which costs far
// more. The thread's CPU clock is a system call, so it is read at every kCpuPollStride-th
// poll only; such a Deadline belongs to one thread: it is made and polled there.
class Deadline {
 public:
  // Never expires.
  Deadline() = default;
  // Expires `seconds` from now on `clock` (none when seconds <= 0), or as soon as *stop is
  // true.
  explicit Deadline(double seconds, const std::atomic<bool>* stop = nullptr,
                    DeadlineClock clock = DeadlineClock::kWall)
      : clock_(clock), stop_(stop) {
    if (seconds > 0) {
      timed_ = true;
      end_ = now() + std::chrono::duration_cast<Duration>(std::chrono::duration<double>(seconds));
    }
  }

  bool expired() const {
    if (stop_ != nullptr && stop_->load(std::memory_order_relaxed)) return true;
    if (!timed_) return false;
    if (clock_ == DeadlineClock::kWall) return now() >= end_;
    // Once past, every poll says so: a caller that stops at one poll and checks again at the
    // next (the local search, then the iterated greedy's loop) must not be told otherwise.
    if (!passed_ && ++polls_ % kCpuPollStride == 0) passed_ = now() >= end_;
    return passed_;
  }

  // Whether expired() can ever become true.
  bool bounded() const { return timed_ || stop_ != nullptr; }

 private:
  using Duration = std::chrono::nanoseconds;
  // A move of the local search takes about a microsecond; a system call a fraction of one.
  static constexpr std::uint64_t kCpuPollStride = 16;

  Duration now() const {
    if (clock_ == DeadlineClock::kWall) {
      return std::chrono::duration_cast<Duration>(
          std::chrono::steady_clock::now().time_since_epoch());
    }
    timespec spent{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spent);
    return std::chrono::seconds(spent.tv_sec) + std::chrono::nanoseconds(spent.tv_nsec);
  }

  DeadlineClock clock_ = DeadlineClock::kWall;
  Duration end_{};
  bool timed_ = false;
  const std::atomic<bool>* stop_ = nullptr;
  // kThreadCpu only: the polls since the start, and whether the end was seen passed.
  mutable std::uint64_t polls_ = 0;
  mutable bool passed_ = false;
};

}  // namespace permbb
