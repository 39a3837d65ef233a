#pragma once
#include <optional>
#include <string>

#include "instance.hpp"

namespace permbb::taillard {

inline constexpr int kInstanceCount = 120;

// Generates Taillard instance `index` (1..120) with Taillard's generator and seed table;
// named "taNNN" (three digits).
Instance generate(int index);

// 1..120 when `name` is a Taillard name (`ta1`, `ta01`, `ta001`, `TA001`), else nullopt.
std::optional<int> parse_name(const std::string& name);

// 1..120 when `instance` is that Taillard instance: its name parses as one and its data are
// the generated instance's (a file named ta005 holding other data is not ta005), else nullopt.
std::optional<int> identify(const Instance& instance);

// Published facts for instance `index` (1..120): sizes, the sum of all processing times,
// and the best-known makespan (optimal for all but the open ones).
int jobs(int index);
int machines(int index);
long long checksum(int index);
Time best_known_makespan(int index);
bool is_open(int index);

}  // namespace permbb::taillard
