#pragma once
#include <vector>

#include "flowshop_types.hpp"
#include "instance.hpp"
#include "lb2.hpp"
#include "search_settings.hpp"

namespace permbb {

// Which machine pairs the two-machine bound LB2 considers (Lageweg et al. 1978).
enum class MachinePairs { kAll, kAdjacent };

// The pairs a bound kind sweeps (kAll for lb2 and lb1+lb2).
MachinePairs machine_pairs_for(BoundKind bound);

// Built once per instance: the machine pairs, and each pair's jobs in Johnson's order for
// (p_a + lag, lag + p_b) (Mitten's extension of Johnson's rule), the lag being the job's total
// time on the machines strictly between a and b, each entry carrying p_a, lag and p_b. The
// bound then only sweeps the pre-sorted sequences, skipping scheduled jobs. The GPU explorer
// copies these arrays to the device as they are.
class JohnsonTables {
 public:
  JohnsonTables(const Instance& instance, MachinePairs pairs);

  JohnsonView view() const;
  int pair_count() const { return static_cast<int>(machine_a_.size()); }
  int jobs() const { return jobs_; }
  const std::vector<int>& machine_a() const { return machine_a_; }
  const std::vector<int>& machine_b() const { return machine_b_; }
  const std::vector<JohnsonEntry>& sequence() const { return sequence_; }
  // The sequences `stride` >= jobs() entries apart (the gaps zero): JohnsonView::stride.
  std::vector<JohnsonEntry> sequence_with_stride(int stride) const;

  // The same pairs in another order: pair i of the result is pair order[i] of these (order is
  // a permutation of 0..pair_count()-1). LB2 is the maximum over the pairs, so only where its
  // early exit stops changes, never a bound below the cutoff.
  JohnsonTables reordered(const std::vector<int>& order) const;

 private:
  int jobs_;
  std::vector<int> machine_a_;
  std::vector<int> machine_b_;
  std::vector<JohnsonEntry> sequence_;  // [pair * jobs + rank]
};

// The pairs by decreasing two-machine bound at the root (no job fixed; ties by index): the
// pairs that bound the whole instance highest are the likeliest to cut a child off first. A
// static order for the GPU's LB2 screen (gpu/warp/warp_lb2.cuh); the CPU learns its order
// (lb2_pair_order.hpp).
std::vector<int> pairs_by_root_bound(const FlowshopView& data, const JohnsonTables& johnson);

}  // namespace permbb
