#pragma once
// LB2 (lb2.hpp) of the 2(n-d) children of one node on the CPU, sharing the node's part.
//
// A pair's Johnson sweep over jobs j_1..j_k in a fixed order, started at (a0, b0), ends at
//   done_a = a0 + sum p_a,   done_b = max(b0 + sum p_b, a0 + max_i (P_a(i) + lag_i + S_b(i)))
// (P_a(i): p_a of j_1..j_i, S_b(i): p_b of j_i..j_k), the max-plus form of the sweep's
// recurrence, equal to it in integers. A child's unscheduled jobs are the node's less its
// own job e, in the same order: the terms before e lose p_b(e), those after lose p_a(e). So
// once per node and pair the maxima of those terms before and after each job are taken, in
// O(n), and each child's pair bound then costs O(1) instead of a sweep of O(n); the front
// and back of the child only enter as (a0, b0) and the tails. The values are LB2's own, not
// an approximation: the tests compare them with a plain sweep.
//
// A pair's terms are built the first time a child of the node needs that pair, if enough
// children are still to come to share them (kBuildFrom): with the learned pair order
// (Lb2PairOrder) most children are cut off after a pair or two, and a node whose children are
// all cut builds only those pairs. The last children to come (with lb1+lb2 LB2 bounds about
// 1.6 children per node, LB1 pruning the rest, so often all of them) sweep the pair instead,
// over the node's unscheduled jobs only and stopping at the first term that reaches the
// cutoff: terms built for one or two lookups cost more than they save. The GPU keeps the
// per-child sweep (gpu/warp/warp_lb2.cuh), where the lanes of a warp sweep together.
#include <cstdint>
#include <vector>

#include "flowshop_view.hpp"
#include "lb2.hpp"
#include "lb2_pair_order.hpp"

namespace permbb {

class Lb2Children {
 public:
  Lb2Children(const FlowshopView& data, const JohnsonView& johnson);

  // The node whose children are bounded next: its fixed jobs flagged in `scheduled` ([job]),
  // and how many child bounds will be asked of it. The count only chooses between building a
  // pair's terms and sweeping it (see above), never a value: a wrong count costs time only.
  void set_node(const unsigned char* scheduled, int children);

  // LB2 of the child that adds `job` (one of the node's unscheduled jobs) in `direction` to
  // the node summarised by (front, back, remain). A bound at or above `cutoff` is returned as
  // `cutoff` itself, the sweep stopping at the first pair that reaches it, so the value does
  // not depend on the pair order: min(LB2, cutoff), exactly.
  Time child_bound(const Time* front, const Time* back, const Time* remain, int job,
                   int direction, Time cutoff);

 private:
  // What a child that adds `job` needs of one pair: the sums of p_a and p_b over the node's
  // other unscheduled jobs, and the largest term P_a + lag + S_b over them (kNone: none).
  struct Terms {
    Time rest_a;
    Time rest_b;
    Time lagged;
  };
  static constexpr Time kNone = INT32_MIN;
  // A pair's terms are built for a child when it and at least this many children in all are
  // still to be bounded: the build (a gather and two passes) costs about two sweeps, and a
  // sweep often stops early at the cutoff. Measured on ta013, ta018, ta020 with lb1+lb2
  // (docs/performance.md): 3 beat 2 and 4 by a few percent.
  static constexpr int kBuildFrom = 3;

  const std::uint64_t* open_ranks(int pair);
  int gather_open(int pair);
  void build_pair(int pair);
  Time built_pair_bound(int pair, int job, const Time* child_front, const Time* child_back);
  Time swept_pair_bound(int pair, int job, const Time* child_front, const Time* child_back,
                        const Time* remain, Time cutoff);
  Time pair_bound(int pair, int job, const Time* child_front, const Time* child_back,
                  const Time* remain, Time cutoff, bool shared);

  const FlowshopView data_;
  const JohnsonView johnson_;
  const int words_;                      // of a mask: one bit per rank
  Lb2PairOrder order_;
  std::vector<int> rank_;                // [pair * jobs + job]: its rank in Johnson's order
  std::vector<int> open_jobs_;           // the current node's unscheduled jobs
  std::vector<Terms> terms_;             // [pair * jobs + job], valid where built_ == node_
  std::vector<std::uint64_t> built_;     // [pair]: the node whose terms are built
  std::vector<std::uint64_t> masks_;     // [pair * words + word], bit r: rank r is unscheduled
  std::vector<std::uint64_t> masked_;    // [pair]: the node whose mask is set
  std::uint64_t node_ = 0;               // numbers the nodes set_node() was given
  int children_left_ = 0;                // the child bounds still to be asked of the node
  // build_pair's scratch, [i] for the i-th unscheduled job in Johnson's order.
  std::vector<JohnsonEntry> open_;
  std::vector<Time> before_;             // the largest W before it
  std::vector<Time> w_;                  // its W
  std::vector<Time> side_;               // one child's new front or back, [machine]
};

}  // namespace permbb
