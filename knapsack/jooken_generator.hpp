#pragma once
#include <cstdint>
#include <string>

#include "generator_fields.hpp"
#include "knapsack_instance.hpp"

namespace permbb::knapsack {

// The hard class of Jooken, Leyman & De Causmaecker, "A new class of hard problem instances
// for the 0-1 knapsack problem", EJOR 301(3), 2022, §3: parameters n, capacity c, g groups,
// fraction f, ε, s. The first g - 1 groups hold (n - ⌊n f⌋) / (g - 1) items each (integer
// division); an item of group j = 0, 1, ... has profit and weight ⌊(1/2^(j+1) + ε) c⌋ plus
// independent uniform integers in [1, s]. The remaining items (about n f) have profit and
// weight uniform in [1, s]. The published grid: n in {400, ..., 1200}, c in {10^6, 10^8,
// 10^10}, g in {2, 6, 10, 14}, f in {0.1, 0.2, 0.3}, ε in {0, 1e-5, ..., 1e-1}, s in {100,
// 200, 300}.
struct JookenSpec {
  int items = 0;              // n
  std::int64_t capacity = 0;  // c
  int groups = 0;             // g, 2..63
  DecimalFraction fraction;   // f, exact
  DecimalFraction epsilon;    // ε, exact
  std::int64_t spread = 0;    // s, 1..2^40
  std::uint64_t seed = 0;
  std::string text;           // the spec as given, the instance's name
};

inline constexpr int kMaxJookenGroups = 63;
inline constexpr std::int64_t kMaxJookenSpread = std::int64_t{1} << 40;

// Whether `text` names this class ("jooken,...").
bool is_jooken_spec(const std::string& text);

// "jooken,n,c,g,f,eps,s,seed", e.g. "jooken,400,1000000,6,0.1,0.0001,100,1". Throws InputError.
JookenSpec parse_jooken_spec(const std::string& text);

// Items per group of the first g - 1: (n - ⌊n f⌋) / (g - 1).
int jooken_group_size(const JookenSpec& spec);

// ⌊(1/2^(j+1) + ε) c⌋, exactly (128-bit integers, no floating point).
std::int64_t jooken_group_base(const JookenSpec& spec, int group);

// The instance: the groups' items first (group 0, 1, ...), then the small items; per item the
// profit's draw, then the weight's, from std::mt19937_64 seeded with `seed` through
// uniform_integer (portable_random.hpp). The capacity is c. Throws InputError when a total
// passes 2^63 - 1.
KnapsackInstance generate_jooken_instance(const JookenSpec& spec);

}  // namespace permbb::knapsack
