#pragma once
// The two-machine bound LB2 (Lageweg, Lenstra & Rinnooy Kan 1978) for bi-directional
// subproblems, over a set of machine pairs (a, b), a < b. For each pair the unscheduled jobs
// form a two-machine flowshop with time lags; Johnson's order (pre-sorted per pair, see
// JohnsonTables) solves it exactly, starting from the prefix's completion times on a and b and
// adding the suffix's tails. LB2 is the maximum over the pairs, and never below LB1 (each pair
// bounds both of its machines' one-machine bounds; LB1 is included for m = 1).
// Cost: O(pairs * n) per subproblem. The CPU explorer and every GPU lane call these very
// functions (2016 §3.3.4, "computeLB").
#include "branching.hpp"
#include "flowshop_view.hpp"
#include "host_device.hpp"
#include "lb1.hpp"

namespace permbb {

// One job of one machine pair's Johnson order, with what the sweep needs of it gathered in
// one 16-byte record: a lane reads a whole step with one load, and all lanes of a warp read
// the same record at once (2011 §4: children of one parent evaluated together).
struct JohnsonEntry {
  int job;
  Time on_a;  // p(job, a)
  Time lag;   // the job's time on the machines strictly between a and b
  Time on_b;  // p(job, b)
};

struct JohnsonView {
  int pairs = 0;
  int jobs = 0;
  const int* machine_a = nullptr;              // [pair]
  const int* machine_b = nullptr;              // [pair]
  const JohnsonEntry* sequence = nullptr;      // [pair * stride + rank], Johnson's order
  int stride = 0;  // entries from one pair's sequence to the next, >= jobs (the GPU pads them)
};

// A node's fixed jobs, as the sweep below reads them: flags in memory ([job] != 0: fixed), or,
// up to 64 jobs, the free jobs as bits of a word that stays in a register, so a step of the
// sweep loads its Johnson entry and nothing else (the GPU lanes' choice, gpu/warp/warp_lb2.cuh).
struct FreeJobBits {
  unsigned long long bits;  // bit j: job j is free
};
inline constexpr int kMaxFreeJobBits = 64;

PERMBB_HD bool is_fixed(const unsigned char* scheduled, int job) { return scheduled[job] != 0; }
PERMBB_HD bool is_fixed(FreeJobBits free, int job) { return ((free.bits >> job) & 1u) == 0; }

// The two-machine bound of one pair for the subproblem whose prefix and suffix are summarised
// by (front, back), the unscheduled jobs being those neither fixed in `scheduled` (flags or
// FreeJobBits, above) nor equal to `extra` (the job a child adds; -1 for none). Branch
// refactoring (2011 §5): a scheduled job is skipped by selects, not by a branch, so every lane
// of a warp runs the same sweep; integer selects are exact where the paper's __cosf/__expf
// tricks round.
template <class FixedJobs>
PERMBB_HD Time johnson_pair_bound(const JohnsonView& johnson, int pair, const Time* front,
                                  const Time* back, FixedJobs scheduled, int extra) {
  const int a = johnson.machine_a[pair];
  const int b = johnson.machine_b[pair];
  const JohnsonEntry* sequence = johnson.sequence + pair * johnson.stride;
  Time done_a = front[a];
  Time done_b = front[b];
  for (int rank = 0; rank < johnson.jobs; ++rank) {
    const JohnsonEntry e = sequence[rank];
    const bool open = !is_fixed(scheduled, e.job) && e.job != extra;
    const Time next_a = done_a + e.on_a;
    const Time next_b = time_max(done_b, next_a + e.lag) + e.on_b;
    done_a = open ? next_a : done_a;
    done_b = open ? next_b : done_b;
  }
  return time_max(done_a + back[a], done_b + back[b]);
}

// The maximum of `lb` and the pairs [first, last) of the subproblem summarised by (front,
// back), the jobs flagged in `scheduled` and `extra` being fixed; stops once it reaches
// `cutoff`. The GPU's two-phase LB2 sweeps one pair range per phase with it.
template <class FixedJobs>
PERMBB_HD Time lb2_pairs_from(const JohnsonView& johnson, int first, int last, Time lb,
                              const Time* front, const Time* back, FixedJobs scheduled,
                              int extra, Time cutoff) {
  for (int pair = first; pair < last && lb < cutoff; ++pair) {
    lb = time_max(lb, johnson_pair_bound(johnson, pair, front, back, scheduled, extra));
  }
  return lb;
}

// LB2 of the subproblem summarised by (front, back, remain), the jobs flagged in `scheduled`
// and `extra` being fixed. Stops early once the bound reaches `cutoff`: the value returned is
// then max(LB1, the pairs swept so far), a valid bound >= cutoff, not necessarily LB2 itself.
// `lb1` is the subproblem's LB1, known to the caller.
template <class FixedJobs>
PERMBB_HD Time lb2_from_lb1(const JohnsonView& johnson, Time lb1, const Time* front,
                            const Time* back, FixedJobs scheduled, int extra, Time cutoff) {
  return lb2_pairs_from(johnson, 0, johnson.pairs, lb1, front, back, scheduled, extra, cutoff);
}

// The early-exit threshold of LB2 for the children whose bounds decide the branching: MaxSum
// compares sums of bounds, which must be exact (no cutoff); the MinMin rules compare minima,
// exact whenever below the upper bound. MinMin's tie-break compares sums: the explorers then
// recompute the cut-off bounds exactly (needs_exact_sums, branching.hpp).
PERMBB_HD Time lb2_cutoff(BranchingRule rule, Time upper_bound) {
  return rule == BranchingRule::kMaxSum ? kInfiniteTime : upper_bound;
}

// LB2 (as lb2_from_lb1) of the subproblem summarised by (front, back, remain) whose fixed
// jobs are flagged in `scheduled`.
PERMBB_HD Time lb2_bound(const FlowshopView& d, const JohnsonView& johnson, const Time* front,
                         const Time* back, const Time* remain, const unsigned char* scheduled,
                         Time cutoff) {
  return lb2_from_lb1(johnson, lb1_bound(d, front, back, remain), front, back, scheduled, -1,
                      cutoff);
}

// LB2 (as lb2_from_lb1) of the child that adds `job` in `direction` to the node summarised by
// (front, back, remain) whose fixed jobs are those of `scheduled`. `side` is scratch for m
// times (the child's new front or back).
template <class FixedJobs>
PERMBB_HD Time lb2_child_bound(const FlowshopView& d, const JohnsonView& johnson,
                               const Time* front, const Time* back, const Time* remain,
                               FixedJobs scheduled, int job, int direction, Time cutoff,
                               Time* side) {
  const Time lb1 = lb1_child_bound(d, front, back, remain, job, direction);
  if (lb1 >= cutoff) return lb1;
  const ChildSides child = lb1_child_sides(d, front, back, job, direction, side);
  return lb2_from_lb1(johnson, lb1, child.front, child.back, scheduled, job, cutoff);
}

}  // namespace permbb
