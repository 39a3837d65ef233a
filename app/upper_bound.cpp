#include "upper_bound.hpp"

#include <charconv>

#include <spdlog/spdlog.h>

#include "input_error.hpp"
#include "taillard.hpp"

namespace permbb::app {

InitialUpperBound resolve_upper_bound(const std::string& spec, const Instance& instance,
                                      const StopCheck& stop) {
  InitialUpperBound bound;
  if (spec == "inf") {
    bool stopped = false;
    bound.heuristic = neh(instance, [&] { return stopped = stop && stop(); });
    if (stopped) spdlog::warn("NEH stopped early: the first incumbent is NEH's order, completed");
    bound.value = bound.heuristic.makespan;
    bound.origin = "neh";
    return bound;
  }
  if (spec == "opt") {
    const auto index = taillard::identify(instance);
    if (!index) {
      throw InputError("--ub opt: '" + instance.name() +
                       "' is not a Taillard instance (by name and data), so no best-known "
                       "makespan is tabled; give --ub N or --ub inf");
    }
    bound.value = taillard::best_known_makespan(*index);
    bound.origin = "best-known";
    return bound;
  }
  long long value = 0;
  const char* first = spec.data();
  const char* last = first + spec.size();
  const auto [ptr, ec] = std::from_chars(first, last, value);
  if (ec != std::errc() || ptr != last || value <= 0 || value > kInfiniteTime - 1) {
    throw InputError("--ub: expected inf, opt or a positive integer makespan, got '" + spec + "'");
  }
  bound.value = static_cast<Time>(value);
  bound.origin = "given";
  return bound;
}

void seed_incumbent(const InitialUpperBound& bound, Incumbent& incumbent) {
  if (!bound.heuristic.permutation.empty()) {
    incumbent.offer(bound.heuristic.permutation, bound.heuristic.makespan);
  } else {
    incumbent.lower_to(bound.value);
  }
}

}  // namespace permbb::app
