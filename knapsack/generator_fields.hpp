#pragma once
// The fields of a `--generate` spec, "CLASS,a,b,...": split at commas, integers and decimal
// fractions read exactly (no floating point, so that every platform generates the same
// instance). Shared by the generators (knapsack_generator, jooken_generator).
#include <cstdint>
#include <string>
#include <vector>

namespace permbb::knapsack {

// "a,b,,c" -> {"a", "b", "", "c"}; a trailing comma gives a last empty field.
std::vector<std::string> split_spec_fields(const std::string& text);

// A non-negative integer field; throws InputError "--generate SPEC: WHAT 'TEXT' is not a
// non-negative integer in range".
std::int64_t spec_integer(const std::string& field, const std::string& spec, const char* what);
std::uint64_t spec_unsigned(const std::string& field, const std::string& spec, const char* what);

// A fraction in [0, 1], exactly: numerator / 10^digits.
struct DecimalFraction {
  std::uint64_t numerator = 0;
  int digits = 0;  // 0..18
};

// "0.25", "0", "1", ".5", "1e-5", "2.5E-3": decimal digits with at most one point and an
// optional exponent, at most 18 decimal places in all, the value within [0, 1]. Throws
// InputError naming the spec and the field otherwise.
DecimalFraction spec_fraction(const std::string& field, const std::string& spec, const char* what);

}  // namespace permbb::knapsack
