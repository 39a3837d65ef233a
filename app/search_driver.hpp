#pragma once
#include <cstdint>
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

// Drives an engine over `work` in slices: between slices it reports progress and checks the
// limits; it ends when the work is exhausted or a limit is reached.
SearchOutcome drive_search(SearchEngine& engine, const Instance& instance,
                           const std::vector<Interval>& work, const Incumbent& incumbent,
                           const SearchLimits& limits, ProgressReporter& progress);

}  // namespace permbb::app
