#pragma once
// The improvement step every schedule goes through before it is returned: a local search of
// job moves and pairwise exchanges out of the most loaded machine, in the spirit of the
// "LPT plus pairwise interchange" heuristics (Finn & Horowitz 1979; Dell'Amico & Martello
// 1995 §3 use it as their first improvement step).
//
// One step: take the most loaded machine a (lowest index on ties) and every machine b with a
// smaller load; among the moves of one job x from a to b (d = t_x) and the exchanges of x on a
// with y on b (d = t_x - t_y > 0) with d < load_a - load_b, apply the one whose new pair
// maximum max(load_a - d, load_b + d) is smallest (machine b of least load first, then jobs by
// index, on ties). Each step lowers the sum of squared loads by 2 d (load_a - load_b - d) > 0,
// so the search ends; it ends when the most loaded machine has no such move, which is when no
// move or exchange with it can shorten the makespan.
#include <cstdint>

#include "pcmax_instance.hpp"
#include "run_control.hpp"
#include "schedule_builder.hpp"

namespace permbb::pcmax {

struct LocalSearchLimits {
  // Candidate pairs (job, machine or job, job) looked at, at most; a long search on a huge
  // instance stops there with what it has (still valid, never worse).
  std::uint64_t max_candidates = std::uint64_t{1} << 28;
  const RunControl* control = nullptr;  // polled between steps; a stop ends the search
};

struct LocalSearchReport {
  int moves = 0;
  int exchanges = 0;
  bool finished = true;  // false: stopped by a limit before a local optimum
};

// The loads and makespan of machine_of_job, recomputed from the times (the schedule's own
// loads are not trusted); std::logic_error for a job on no machine or a machine out of range.
void recompute_loads(const PcmaxInstance& instance, PcmaxSchedule& schedule);

// Improves `schedule` in place (loads recomputed first); never raises its makespan.
LocalSearchReport improve_schedule(const PcmaxInstance& instance, PcmaxSchedule& schedule,
                                   const LocalSearchLimits& limits = {});

}  // namespace permbb::pcmax
