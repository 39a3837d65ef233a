#pragma once
// The schedule of one target T (Hochbaum & Shmoys; Li et al. Algorithm 1 line 10):
//   1. long jobs: backtrack from the full state through the filled table, each step a
//      configuration s with OPT(v - s) = OPT(v) - 1, which becomes one machine; the jobs of a
//      class are interchangeable in the rounded problem, so a machine takes the next s_d
//      jobs of class d (longest first). Without a table (no long jobs, or no more long jobs
//      than machines) each long job gets a machine of its own.
//   2. short jobs, longest first, each onto the least-loaded machine (lowest index on ties).
#include <vector>

#include "dp_problem.hpp"
#include "dp_table.hpp"
#include "job_rounding.hpp"
#include "pcmax_instance.hpp"

namespace permbb::pcmax {

struct PcmaxSchedule {
  std::vector<int> machine_of_job;  // 0-based machine of each job
  std::vector<Duration> loads;      // per machine
  Duration makespan = 0;
};

// Needs a table whose full state is at most `machines` (a feasible target); throws
// std::logic_error if the table does not lead back to the empty state.
PcmaxSchedule build_schedule_from_table(const PcmaxInstance& instance, const RoundedJobs& rounded,
                                        const DpProblem& problem, const DpTable& table);

// One machine per long job (rounded.long_jobs() <= machines), then the short jobs.
PcmaxSchedule build_schedule_one_per_machine(const PcmaxInstance& instance,
                                             const RoundedJobs& rounded);

// LPT (Graham 1969): every job as step 2 places the short ones, longest first onto the
// least-loaded machine. Within 4/3 of OPT; the schedule a stopped PTAS falls back on.
PcmaxSchedule build_lpt_schedule(const PcmaxInstance& instance);

}  // namespace permbb::pcmax
