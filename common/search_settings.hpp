#pragma once
#include <string>
#include <vector>

#include "branching.hpp"

namespace permbb {

// The lower bound used to prune: LB1 (one-machine), LB2 over all machine pairs, or LB2 over
// adjacent pairs only.
enum class BoundKind { kLb1, kLb2, kLb2Adjacent };

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
