#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "incumbent.hpp"
#include "instance.hpp"
#include "interval.hpp"
#include "progress_reporter.hpp"
#include "search_engine.hpp"

namespace permbb::app {

struct SearchLimits {
  double seconds = 0;       // 0: none
  std::uint64_t nodes = 0;  // 0: none
};

struct SearchOutcome {
  bool complete = false;
  EngineStats stats;
  std::vector<Interval> remaining;  // what is left when incomplete
};

// Called between slices with the paused engine; returns true to stop the search (a signal).
using BetweenSlices = std::function<bool(SearchEngine& engine, const EngineStats& stats)>;

// Drives an engine over `work` in slices: between slices it reports progress, calls
// `between` (checkpoints, signals) and checks the limits; it ends when the work is exhausted,
// a limit is reached or `between` says stop.
SearchOutcome drive_search(SearchEngine& engine, const Instance& instance,
                           const std::vector<Interval>& work, const Incumbent& incumbent,
                           const SearchLimits& limits, ProgressReporter& progress,
                           const BetweenSlices& between);

}  // namespace permbb::app
