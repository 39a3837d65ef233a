#include "bisection.hpp"

#include <map>
#include <stdexcept>
#include <utility>

namespace permbb::pcmax {
namespace {

Duration midpoint(Duration lower, Duration upper) {
  return lower + (upper - lower) / 2;
}

}  // namespace

std::vector<Duration> round_targets(Duration lower, Duration upper, int levels,
                                    const std::function<bool(Duration)>& known) {
  std::vector<Duration> targets;
  std::vector<std::pair<Duration, Duration>> level{{lower, upper}};
  for (int depth = 0; depth < levels && !level.empty(); ++depth) {
    std::vector<std::pair<Duration, Duration>> next;
    for (const auto& [lo, hi] : level) {
      if (lo >= hi) continue;
      const Duration mid = midpoint(lo, hi);
      if (!known(mid)) targets.push_back(mid);
      next.push_back({lo, mid});      // mid feasible
      next.push_back({mid + 1, hi});  // mid infeasible
    }
    level = std::move(next);
  }
  return targets;
}

BisectionResult run_bisection(Duration lower, Duration upper, int levels_per_round,
                              const BatchOracle& oracle, const IntervalObserver& narrowed) {
  if (levels_per_round < 1 || lower > upper) throw std::invalid_argument("run_bisection");
  std::map<Duration, bool> feasible;
  auto known = [&](Duration t) { return feasible.count(t) > 0; };
  BisectionResult result;
  while (lower < upper) {
    const auto targets = round_targets(lower, upper, levels_per_round, known);
    const auto answers = oracle(targets);
    if (answers.size() != targets.size()) throw std::logic_error("run_bisection: oracle answers");
    for (std::size_t i = 0; i < targets.size(); ++i) feasible[targets[i]] = answers[i];
    ++result.rounds;
    result.probes += static_cast<int>(targets.size());
    // The sequential search's steps, as far as the answers reach.
    while (lower < upper && known(midpoint(lower, upper))) {
      const Duration mid = midpoint(lower, upper);
      if (feasible[mid]) {
        upper = mid;
      } else {
        lower = mid + 1;
      }
    }
    if (narrowed) narrowed(lower, upper);
  }
  result.target = lower;
  return result;
}

}  // namespace permbb::pcmax
