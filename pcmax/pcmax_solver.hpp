#pragma once
// What `permbb pcmax` runs: the schedule a user keeps and what is proven about it.
//
//   1. Lower bounds (lower_bounds.hpp).
//   2. Candidates, each improved by the local search (schedule_improvement.hpp): LPT, MULTIFIT
//      (multifit.hpp), and, when a PTAS is asked for with some k, the PTAS's schedule at k
//      (ptas.hpp; its T* <= OPT is a lower bound too). The returned schedule is the best of
//      them: never worse than LPT or MULTIFIT, and within the PTAS's guarantee.
//   3. Monotone in epsilon: the run at k also runs the PTAS at k' = 1, 2, ..., k - 1 (same
//      options), improved likewise, until the best makespan meets the best lower bound. So a
//      run at k1 > k2 has among its candidates everything the run at k2 had (or stopped at a
//      makespan proven optimal): its makespan is never longer. A k' whose table does not fit
//      in the memory limit is left out of every chain alike (the limit is the same).
//   4. The exact mode (exact_search.hpp): from the best lower bound and the best schedule,
//      proves the optimum or ends incomplete with the bounds.
//
// Stops (the time limit, RunControl) end the run where it is: incomplete, with the best
// schedule found so far.
#include <optional>
#include <string>
#include <vector>

#include "exact_search.hpp"
#include "lower_bounds.hpp"
#include "pcmax_instance.hpp"
#include "ptas.hpp"
#include "run_control.hpp"
#include "schedule_builder.hpp"
#include "table_filler.hpp"

namespace permbb::pcmax {

struct SolverOptions {
  std::optional<PtasOptions> ptas;  // none: no PTAS (the exact mode alone)
  bool exact = false;
  RunControl* control = nullptr;
};

// One schedule the run considered: its makespan as built and after the local search.
struct Candidate {
  std::string name;  // "lpt", "multifit", "ptas k=4"
  Duration makespan = 0;
  Duration improved = 0;
  double seconds = 0;  // building and improving it
};

struct SolverResult {
  bool complete = true;  // no stop cut any part short
  PcmaxSchedule schedule;
  std::string source;  // the candidate (or "exact") the schedule is
  std::vector<Candidate> candidates;
  LowerBounds bounds;
  Duration ptas_lower_bound = 0;  // the largest T* of a finished PTAS run, 0 if none
  Duration best_lower_bound = 0;  // every bound above, and the exact search's lower end
  std::optional<PtasResult> ptas;  // the PTAS at the asked k (the guarantee's T*)
  std::optional<ExactResult> exact;
  double seconds = 0;

  bool proven_optimal() const { return schedule.makespan == best_lower_bound; }
};

// Throws as solve_pcmax does (InputError for bad input, or the asked PTAS's table over the
// memory limit).
SolverResult solve_instance(const PcmaxInstance& instance, const SolverOptions& options,
                            TableFiller& filler);

}  // namespace permbb::pcmax
