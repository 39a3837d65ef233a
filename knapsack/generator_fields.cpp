#include "generator_fields.hpp"

#include <cctype>
#include <charconv>
#include <sstream>

#include "input_error.hpp"

namespace permbb::knapsack {
namespace {

constexpr int kMaxFractionDigits = 18;

template <class T>
T parse_integer(const std::string& field, const std::string& spec, const char* what) {
  T value{};
  const char* first = field.data();
  const char* last = first + field.size();
  const auto [end, error] = std::from_chars(first, last, value);
  if (error != std::errc() || end != last || field.empty() || value < T{0}) {
    throw InputError("--generate " + spec + ": " + what + " '" + field +
                     "' is not a non-negative integer in range");
  }
  return value;
}

bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

}  // namespace

std::vector<std::string> split_spec_fields(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) parts.push_back(part);
  if (!text.empty() && text.back() == ',') parts.push_back("");
  return parts;
}

std::int64_t spec_integer(const std::string& field, const std::string& spec, const char* what) {
  return parse_integer<std::int64_t>(field, spec, what);
}

std::uint64_t spec_unsigned(const std::string& field, const std::string& spec, const char* what) {
  return parse_integer<std::uint64_t>(field, spec, what);
}

// The mantissa's digits accumulate into the numerator (more than 18 significant ones are
// refused); each digit after the point, and each step of a negative exponent, adds one
// decimal place, and a positive exponent takes places away.
DecimalFraction spec_fraction(const std::string& field, const std::string& spec,
                              const char* what) {
  const auto refuse = [&] {
    return InputError("--generate " + spec + ": " + what + " '" + field +
                      "' is not a decimal number in [0, 1] with at most 18 decimal places");
  };
  std::size_t k = 0;
  std::uint64_t numerator = 0;
  int places = 0;
  int digits = 0;
  bool point = false;
  for (; k < field.size() && (is_digit(field[k]) || (field[k] == '.' && !point)); ++k) {
    if (field[k] == '.') {
      point = true;
      continue;
    }
    if (++digits > kMaxFractionDigits) throw refuse();
    numerator = numerator * 10 + static_cast<std::uint64_t>(field[k] - '0');
    if (point) ++places;
  }
  if (digits == 0) throw refuse();
  if (k < field.size()) {
    if (field[k] != 'e' && field[k] != 'E') throw refuse();
    int exponent = 0;
    const char* first = field.data() + k + 1;
    const char* last = field.data() + field.size();
    const auto [end, error] = std::from_chars(first, last, exponent);
    if (error != std::errc() || end != last || exponent > kMaxFractionDigits ||
        exponent < -kMaxFractionDigits) {
      throw refuse();
    }
    places -= exponent;
  }
  for (; places < 0; ++places) {
    if (numerator > 1) throw refuse();  // above 1 once scaled (or 10 * 1 > 1)
    numerator *= 10;
  }
  if (places > kMaxFractionDigits) throw refuse();
  std::uint64_t scale = 1;
  for (int p = 0; p < places; ++p) scale *= 10;
  if (numerator > scale) throw refuse();
  return {numerator, places};
}

}  // namespace permbb::knapsack
