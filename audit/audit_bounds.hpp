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
#include <string>
#include <vector>

#include "certificate.hpp"

namespace permbb::audit {

// A subproblem as the bounds see it: its heads, tails and free jobs.
struct Sides {
  std::vector<Time> heads;
  std::vector<Time> tails;
  std::vector<int> free;  // increasing job numbers
};

class TextbookBounds {
 public:
  // `bound` as the certificate names it: lb1, lb2, lb2-adjacent or lb1+lb2.
  TextbookBounds(const Certificate& certificate);

  int jobs() const { return jobs_; }
  int machines() const { return machines_; }
  Time time(int job, int machine) const { return times_[machine][job]; }

  Sides sides_of(const std::vector<int>& prefix, const std::vector<int>& suffix) const;
  // The sides of the child that adds `job` (one of the free jobs) to the prefix (front) or
  // before the suffix (back).
  Sides child_front(const Sides& parent, int job) const;
  Sides child_back(const Sides& parent, int job) const;

  Time lb1(const Sides& s) const;
  Time lb2(const Sides& s) const;
  // The bound that prunes: LB1 for lb1, LB2 otherwise (lb1+lb2 prunes where LB1 or LB2
  // reaches the upper bound, and LB2 is never below LB1).
  Time pruning_bound(const Sides& s) const { return uses_lb2_ ? lb2(s) : lb1(s); }
  // The bound the branching rule compares: LB1 for lb1 and lb1+lb2, LB2 otherwise.
  Time branching_bound(const Sides& s) const { return branches_on_lb2_ ? lb2(s) : lb1(s); }

  // The makespan of a complete schedule, by the recurrence C[i][k] = max(C[i-1][k],
  // C[i][k-1]) + p[k][job i].
  Time makespan(const std::vector<int>& schedule) const;

 private:
  Time johnson_pair(const Sides& s, int a, int b) const;

  int jobs_;
  int machines_;
  std::vector<std::vector<Time>> times_;  // [machine][job]
  std::vector<Time> smallest_heads_;
  std::vector<Time> smallest_tails_;
  bool uses_lb2_;
  bool branches_on_lb2_;
  bool adjacent_pairs_only_;
};

}  // namespace permbb::audit
