#include "upper_bound.hpp"

#include <charconv>

#include <spdlog/spdlog.h>

#include "input_error.hpp"
#include "taillard.hpp"

namespace permbb::solve {

UpperBoundSpec parse_upper_bound_spec(const std::string& text) {
  if (text == "inf") return {};
  if (text == "opt") return {UpperBoundSpec::Kind::kBestKnown, kInfiniteTime};
  long long value = 0;
  const char* first = text.data();
  const char* last = first + text.size();
  const auto [ptr, ec] = std::from_chars(first, last, value);
  if (ec != std::errc() || ptr != last || value <= 0 || value > kInfiniteTime - 1) {
    throw InputError("--ub: expected inf, opt or an integer makespan from 1 to " +
                     std::to_string(kInfiniteTime - 1) + ", got '" + text + "'");
  }
  return {UpperBoundSpec::Kind::kGiven, static_cast<Time>(value)};
}

std::string to_string(const UpperBoundSpec& spec) {
  switch (spec.kind) {
    case UpperBoundSpec::Kind::kNeh:
      return "inf";
    case UpperBoundSpec::Kind::kBestKnown:
      return "opt";
    case UpperBoundSpec::Kind::kGiven:
      break;
  }
  return std::to_string(spec.value);
}

Time bound_without_heuristic(const UpperBoundSpec& spec, const Instance& instance) {
  switch (spec.kind) {
    case UpperBoundSpec::Kind::kNeh:
      return kInfiniteTime;
    case UpperBoundSpec::Kind::kGiven:
      return spec.value;
    case UpperBoundSpec::Kind::kBestKnown:
      break;
  }
  const auto index = taillard::identify(instance);
  if (index) return taillard::best_known_makespan(*index);
  if (const auto& published = instance.published_upper_bound()) return *published;
  throw InputError("--ub opt: '" + instance.name() +
                   "' is not a Taillard instance (by name and data) and its file states no "
                   "upper bound, so no best-known makespan is known; give --ub N or --ub inf");
}

InitialUpperBound resolve_upper_bound(const UpperBoundSpec& spec, const Instance& instance,
                                      const StopCheck& stop) {
  InitialUpperBound bound;
  if (spec.kind == UpperBoundSpec::Kind::kNeh) {
    bool stopped = false;
    bound.heuristic = neh(instance, [&] { return stopped = stop && stop(); });
    if (stopped) spdlog::warn("NEH stopped early: the first incumbent is NEH's order, completed");
    bound.value = bound.heuristic.makespan;
    bound.origin = "neh";
    return bound;
  }
  bound.value = bound_without_heuristic(spec, instance);
  bound.origin = spec.kind == UpperBoundSpec::Kind::kBestKnown ? "best-known" : "given";
  return bound;
}

void seed_incumbent(const InitialUpperBound& bound, Incumbent& incumbent) {
  if (!bound.heuristic.permutation.empty()) {
    incumbent.offer(bound.heuristic.permutation, bound.heuristic.makespan);
  } else {
    incumbent.lower_to(bound.value);
  }
}

}  // namespace permbb::solve
