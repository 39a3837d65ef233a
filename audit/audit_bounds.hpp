#pragma once
// The textbook bounds of a subproblem (prefix σ1, suffix σ2, the other jobs free), from
// their definitions (Ignall & Schrage 1965; Lageweg, Lenstra & Rinnooy Kan 1978), as the
// certificate names them:
//   heads  completion times of σ1 on each machine; for an empty σ1 the smallest head over
//          all jobs (a job's head on machine k: its times on machines 0..k-1);
//   tails  for σ2, the time from its start on each machine to the end, found by scheduling
//          it backwards; for an empty σ2 the smallest tail over all jobs;
//   LB1    max over machines k of heads[k] + (free jobs' time on k) + tails[k];
//   LB2    max of LB1 and, over machine pairs a < b (all pairs, or adjacent ones only), the
//          makespan of the two-machine problem with lags of the free jobs in Johnson's order
//          (Mitten's rule for a_j = p_a + lag, b_j = lag + p_b, lag the job's time on the
//          machines between: first the jobs with a_j < b_j by increasing a_j, then the
//          others by decreasing b_j, ties by job number), started at heads[a], heads[b] and
//          followed by tails[a], tails[b].
// A search bounds every child of a node but explores few of them, so a child's bounds are
// computed from its parent's sides and its job, without building the child's sides.
// Johnson's order depends on a subproblem only through which jobs are free (ties are broken
// by job number), so each pair's order of all jobs is sorted once and filtered to the free
// jobs: that is the order of the free jobs.
#include <string>
#include <vector>

#include "certificate.hpp"

namespace permbb::audit {

// Where a child puts its job: at the end of the prefix (front) or before the suffix (back).
enum class Side { kFront, kBack };

// A subproblem as the bounds see it: its heads, tails and free jobs.
struct Sides {
  std::vector<Time> heads;
  std::vector<Time> tails;
  std::vector<Time> work;    // the free jobs' total time on each machine (LB1's middle term)
  std::vector<int> free;     // increasing job numbers
  std::vector<int> johnson;  // LB2 only: for each machine pair in turn, the free jobs in
                             // Johnson's order (a child's: its parent's, less its job)
};

class TextbookBounds {
 public:
  // `bound` as the certificate names it: lb1, lb2, lb2-adjacent or lb1+lb2.
  TextbookBounds(const Certificate& certificate);

  int jobs() const { return jobs_; }
  int machines() const { return machines_; }
  Time time(int job, int machine) const { return times_[job * machines_ + machine]; }

  Sides sides_of(const std::vector<int>& prefix, const std::vector<int>& suffix) const;
  // Overwrites `child` (its buffers reused) with the sides of the child of `parent` that
  // adds `job` (one of the free jobs) on `side`.
  void child(const Sides& parent, Side side, int job, Sides& child) const;

  // The bound that prunes: LB1 for lb1, LB2 otherwise (lb1+lb2 prunes where LB1 or LB2
  // reaches the upper bound, and LB2 is never below LB1).
  Time pruning_bound(const Sides& s) const;
  // The same bound and the one the branching rule compares (LB1 for lb1 and lb1+lb2, LB2
  // otherwise) of the child that `child` would build; `scratch` receives its new heads or
  // tails.
  Time child_pruning_bound(const Sides& parent, Side side, int job,
                           std::vector<Time>& scratch) const {
    return child_bound(parent, side, job, uses_lb2_, scratch);
  }
  Time child_branching_bound(const Sides& parent, Side side, int job,
                             std::vector<Time>& scratch) const {
    return child_bound(parent, side, job, branches_on_lb2_, scratch);
  }
  // Whether both are the same bound (all but lb1+lb2).
  bool prunes_on_branching_bound() const { return uses_lb2_ == branches_on_lb2_; }

  // The makespan of a complete schedule, by the recurrence C[i][k] = max(C[i-1][k],
  // C[i][k-1]) + p[k][job i].
  Time makespan(const std::vector<int>& schedule) const;

 private:
  // A subproblem as LB2's machine pairs read it: heads, tails and the free jobs (in
  // Johnson's orders) of `free_of` less `taken` (the job a child adds, or -1 for `free_of`
  // itself).
  struct View {
    const std::vector<Time>& heads;
    const std::vector<Time>& tails;
    const Sides& free_of;
    int taken;
  };
  // One machine pair of LB2: Johnson's order of all jobs and each job's lag.
  struct JohnsonPair {
    int a;
    int b;
    std::vector<int> order;
    std::vector<Time> lag;  // by job: its time on the machines between a and b
  };

  JohnsonPair johnson_pair_of(int a, int b) const;
  Time add_job(const Sides& parent, Side side, int job, std::vector<Time>& out) const;
  Time child_bound(const Sides& parent, Side side, int job, bool lb2,
                   std::vector<Time>& scratch) const;
  Time lb1(const Sides& s) const;
  // The largest of LB2's two-machine bounds (LB2 is the larger of it and LB1).
  Time johnson_pairs(const View& s) const;
  Time johnson_pair(const View& s, std::size_t pair) const;

  int jobs_;
  int machines_;
  std::vector<Time> times_;  // [job * machines + machine]: a job's times side by side
  std::vector<Time> smallest_heads_;
  std::vector<Time> smallest_tails_;
  bool uses_lb2_;
  bool branches_on_lb2_;
  std::vector<JohnsonPair> pairs_;  // LB2's machine pairs: all of them, or adjacent ones only
};

}  // namespace permbb::audit
