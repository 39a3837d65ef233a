#include "search_driver.hpp"

#include <algorithm>
#include <chrono>

#include "factoradic_mpz.hpp"

namespace permbb::solve {
namespace {

// The longest slice: how late a limit or a progress line may come.
constexpr double kMaxSliceSeconds = 1.0;
// The shortest slice. With a node limit, the next slice is half the time the nodes left to
// the limit take at the last slice's rate (this shortest one before any is seen): slices
// shrink as the limit nears, which is overshot by about one shortest slice of search.
constexpr double kMinSliceSeconds = 0.001;

// `rate`: nodes per second of the last slice (0: none yet), `decomposed`: the nodes so far.
double next_slice(const SearchLimits& limits, const ProgressReporter& progress, double period,
                  double rate, std::uint64_t decomposed) {
  double slice = std::min(period, kMaxSliceSeconds);
  if (limits.nodes > 0) {
    const double left = limits.nodes > decomposed ? double(limits.nodes - decomposed) : 0;
    slice = std::min(slice, rate > 0 ? 0.5 * left / rate : kMinSliceSeconds);
  }
  if (limits.seconds > 0) slice = std::min(slice, limits.seconds - progress.elapsed_seconds());
  return std::max(slice, kMinSliceSeconds);
}

}  // namespace

SearchOutcome drive_search(SearchEngine& engine, const std::vector<Interval>& work,
                           const Incumbent& incumbent,
                           const SearchLimits& limits, ProgressReporter& progress,
                           const BetweenSlices& between) {
  engine.set_work(work);
  engine.cap_nodes(limits.nodes);
  SearchOutcome outcome;
  double rate = 0;
  while (true) {
    const std::uint64_t before = outcome.stats.nodes.decomposed;
    const double slice = next_slice(limits, progress, progress.period_seconds(), rate, before);
    const auto slice_start = std::chrono::steady_clock::now();
    outcome.complete = engine.explore(std::chrono::duration<double>(slice));
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - slice_start;
    outcome.stats = engine.stats();
    if (outcome.stats.nodes.decomposed > before) {
      rate = double(outcome.stats.nodes.decomposed - before) / took.count();
    }
    if (outcome.complete) return outcome;
    const bool stopped = between && between(engine, outcome.stats);
    const bool over_time = limits.seconds > 0 && progress.elapsed_seconds() >= limits.seconds;
    const bool over_nodes = limits.nodes > 0 && outcome.stats.nodes.decomposed >= limits.nodes;
    const bool ending = stopped || over_time || over_nodes;
    if (ending || progress.due()) outcome.remaining = engine.remaining();
    if (progress.due()) {
      progress.report({outcome.stats.nodes.decomposed, incumbent.value(),
                       total_length(outcome.remaining), outcome.stats.active_explorers, {}});
    }
    if (ending) return outcome;
  }
}

double RunClock::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

StopCheck RunClock::setup_stop() const {
  return [this] {
    return signals_.stop_requested() || (limit_ > 0 && elapsed_seconds() >= limit_);
  };
}

std::string RunClock::stop_signal_reason() const {
  return signals_.stop_reason();
}

double RunClock::search_time_limit() const {
  if (limit_ <= 0) return 0;
  return std::max(limit_ - elapsed_seconds(), kMinSliceSeconds);
}

}  // namespace permbb::solve
