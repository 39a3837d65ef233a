#include "exact_search.hpp"

#include <chrono>

#include <spdlog/spdlog.h>

#include "lower_bounds.hpp"
#include "machine_packing.hpp"

namespace permbb::pcmax {
namespace {

constexpr std::size_t kAscentTargets = 2;

// Decides one target; updates the ends and the schedule. False when the search must stop.
bool decide(const PcmaxInstance& instance, const std::vector<Duration>& longest_first,
            Duration target, const ExactLimits& limits, ExactResult& result) {
  const auto start = std::chrono::steady_clock::now();
  const auto seconds_since = [](auto from) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - from).count();
  };
  ExactTarget record{target, "", 0, 0};
  bool go_on = true;
  if (bin_packing_bound(longest_first, target) > instance.machines) {
    record.answer = "infeasible (bin-packing bound)";
    result.lower = target + 1;
  } else {
    PackingLimits packing;
    packing.control = limits.control;
    packing.max_nodes = limits.max_nodes_per_target;
    PackingResult packed = pack_machines(instance, target, packing);
    record.nodes = packed.nodes;
    result.nodes += packed.nodes;
    if (packed.answer == PackingAnswer::kFeasible) {
      record.answer = "feasible";
      result.schedule = std::move(packed.schedule);
      result.upper = result.schedule.makespan;
    } else if (packed.answer == PackingAnswer::kInfeasible) {
      record.answer = "infeasible";
      result.lower = target + 1;
    } else {
      record.answer = "stopped";
      result.stopped_because = stop_requested(limits.control) ? "time limit" : "node limit";
      go_on = false;
    }
  }
  record.seconds = seconds_since(start);
  spdlog::info("exact: C = {} {} ({} nodes, {:.3f} s); OPT in [{}, {}]", target, record.answer,
               record.nodes, record.seconds, result.lower, result.upper);
  result.targets.push_back(record);
  return go_on;
}

}  // namespace

ExactResult prove_optimum(const PcmaxInstance& instance, Duration lower, const PcmaxSchedule& start,
                          const ExactLimits& limits) {
  ExactResult result;
  result.lower = lower;
  result.schedule = start;
  result.upper = start.makespan;
  if (result.lower < result.upper && instance.jobs() > limits.max_jobs) {
    result.stopped_because = "more than " + std::to_string(limits.max_jobs) + " jobs";
  } else {
    const std::vector<Duration> longest_first = times_longest_first(instance);
    while (result.lower < result.upper) {
      if (stop_requested(limits.control)) {
        result.stopped_because = "time limit";
        break;
      }
      // The lower end first, twice: on the literature's classes the optimum is nearly always
      // the best lower bound or one above it, where a bisection would spend its first
      // searches on targets far above; then the midpoint.
      const bool ascent = result.targets.size() < kAscentTargets;
      const Duration target =
          ascent ? result.lower : result.lower + (result.upper - 1 - result.lower) / 2;
      if (!decide(instance, longest_first, target, limits, result)) break;
    }
  }
  result.proven = result.lower >= result.upper;
  return result;
}

}  // namespace permbb::pcmax
