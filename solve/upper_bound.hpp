#pragma once
#include <string>

#include "incumbent.hpp"
#include "instance.hpp"
#include "neh.hpp"

namespace permbb::solve {

// `--ub` as given, parsed once on the command line:
//   inf  NEH's schedule is the first incumbent;
//   opt  the best-known makespan of a Taillard instance (the search proves that nothing better
//        exists, or finds better);
//   N    only schedules with makespan < N are looked for.
struct UpperBoundSpec {
  enum class Kind { kNeh, kBestKnown, kGiven };
  Kind kind = Kind::kNeh;
  Time value = kInfiniteTime;  // N for kGiven

  friend bool operator==(const UpperBoundSpec&, const UpperBoundSpec&) = default;
};

// "inf", "opt" or a positive integer below kInfiniteTime; throws InputError for anything else.
UpperBoundSpec parse_upper_bound_spec(const std::string& text);

// As the command line spells it: "inf", "opt", "2317".
std::string to_string(const UpperBoundSpec& spec);

// The initial upper bound of a search, resolved from its UpperBoundSpec on an instance.
struct InitialUpperBound {
  Time value = kInfiniteTime;
  Schedule heuristic;  // NEH's schedule for `inf`, empty otherwise
  std::string origin;  // "neh", "best-known", "given"
};

// Throws InputError for `opt` on a non-Taillard instance. `stop` cuts NEH short (a limit or a
// signal during set-up on a large instance): its schedule is then completed in NEH's order.
InitialUpperBound resolve_upper_bound(const UpperBoundSpec& spec, const Instance& instance,
                                      const StopCheck& stop = {});

// The bound a spec stands for without running NEH: N, or the best-known makespan for `opt`;
// kInfiniteTime for `inf` (whose bound is NEH's schedule). Throws as resolve_upper_bound.
Time bound_without_heuristic(const UpperBoundSpec& spec, const Instance& instance);

// An Incumbent holding the bound (and NEH's schedule, if any).
void seed_incumbent(const InitialUpperBound& bound, Incumbent& incumbent);

}  // namespace permbb::solve
