#include "upper_bound.hpp"

#include <charconv>

#include "input_error.hpp"
#include "taillard.hpp"

namespace permbb::app {

InitialUpperBound resolve_upper_bound(const std::string& spec, const Instance& instance) {
  InitialUpperBound bound;
  if (spec == "inf") {
    bound.heuristic = neh(instance);
    bound.value = bound.heuristic.makespan;
    bound.origin = "neh";
    return bound;
  }
  if (spec == "opt") {
    const auto index = taillard::parse_name(instance.name());
    if (!index) {
      throw InputError("--ub opt: '" + instance.name() +
                       "' is not a Taillard instance, so no best-known makespan is tabled; "
                       "give --ub N or --ub inf");
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
