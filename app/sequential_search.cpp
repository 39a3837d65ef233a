#include "sequential_search.hpp"

#include <memory>
#include <vector>

#include "factoradic.hpp"
#include "flowshop_tables.hpp"
#include "johnson_tables.hpp"

namespace permbb::app {
namespace {

// Steps between looks at the clock: small enough to stop within milliseconds.
constexpr std::uint64_t kStepsPerCheck = 1 << 14;

std::unique_ptr<JohnsonTables> johnson_for(const Instance& instance, BoundKind bound) {
  if (bound == BoundKind::kLb1) return nullptr;
  return std::make_unique<JohnsonTables>(
      instance, bound == BoundKind::kLb2Adjacent ? MachinePairs::kAdjacent : MachinePairs::kAll);
}

bool limit_reached(const SearchLimits& limits, const NodeCounters& counters,
                   const ProgressReporter& clock) {
  if (limits.nodes > 0 && counters.decomposed >= limits.nodes) return true;
  return limits.seconds > 0 && clock.elapsed_seconds() >= limits.seconds;
}

}  // namespace

SearchOutcome search_sequential(const Instance& instance, const SearchSettings& settings,
                                Incumbent& incumbent, const SearchLimits& limits,
                                ProgressReporter& progress) {
  const FlowshopTables tables(instance);
  const auto johnson = johnson_for(instance, settings.bound);
  IvmExplorer explorer(tables, johnson.get(), settings, incumbent);
  const int n = instance.jobs();
  std::vector<int> begin(n, 0);
  std::vector<int> end(n, 0);
  factoradic::set_end_of_space(end.data(), n);
  explorer.start(begin.data(), end.data());

  SearchOutcome outcome;
  while (!explorer.exhausted()) {
    explorer.run(kStepsPerCheck);
    if (progress.due()) {
      progress.report({explorer.counters().decomposed, incumbent.value(),
                       factoradic::fraction_of_space(explorer.position(), n), 1});
    }
    if (!explorer.exhausted() && limit_reached(limits, explorer.counters(), progress)) break;
  }
  outcome.complete = explorer.exhausted();
  outcome.counters = explorer.counters();
  return outcome;
}

}  // namespace permbb::app
