#pragma once
#include <cstdint>

#include "incumbent.hpp"
#include "instance.hpp"
#include "ivm_explorer.hpp"
#include "progress_reporter.hpp"
#include "search_settings.hpp"

namespace permbb::app {

struct SearchLimits {
  double seconds = 0;       // 0: none
  std::uint64_t nodes = 0;  // 0: none
};

struct SearchOutcome {
  bool complete = false;
  NodeCounters counters;
};

// One IVM explorer over the whole space [0, n!), on this thread, until it is exhausted or a
// limit is reached. Requires n >= 2.
SearchOutcome search_sequential(const Instance& instance, const SearchSettings& settings,
                                Incumbent& incumbent, const SearchLimits& limits,
                                ProgressReporter& progress);

}  // namespace permbb::app
