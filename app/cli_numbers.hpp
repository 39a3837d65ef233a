#pragma once
// Checks of numeric command-line options. CLI11's own checks let typos through: NaN and
// infinity pass PositiveNumber and NonNegativeNumber (every comparison with NaN is false; a
// NaN slice length spins the search loop), an integer past its type's range is silently
// clamped by the conversion, and Range's message prints the type's limits (hundreds of digits
// for a double). These validators parse the text as the option's own type, whole, and refuse
// anything else with one line saying what is expected.
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>

#include <CLI/CLI.hpp>

#include "number_text.hpp"

namespace permbb::app {

namespace detail {

// The text as a T when all of it is one finite number of T's range; false otherwise.
template <class T>
bool parse_whole_number(const std::string& text, T& value) {
  if (text.empty()) return false;
  if constexpr (std::is_integral_v<T>) {
    const char* begin = text.data() + (text.front() == '+' ? 1 : 0);
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(begin, end, value);
    return error == std::errc() && stop == end;
  } else {
    char* stop = nullptr;
    const double parsed = std::strtod(text.c_str(), &stop);
    if (stop != text.c_str() + text.size() || !std::isfinite(parsed)) return false;
    if (std::abs(parsed) > static_cast<double>(std::numeric_limits<T>::max())) return false;
    value = static_cast<T>(parsed);
    return true;
  }
}

}  // namespace detail

// A number of type T with min <= value <= max (min < value when `min_excluded`).
template <class T>
CLI::Validator number_in_range(T min, T max, bool min_excluded = false) {
  const std::string kind = std::is_integral_v<T> ? "an integer" : "a finite number";
  const std::string expected = kind + (min_excluded ? " > " : " >= ") + number_text(min) +
                               (max == std::numeric_limits<T>::max()
                                    ? std::string()
                                    : " and <= " + number_text(max));
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        T value{};
        const bool in_range = detail::parse_whole_number(text, value) && value <= max &&
                              (min_excluded ? value > min : value >= min);
        return in_range ? std::string() : "'" + text + "' is not " + expected;
      },
      expected);
}

// The common cases: >= min, and > min (seconds, rates), with no upper limit but the type's.
template <class T>
CLI::Validator number_at_least(T min) {
  return number_in_range<T>(min, std::numeric_limits<T>::max());
}
template <class T>
CLI::Validator number_above(T min) {
  return number_in_range<T>(min, std::numeric_limits<T>::max(), true);
}

}  // namespace permbb::app
