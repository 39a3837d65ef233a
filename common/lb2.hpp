#pragma once
// The two-machine bound LB2 (Lageweg, Lenstra & Rinnooy Kan 1978) for bi-directional
// subproblems, over a set of machine pairs (a, b), a < b. For each pair the unscheduled jobs
// form a two-machine flowshop with time lags; Johnson's order (pre-sorted per pair, see
// JohnsonTables) solves it exactly, starting from the prefix's completion times on a and b and
// adding the suffix's tails. LB2 is the maximum over the pairs, and never below LB1 (each pair
// bounds both of its machines' one-machine bounds; LB1 is included for m = 1).
// Cost: O(pairs * n) per subproblem.
#include "flowshop_view.hpp"
#include "hd.hpp"
#include "lb1.hpp"

namespace permbb {

struct JohnsonView {
  int pairs = 0;
  int jobs = 0;
  const int* machine_a = nullptr;  // [pair]
  const int* machine_b = nullptr;  // [pair]
  const Time* lags = nullptr;      // [pair * jobs + job]
  const int* orders = nullptr;     // [pair * jobs + rank] = job, Johnson's order
};

// LB2 of the subproblem summarised by (front, back, remain) whose scheduled jobs are flagged
// in `scheduled` (non-zero = in σ1 or σ2). Stops early once the bound reaches `cutoff` (the
// value returned is then a valid bound >= cutoff, not necessarily LB2 itself).
PERMBB_HD Time lb2_bound(const FlowshopView& d, const JohnsonView& johnson, const Time* front,
                         const Time* back, const Time* remain, const unsigned char* scheduled,
                         Time cutoff) {
  Time lb = lb1_bound(d, front, back, remain);
  for (int pair = 0; pair < johnson.pairs && lb < cutoff; ++pair) {
    const int a = johnson.machine_a[pair];
    const int b = johnson.machine_b[pair];
    const int* order = johnson.orders + pair * johnson.jobs;
    const Time* lag = johnson.lags + pair * johnson.jobs;
    Time done_a = front[a];
    Time done_b = front[b];
    for (int rank = 0; rank < johnson.jobs; ++rank) {
      const int job = order[rank];
      if (scheduled[job]) continue;
      done_a += d.time(job, a);
      done_b = time_max(done_b, done_a + lag[job]) + d.time(job, b);
    }
    lb = time_max(lb, time_max(done_a + back[a], done_b + back[b]));
  }
  return lb;
}

}  // namespace permbb
