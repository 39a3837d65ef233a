#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "incumbent.hpp"
#include "instance.hpp"
#include "interval.hpp"
#include "neh.hpp"
#include "progress_reporter.hpp"
#include "search_engine.hpp"
#include "signal_watcher.hpp"

namespace permbb::solve {

struct SearchLimits {
  double seconds = 0;       // 0: none
  std::uint64_t nodes = 0;  // 0: none
};

struct SearchOutcome {
  bool complete = false;
  EngineStats stats;
  std::vector<Interval> remaining;  // what is left when incomplete
};

// The time limit (--time-limit) counts from the command's start, set-up included: NEH alone
// takes minutes on thousands of jobs. During set-up, `setup_stop` says when to cut it short
// (the limit has passed, or SIGTERM/SIGINT came); the search then gets what is left of the
// limit (at least a moment: it stops at once, incomplete, and its work is saved).
class RunClock {
 public:
  RunClock(double time_limit_seconds, const SignalWatcher& signals)
      : limit_(time_limit_seconds), signals_(signals) {}
  double elapsed_seconds() const;
  StopCheck setup_stop() const;
  double search_time_limit() const;  // 0: none
  bool has_time_limit() const { return limit_ > 0; }
  // "stopped by SIGTERM" once a run signal came, else "".
  std::string stop_signal_reason() const;

 private:
  double limit_;
  const SignalWatcher& signals_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// Called between slices with the paused engine; returns true to stop the search (a signal).
using BetweenSlices = std::function<bool(SearchEngine& engine, const EngineStats& stats)>;

// Drives an engine over `work` in slices: between slices it reports progress, calls
// `between` (checkpoints, signals) and checks the limits; it ends when the work is exhausted,
// a limit is reached or `between` says stop.
SearchOutcome drive_search(SearchEngine& engine, const std::vector<Interval>& work,
                           const Incumbent& incumbent,
                           const SearchLimits& limits, ProgressReporter& progress,
                           const BetweenSlices& between);

}  // namespace permbb::solve
