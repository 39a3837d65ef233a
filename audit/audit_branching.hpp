#pragma once
// The branching rules as docs/branching.md defines them: a node's children either all add a
// job to the prefix (forward) or all add one before the suffix (backward); the rule picks
// the side from the branching bounds of both children sets.
//   minmin           the side in which the smallest bound of both sets occurs fewer times;
//                    on a tie, the side with the larger sum of bounds; then forward
//   minmin-fwd-ties  the same, ties forward
//   maxsum           the side with the larger sum of bounds, ties forward
//   fwd, bwd         always forward, always backward
#include <string>
#include <vector>

#include "audit_bounds.hpp"

namespace permbb::audit {

enum class Rule { kMinmin, kMinminFwdTies, kMaxsum, kFwd, kBwd };

// The rule a certificate names (its reader refuses other names), read once per search
// rather than compared as text at every node.
Rule rule_named(const std::string& name);

Side choose_side(Rule rule, const std::vector<Time>& front_bounds,
                 const std::vector<Time>& back_bounds);

// A node's children's bounds, by position in its free jobs: buffers kept by the caller, so
// that bounding a node's children allocates nothing.
struct ChildBounds {
  std::vector<Time> front;
  std::vector<Time> back;
  std::vector<Time> scratch;  // a child's new heads or tails
  std::vector<Time>& of(Side side) { return side == Side::kFront ? front : back; }
};

// The side a node branches to: its children's branching bounds, then the rule. On return
// `children.of(side)` holds the branching bounds of that side's children (the rule's
// figures, and what a search prunes them on or refines).
Side branching_side(const TextbookBounds& bounds, Rule rule, const Sides& node,
                    ChildBounds& children);

}  // namespace permbb::audit
