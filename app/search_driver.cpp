#include "search_driver.hpp"

#include <algorithm>

#include "factoradic_mpz.hpp"

namespace permbb::app {
namespace {

// The longest slice: how late a limit or a progress line may come.
constexpr double kMaxSliceSeconds = 1.0;
// With a node limit, slices are short so the limit is overshot by little.
constexpr double kNodeLimitSliceSeconds = 0.05;

double remaining_fraction(const std::vector<Interval>& remaining, int n) {
  mpz_class left = 0;
  for (const Interval& interval : remaining) left += interval.length();
  mpq_class fraction(left, factorial(n));
  return fraction.get_d();
}

double next_slice(const SearchLimits& limits, const ProgressReporter& progress, double period) {
  double slice = std::min(period, kMaxSliceSeconds);
  if (limits.nodes > 0) slice = std::min(slice, kNodeLimitSliceSeconds);
  if (limits.seconds > 0) slice = std::min(slice, limits.seconds - progress.elapsed_seconds());
  return std::max(slice, 0.001);
}

}  // namespace

SearchOutcome drive_search(SearchEngine& engine, const Instance& instance,
                           const std::vector<Interval>& work, const Incumbent& incumbent,
                           const SearchLimits& limits, ProgressReporter& progress,
                           const BetweenSlices& between) {
  engine.set_work(work);
  SearchOutcome outcome;
  while (true) {
    const double slice = next_slice(limits, progress, progress.period_seconds());
    outcome.complete = engine.explore(std::chrono::duration<double>(slice));
    outcome.stats = engine.stats();
    if (outcome.complete) return outcome;
    const bool stopped = between && between(engine, outcome.stats);
    const bool over_time = limits.seconds > 0 && progress.elapsed_seconds() >= limits.seconds;
    const bool over_nodes = limits.nodes > 0 && outcome.stats.nodes.decomposed >= limits.nodes;
    const bool ending = stopped || over_time || over_nodes;
    if (ending || progress.due()) outcome.remaining = engine.remaining();
    if (progress.due()) {
      progress.report({outcome.stats.nodes.decomposed, incumbent.value(),
                       1.0 - remaining_fraction(outcome.remaining, instance.jobs()),
                       outcome.stats.active_explorers});
    }
    if (ending) return outcome;
  }
}

}  // namespace permbb::app
