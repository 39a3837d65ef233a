#include "audit_branching.hpp"

#include <algorithm>
#include <numeric>

namespace permbb::audit {

Side choose_side(const std::string& rule, const std::vector<Time>& front_bounds,
                 const std::vector<Time>& back_bounds) {
  if (rule == "fwd") return Side::kFront;
  if (rule == "bwd") return Side::kBack;
  if (rule == "minmin" || rule == "minmin-fwd-ties") {
    const Time smallest = std::min(*std::min_element(front_bounds.begin(), front_bounds.end()),
                                   *std::min_element(back_bounds.begin(), back_bounds.end()));
    const auto in_front = std::count(front_bounds.begin(), front_bounds.end(), smallest);
    const auto in_back = std::count(back_bounds.begin(), back_bounds.end(), smallest);
    if (in_front < in_back) return Side::kFront;
    if (in_back < in_front) return Side::kBack;
    if (rule == "minmin-fwd-ties") return Side::kFront;
  }
  const Time front_sum = std::accumulate(front_bounds.begin(), front_bounds.end(), Time{0});
  const Time back_sum = std::accumulate(back_bounds.begin(), back_bounds.end(), Time{0});
  return back_sum > front_sum ? Side::kBack : Side::kFront;
}

Side branching_side(const TextbookBounds& bounds, const std::string& rule, const Sides& node) {
  if (rule == "fwd") return Side::kFront;
  if (rule == "bwd") return Side::kBack;
  std::vector<Time> front_bounds;
  std::vector<Time> back_bounds;
  for (const int job : node.free) {
    front_bounds.push_back(bounds.branching_bound(bounds.child_front(node, job)));
    back_bounds.push_back(bounds.branching_bound(bounds.child_back(node, job)));
  }
  return choose_side(rule, front_bounds, back_bounds);
}

}  // namespace permbb::audit
