#pragma once
#include <string>

#include "incumbent.hpp"
#include "instance.hpp"
#include "neh.hpp"

namespace permbb::app {

// The initial upper bound of a search, from `--ub`:
//   inf  NEH's schedule is the first incumbent;
//   opt  the best-known makespan of a Taillard instance (the search proves that nothing better
//        exists, or finds better);
//   N    only schedules with makespan < N are looked for.
struct InitialUpperBound {
  Time value = kInfiniteTime;
  Schedule heuristic;  // NEH's schedule for `inf`, empty otherwise
  std::string origin;  // "neh", "best-known", "given"
};

// Throws InputError for an unknown value, a non-positive N, or `opt` on a non-Taillard
// instance. `stop` cuts NEH short (a limit or a signal during set-up on a large instance):
// its schedule is then completed in NEH's order.
InitialUpperBound resolve_upper_bound(const std::string& spec, const Instance& instance,
                                      const StopCheck& stop = {});

// An Incumbent holding the bound (and NEH's schedule, if any).
void seed_incumbent(const InitialUpperBound& bound, Incumbent& incumbent);

}  // namespace permbb::app
