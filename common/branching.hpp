#pragma once
// Dynamic branching (Potts 1980): both children sets of a node, forward (σ1 j, σ2) and
// backward (σ1, j σ2), are bounded and a rule keeps one of them. 2022 §2.3, 2016 §1.1.
#include "flowshop_types.hpp"
#include "hd.hpp"

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

// Picks the direction from the bounds of the `count` children in each set.
PERMBB_HD int choose_direction(BranchingRule rule, const Time* lb_front, const Time* lb_back,
                               int count) {
  if (rule == BranchingRule::kForward) return kFront;
  if (rule == BranchingRule::kBackward) return kBack;
  long long sum_front = 0;
  long long sum_back = 0;
  Time lowest = kInfiniteTime;
  for (int i = 0; i < count; ++i) {
    sum_front += lb_front[i];
    sum_back += lb_back[i];
    if (lb_front[i] < lowest) lowest = lb_front[i];
    if (lb_back[i] < lowest) lowest = lb_back[i];
  }
  if (rule != BranchingRule::kMaxSum) {
    int balance = 0;  // occurrences of the minimum: front minus back
    for (int i = 0; i < count; ++i) {
      balance += (lb_front[i] == lowest) - (lb_back[i] == lowest);
    }
    if (balance < 0) return kFront;
    if (balance > 0) return kBack;
    if (rule == BranchingRule::kMinMinForwardTies) return kFront;
  }
  return sum_back > sum_front ? kBack : kFront;
}

}  // namespace permbb
