#pragma once
// The PTAS of Hochbaum & Shmoys for P||Cmax as Li et al. run it (Algorithm 1): bisection on
// the target T over [LB, UB], LB = max(ceil(sum t / m), max t), UB = ceil(sum t / m) + max t,
// each target decided by the configuration DP over the rounded long jobs
// (target_evaluator.hpp). With k = the smallest integer with 1/k <= epsilon, the schedule
// returned satisfies
//
//     makespan < (1 + 1/k) T*  <=  (1 + 1/k) OPT  <=  (1 + epsilon) OPT
//
// where T* is the target the bisection ends on (T* <= OPT: every target below it was found
// infeasible, and an infeasible T is below OPT). docs/pcmax.md gives the argument; solve_pcmax
// checks the first inequality on the schedule it returns. With more machines than jobs, the
// targets are evaluated on n machines (the others are idle in every schedule; ptas.cpp).
//
// A stop (PtasOptions::control, run_control.hpp) ends the run early, within about a second:
// the result is then incomplete, with the best schedule found so far (the LPT
// schedule, computed first, or a shorter one of a target found feasible) and no guarantee;
// the targets left still bound the optimum from below (lower <= OPT, by (a) in docs/pcmax.md).
#include <cstdint>
#include <string>
#include <vector>

#include "pcmax_instance.hpp"
#include "run_control.hpp"
#include "schedule_builder.hpp"
#include "table_filler.hpp"
#include "target_evaluator.hpp"

namespace permbb::pcmax {

inline constexpr double kMinEpsilon = 0.001;

struct PtasOptions {
  double epsilon = 0.3;
  std::string epsilon_text;  // as given, for messages ("" : printed from epsilon)
  int k = 0;                 // > 0: this k instead of epsilon's (the solver's chain of k)
  // The interval is split into this many parts per round: 2 is the plain bisection, 4 the
  // quarter split (3 targets at once), 8 (7 targets). Same result for every split.
  int split = 2;
  std::uint64_t memory_limit_bytes = 0;  // DP tables held at once; 0: default_table_memory_limit()
  std::uint64_t max_configurations = std::uint64_t{1} << 22;
  // Polled for a stop and told where the run stands, from other threads; null: none.
  RunControl* control = nullptr;
};

// The targets the bisection can still end on; every one below `lower` is below OPT.
struct TargetInterval {
  Duration lower = 0;
  Duration upper = 0;
};

struct PtasResult {
  // False when a stop ended the run before the bisection did: final_target is then 0, the
  // schedule the best found so far, without the guarantee.
  bool complete = true;
  int k = 1;
  Duration lower_bound = 0;          // max(ceil(sum t / m), max t)
  Duration initial_upper_bound = 0;  // ceil(sum t / m) + max t
  Duration final_target = 0;         // T*
  TargetInterval targets_left;       // [T*, T*] when complete
  PcmaxSchedule schedule;
  int rounds = 0;  // bisection iterations begun (filler calls); after a stop, the last unfinished
  int split = 2;
  std::vector<TableRecord> tables;  // every target evaluated, in order (of finished rounds)
  double seconds = 0;
  std::string engine;  // the filler's name
  int threads = 0;
};

// The smallest k >= 1 with k * epsilon >= 1; InputError for epsilon below kMinEpsilon or not
// a number.
int k_for_epsilon(double epsilon);

// Throws InputError for a bad instance or options, or when a table would not fit in memory;
// std::logic_error if the guarantee check fails (a bug, never bad input). A stop is no error:
// the result is incomplete.
PtasResult solve_pcmax(const PcmaxInstance& instance, const PtasOptions& options,
                       TableFiller& filler);

}  // namespace permbb::pcmax
