#pragma once
#include <chrono>
#include <cstdint>

#include "flowshop_types.hpp"

namespace permbb::app {

// What a progress line shows.
struct ProgressSnapshot {
  std::uint64_t nodes_decomposed = 0;
  Time best = kInfiniteTime;
  double explored_fraction = 0;  // of [0, n!)
  int active_explorers = 1;
};

// Prints a progress line on stderr (through the logger) at most every `period` seconds.
// due() is cheap, so the search loop asks it often and builds a snapshot only when due.
class ProgressReporter {
 public:
  explicit ProgressReporter(double period_seconds, bool enabled);

  bool due() const { return enabled_ && std::chrono::steady_clock::now() >= next_; }
  void report(const ProgressSnapshot& snapshot);
  double elapsed_seconds() const;
  double period_seconds() const { return period_.count(); }

 private:
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point next_;
  std::chrono::duration<double> period_;
  bool enabled_;
  std::uint64_t last_nodes_ = 0;
  double last_seconds_ = 0;
};

}  // namespace permbb::app
