#pragma once
// The one-machine bound LB1 (Ignall & Schrage, Lomnicki) for bi-directional subproblems
// (σ1, σ2), evaluated incrementally: 2022 §2.4, Figure 3.
//
// A subproblem is summarised per machine k by three numbers:
//   front[k]  completion time of the prefix σ1 on machine k (min_heads[k] when σ1 is empty),
//   back[k]   time from the start of the suffix σ2 on machine k to the end of the schedule,
//             obtained by scheduling σ2 in reverse (min_tails[k] when σ2 is empty),
//   remain[k] total time of the unscheduled jobs on machine k.
// LB1(σ1, σ2) = max_k front[k] + remain[k] + back[k].
// A child (σ1 j, σ2) or (σ1, j σ2) changes one of front/back by one job: O(m) to update, and
// O(m) to bound without updating (lb1_child_*_bound), so all 2(n-d) children cost O(mn).
#include "flowshop_view.hpp"
#include "hd.hpp"

namespace permbb {

PERMBB_HD Time time_max(Time a, Time b) { return a > b ? a : b; }

// The summary of the root (nothing scheduled).
PERMBB_HD void lb1_root(const FlowshopView& d, Time* front, Time* back, Time* remain) {
  for (int k = 0; k < d.machines; ++k) {
    front[k] = d.min_heads[k];
    back[k] = d.min_tails[k];
    remain[k] = d.total_times[k];
  }
}

// front_out = completion times of σ1 followed by `job`. Starting from min_heads for an empty
// σ1 gives the true completion times, since a job's own head is never below the minimum.
// front_out may alias front_in.
PERMBB_HD void lb1_append_front(const FlowshopView& d, const Time* front_in, int job,
                                Time* front_out) {
  const Time* p = d.times_by_job + job * d.machines;
  Time done = front_in[0] + p[0];
  front_out[0] = done;
  for (int k = 1; k < d.machines; ++k) {
    done = time_max(front_in[k], done) + p[k];
    front_out[k] = done;
  }
}

// back_out = tails of `job` followed by σ2 (the suffix scheduled in reverse). May alias.
PERMBB_HD void lb1_prepend_back(const FlowshopView& d, const Time* back_in, int job,
                                Time* back_out) {
  const Time* p = d.times_by_job + job * d.machines;
  const int last = d.machines - 1;
  Time done = back_in[last] + p[last];
  back_out[last] = done;
  for (int k = last - 1; k >= 0; --k) {
    done = time_max(back_in[k], done) + p[k];
    back_out[k] = done;
  }
}

// remain_out = remain_in less the times of `job`. May alias.
PERMBB_HD void lb1_remove_job(const FlowshopView& d, const Time* remain_in, int job,
                              Time* remain_out) {
  const Time* p = d.times_by_job + job * d.machines;
  for (int k = 0; k < d.machines; ++k) remain_out[k] = remain_in[k] - p[k];
}

// LB1 of a subproblem from its summary.
PERMBB_HD Time lb1_bound(const FlowshopView& d, const Time* front, const Time* back,
                         const Time* remain) {
  Time lb = 0;
  for (int k = 0; k < d.machines; ++k) lb = time_max(lb, front[k] + remain[k] + back[k]);
  return lb;
}

// LB1 of the child (σ1 job, σ2), from the parent's summary, without building the child's.
// On machine k the job starts at s_k = max(front[k], its completion on k-1); the child's
// front[k] + remain[k] is then s_k + remain[k] (the job's own time moves from remain to front).
PERMBB_HD Time lb1_child_front_bound(const FlowshopView& d, const Time* front, const Time* back,
                                     const Time* remain, int job) {
  const Time* p = d.times_by_job + job * d.machines;
  Time lb = front[0] + remain[0] + back[0];
  Time done = front[0] + p[0];
  for (int k = 1; k < d.machines; ++k) {
    const Time start = time_max(front[k], done);
    lb = time_max(lb, start + remain[k] + back[k]);
    done = start + p[k];
  }
  return lb;
}

// LB1 of the child (σ1, job σ2); the mirror image of lb1_child_front_bound.
PERMBB_HD Time lb1_child_back_bound(const FlowshopView& d, const Time* front, const Time* back,
                                    const Time* remain, int job) {
  const Time* p = d.times_by_job + job * d.machines;
  const int last = d.machines - 1;
  Time lb = front[last] + remain[last] + back[last];
  Time done = back[last] + p[last];
  for (int k = last - 1; k >= 0; --k) {
    const Time start = time_max(back[k], done);
    lb = time_max(lb, front[k] + remain[k] + start);
    done = start + p[k];
  }
  return lb;
}

// Makespan of the complete schedule σ1 · job · σ2, where (front, back) summarise σ1 and σ2
// and `suffix_empty` says whether σ2 has no job (back then holds min_tails, not a schedule).
// A critical path crosses from the last prefix job to the first suffix job on some machine,
// so Cmax = max_k C(σ1 job)[k] + back[k]; O(m).
PERMBB_HD Time complete_makespan(const FlowshopView& d, const Time* front, const Time* back,
                                 bool suffix_empty, int job) {
  const Time* p = d.times_by_job + job * d.machines;
  Time done = front[0] + p[0];
  Time cmax = done + back[0];
  for (int k = 1; k < d.machines; ++k) {
    done = time_max(front[k], done) + p[k];
    cmax = time_max(cmax, done + back[k]);
  }
  return suffix_empty ? done : cmax;
}

}  // namespace permbb
