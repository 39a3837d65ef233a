#include "search_settings.hpp"

#include <utility>

#include "input_error.hpp"
#include "text_file.hpp"

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

template <class Enum>
std::string name_of(const std::vector<std::pair<Enum, std::string>>& table, Enum value) {
  for (const auto& [v, name] : table) {
    if (v == value) return name;
  }
  return "?";
}

template <class Enum>
Enum parse(const std::vector<std::pair<Enum, std::string>>& table, const std::string& name,
           const char* what) {
  std::string accepted;
  for (const auto& [v, n] : table) {
    if (n == name) return v;
    accepted += (accepted.empty() ? "" : ", ") + n;
  }
  // Quoted and cut short: the name may come from a damaged checkpoint file, and the message
  // must stay one readable line whatever it holds.
  throw InputError(std::string("unknown ") + what + " " + quoted_token(name) +
                   " (expected one of: " + accepted + ")");
}

template <class Enum>
std::vector<std::string> names_of(const std::vector<std::pair<Enum, std::string>>& table) {
  std::vector<std::string> out;
  for (const auto& entry : table) out.push_back(entry.second);
  return out;
}

}  // namespace

std::string to_string(BoundKind bound) { return name_of(bound_names(), bound); }
std::string to_string(BranchingRule rule) { return name_of(rule_names(), rule); }
BoundKind parse_bound_kind(const std::string& name) { return parse(bound_names(), name, "bound"); }
BranchingRule parse_branching_rule(const std::string& name) {
  return parse(rule_names(), name, "branching rule");
}
std::vector<std::string> bound_kind_names() { return names_of(bound_names()); }
std::vector<std::string> branching_rule_names() { return names_of(rule_names()); }

}  // namespace permbb
