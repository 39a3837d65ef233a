#include "audit_branching.hpp"

#include <algorithm>
#include <numeric>

namespace permbb::audit {

Rule rule_named(const std::string& name) {
  if (name == "minmin") return Rule::kMinmin;
  if (name == "minmin-fwd-ties") return Rule::kMinminFwdTies;
  if (name == "fwd") return Rule::kFwd;
  if (name == "bwd") return Rule::kBwd;
  return Rule::kMaxsum;
}

Side choose_side(Rule rule, const std::vector<Time>& front_bounds,
                 const std::vector<Time>& back_bounds) {
  if (rule == Rule::kFwd) return Side::kFront;
  if (rule == Rule::kBwd) return Side::kBack;
  if (rule == Rule::kMinmin || rule == Rule::kMinminFwdTies) {
    const Time smallest = std::min(*std::min_element(front_bounds.begin(), front_bounds.end()),
                                   *std::min_element(back_bounds.begin(), back_bounds.end()));
    const auto in_front = std::count(front_bounds.begin(), front_bounds.end(), smallest);
    const auto in_back = std::count(back_bounds.begin(), back_bounds.end(), smallest);
    if (in_front < in_back) return Side::kFront;
    if (in_back < in_front) return Side::kBack;
    if (rule == Rule::kMinminFwdTies) return Side::kFront;
  }
  const Time front_sum = std::accumulate(front_bounds.begin(), front_bounds.end(), Time{0});
  const Time back_sum = std::accumulate(back_bounds.begin(), back_bounds.end(), Time{0});
  return back_sum > front_sum ? Side::kBack : Side::kFront;
}

namespace {

// `children.of(side)` = the branching bounds of the node's children on `side`.
void bound_side(const TextbookBounds& bounds, const Sides& node, Side side, ChildBounds& children) {
  std::vector<Time>& out = children.of(side);
  out.clear();
  for (const int job : node.free) {
    out.push_back(bounds.child_branching_bound(node, side, job, children.scratch));
  }
}

}  // namespace

Side branching_side(const TextbookBounds& bounds, Rule rule, const Sides& node,
                    ChildBounds& children) {
  // fwd and bwd compare nothing, but the chosen side's bounds are still wanted.
  if (rule != Rule::kBwd) bound_side(bounds, node, Side::kFront, children);
  if (rule != Rule::kFwd) bound_side(bounds, node, Side::kBack, children);
  return choose_side(rule, children.front, children.back);
}

}  // namespace permbb::audit
