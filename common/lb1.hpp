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
#include "branching.hpp"
#include "flowshop_view.hpp"
#include "host_device.hpp"

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

// The machine visited at step t when a job is added in `direction`: machines 0..m-1 for the
// prefix, m-1..0 for the suffix (scheduled in reverse). Written without a branch on the
// direction, so lanes adding jobs in different directions follow one path (2016 §4.1:
// front and back children evaluated by one statement indexed by the direction).
PERMBB_HD int machine_at(int step, int machines, int direction) {
  return step + direction * (machines - 1 - 2 * step);
}

// out = the side summary (front or back) of the child that adds `job` in `direction`: the
// completion times of σ1·job (in = front), or the tails of job·σ2 (in = back). Starting from
// min_heads / min_tails for an empty side gives the true times, since a job's own head (tail)
// is never below the minimum. `out` may alias `in`. Machine k's entry goes to out[k *
// out_stride]: the GPU's shared LB2 keeps the sides of a node's children machine-major, so that
// the lanes reading one machine of consecutive children read consecutive words.
PERMBB_HD void lb1_add_job(const FlowshopView& d, const Time* in, int job, int direction,
                           Time* out, int out_stride = 1) {
  const Time* p = d.times_by_job + job * d.machines;
  Time done = 0;
  for (int step = 0; step < d.machines; ++step) {
    const int k = machine_at(step, d.machines, direction);
    done = time_max(in[k], done) + p[k];
    out[k * out_stride] = done;
  }
}

// The front and back of the child that adds `job` in `direction` to the node summarised by
// (front, back): the node's, with the job added on its side, which is written into `side`
// (m times).
struct ChildSides {
  const Time* front;
  const Time* back;
};
PERMBB_HD ChildSides lb1_child_sides(const FlowshopView& d, const Time* front, const Time* back,
                                     int job, int direction, Time* side) {
  lb1_add_job(d, direction == kFront ? front : back, job, direction, side);
  return direction == kFront ? ChildSides{side, back} : ChildSides{front, side};
}

// front_out = completion times of σ1 followed by `job`. May alias.
PERMBB_HD void lb1_append_front(const FlowshopView& d, const Time* front_in, int job,
                                Time* front_out) {
  lb1_add_job(d, front_in, job, kFront, front_out);
}

// back_out = tails of `job` followed by σ2 (the suffix scheduled in reverse). May alias.
PERMBB_HD void lb1_prepend_back(const FlowshopView& d, const Time* back_in, int job,
                                Time* back_out) {
  lb1_add_job(d, back_in, job, kBack, back_out);
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

// LB1 of the child that adds `job` in `direction`, from the parent's summary, without
// building the child's. Adding to the prefix, the job starts on machine k at
// s_k = max(front[k], its completion on k-1), and the child's front[k] + remain[k] is
// s_k + remain[k] (the job's own time moves from remain to front); the suffix is the mirror.
// So the bound is max_k s_k + tail_k with tail_k = remain[k] + (the other side)[k], the same
// for every child of the node in that direction: `tail_at(k)` gives it.
template <class TailAt>
PERMBB_HD Time lb1_child_bound_with(const FlowshopView& d, const Time* side, TailAt tail_at,
                                    int job, int direction) {
  const Time* p = d.times_by_job + job * d.machines;
  Time lb = 0;
  Time done = 0;
  for (int step = 0; step < d.machines; ++step) {
    const int k = machine_at(step, d.machines, direction);
    const Time start = time_max(side[k], done);
    lb = time_max(lb, start + tail_at(k));
    done = start + p[k];
  }
  return lb;
}

// A child's tail summed when read (remain[k] + the other side's [k]), or read from the tails
// of its direction, summed once per node by the same rule (gpu/warp/warp_lb1.cuh).
struct SummedTail {
  const Time* remain;
  const Time* other;
  PERMBB_HD Time operator()(int k) const { return remain[k] + other[k]; }
};
struct StoredTail {
  const Time* tails;
  PERMBB_HD Time operator()(int k) const { return tails[k]; }
};

PERMBB_HD Time lb1_child_bound(const FlowshopView& d, const Time* front, const Time* back,
                               const Time* remain, int job, int direction) {
  const Time* other = direction == kFront ? back : front;
  return lb1_child_bound_with(d, direction == kFront ? front : back, SummedTail{remain, other},
                              job, direction);
}

// lb1_child_bound from the tails of its direction.
PERMBB_HD Time lb1_child_bound_from_tails(const FlowshopView& d, const Time* side,
                                          const Time* tails, int job, int direction) {
  return lb1_child_bound_with(d, side, StoredTail{tails}, job, direction);
}

// LB1 of the child (σ1 job, σ2).
PERMBB_HD Time lb1_child_front_bound(const FlowshopView& d, const Time* front, const Time* back,
                                     const Time* remain, int job) {
  return lb1_child_bound(d, front, back, remain, job, kFront);
}

// LB1 of the child (σ1, job σ2).
PERMBB_HD Time lb1_child_back_bound(const FlowshopView& d, const Time* front, const Time* back,
                                    const Time* remain, int job) {
  return lb1_child_bound(d, front, back, remain, job, kBack);
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
