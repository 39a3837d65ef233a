#include "search_settings.hpp"

#include <utility>

#include "named_values.hpp"

namespace permbb {
namespace {

const std::vector<std::pair<BoundKind, std::string>>& bound_names() {
  static const std::vector<std::pair<BoundKind, std::string>> names = {
      {BoundKind::kLb1, "lb1"},
      {BoundKind::kLb2, "lb2"},
      {BoundKind::kLb2Adjacent, "lb2-adjacent"},
      {BoundKind::kLb1ThenLb2, "lb1+lb2"}};
  return names;
}

const std::vector<std::pair<BranchingRule, std::string>>& rule_names() {
  static const std::vector<std::pair<BranchingRule, std::string>> names = {
      {BranchingRule::kMinMin, "minmin"},
      {BranchingRule::kMinMinForwardTies, "minmin-fwd-ties"},
      {BranchingRule::kMaxSum, "maxsum"},
      {BranchingRule::kForward, "fwd"},
      {BranchingRule::kBackward, "bwd"}};
  return names;
}

}  // namespace

std::string to_string(BoundKind bound) { return name_of(bound_names(), bound); }
std::string to_string(BranchingRule rule) { return name_of(rule_names(), rule); }
BoundKind parse_bound_kind(const std::string& name) { return parse_name(bound_names(), name, "bound"); }
BranchingRule parse_branching_rule(const std::string& name) {
  return parse_name(rule_names(), name, "branching rule");
}
std::vector<std::string> bound_kind_names() { return names_of(bound_names()); }
std::vector<std::string> branching_rule_names() { return names_of(rule_names()); }

}  // namespace permbb
