#pragma once
// Dynamic branching (Potts 1980): both children sets of a node, forward (σ1 j, σ2) and
// backward (σ1, j σ2), are bounded and a rule keeps one of them. 2022 §2.3, 2016 §1.1.
#include "flowshop_types.hpp"
#include "host_device.hpp"

namespace permbb {

enum class BranchingRule : int {
  // MinMin as the 2022 paper's text gives it: keep the set in which the smallest child bound
  // (over both sets) occurs fewer times; on a tie the set with the larger sum of bounds; then
  // forward.
  kMinMin = 0,
  // MinMin as the published GPU code breaks ties: directly forward (no sums). Offered so tree
  // sizes can be compared with the published ones (docs/branching.md).
  kMinMinForwardTies = 1,
  // The set with the larger sum of bounds; ties forward (2016 §1.1).
  kMaxSum = 2,
  kForward = 3,
  kBackward = 4,
};

// Where a row's jobs are placed: appended to the prefix or prepended to the suffix.
enum Direction : int { kFront = 0, kBack = 1 };

// True when the rule needs both children sets bounded.
PERMBB_HD bool needs_both_directions(BranchingRule rule) {
  return rule != BranchingRule::kForward && rule != BranchingRule::kBackward;
}

// The smallest bound over both children sets, and its occurrences in the front set less
// those in the back set: what the MinMin rules compare first.
struct MinimumBalance {
  Time lowest = kInfiniteTime;
  int balance = 0;
};

PERMBB_HD MinimumBalance minimum_balance(const Time* lb_front, const Time* lb_back, int count) {
  MinimumBalance m;
  for (int i = 0; i < count; ++i) {
    if (lb_front[i] < m.lowest) m.lowest = lb_front[i];
    if (lb_back[i] < m.lowest) m.lowest = lb_back[i];
  }
  for (int i = 0; i < count; ++i) {
    m.balance += (lb_front[i] == m.lowest) - (lb_back[i] == m.lowest);
  }
  return m;
}

// Picks the direction from the bounds of the `count` children in each set.
PERMBB_HD int choose_direction(BranchingRule rule, const Time* lb_front, const Time* lb_back,
                               int count) {
  if (rule == BranchingRule::kForward) return kFront;
  if (rule == BranchingRule::kBackward) return kBack;
  if (rule != BranchingRule::kMaxSum) {
    const int balance = minimum_balance(lb_front, lb_back, count).balance;
    if (balance < 0) return kFront;
    if (balance > 0) return kBack;
    if (rule == BranchingRule::kMinMinForwardTies) return kFront;
  }
  long long sum_front = 0;
  long long sum_back = 0;
  for (int i = 0; i < count; ++i) {
    sum_front += lb_front[i];
    sum_back += lb_back[i];
  }
  return sum_back > sum_front ? kBack : kFront;
}

// True when bounds cut off at `cutoff` (LB2's early exit, lb2.hpp) would decide the
// direction: MinMin breaking a tie of its counts with the sums, the smallest bound below the
// cutoff. The caller then computes the cut-off bounds exactly. A node's direction must not
// depend on the upper bound: every explorer whose interval meets the node's subtree branches
// it (start() replays the path), and two that branch it differently read the same positions
// as different schedules, so some are explored twice and others, the optimum among them,
// never. The counts and the minimum below the cutoff are exact; the sums of cut-off bounds
// are not. (With every bound at or above the cutoff every child is pruned, whatever the
// direction.)
PERMBB_HD bool needs_exact_sums(BranchingRule rule, const Time* lb_front, const Time* lb_back,
                                int count, Time cutoff) {
  if (rule != BranchingRule::kMinMin || cutoff == kInfiniteTime) return false;
  const MinimumBalance m = minimum_balance(lb_front, lb_back, count);
  return m.balance == 0 && m.lowest < cutoff;
}

}  // namespace permbb
