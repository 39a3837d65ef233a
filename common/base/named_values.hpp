#pragma once
// Tables of an enum's values and their command-line names: the name of a value, the value of
// a name (or an InputError listing the accepted names), and all the names. One table per enum;
// used by the search settings (bounds, branching rules) and the heuristics (methods, ties).
#include <string>
#include <utility>
#include <vector>

#include "input_error.hpp"
#include "text_file.hpp"

namespace permbb {

template <class Enum>
using NameTable = std::vector<std::pair<Enum, std::string>>;

template <class Enum>
std::string name_of(const NameTable<Enum>& table, Enum value) {
  for (const auto& [v, name] : table) {
    if (v == value) return name;
  }
  return "?";
}

template <class Enum>
Enum parse_name(const NameTable<Enum>& table, const std::string& name, const char* what) {
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
std::vector<std::string> names_of(const NameTable<Enum>& table) {
  std::vector<std::string> out;
  for (const auto& entry : table) out.push_back(entry.second);
  return out;
}

}  // namespace permbb
