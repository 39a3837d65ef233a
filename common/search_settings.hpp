#pragma once
#include <string>
#include <vector>

#include "branching.hpp"

namespace permbb {

// The lower bound used to prune: LB1 (one-machine), LB2 over all machine pairs, LB2 over
// adjacent pairs only, or LB1 then LB2: both children sets bounded with LB1, which also
// decides the branching direction, and LB2 (all pairs) computed only for the kept set's
// children that LB1 cannot prune.
enum class BoundKind { kLb1, kLb2, kLb2Adjacent, kLb1ThenLb2 };

// True when the bound needs Johnson's tables (every kind but lb1).
inline bool uses_lb2(BoundKind bound) { return bound != BoundKind::kLb1; }

// What decides the shape of the tree: with the same settings and a fixed upper bound, the
// set of decomposed nodes is the same however the search space is cut into intervals.
struct SearchSettings {
  BoundKind bound = BoundKind::kLb1;
  BranchingRule branching = BranchingRule::kMinMin;
};

// Names as the command line spells them ("lb1", "minmin-fwd-ties", ...).
std::string to_string(BoundKind bound);
std::string to_string(BranchingRule rule);
// Throw InputError naming the accepted values.
BoundKind parse_bound_kind(const std::string& name);
BranchingRule parse_branching_rule(const std::string& name);
std::vector<std::string> bound_kind_names();
std::vector<std::string> branching_rule_names();

}  // namespace permbb
