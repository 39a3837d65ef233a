#include "interval.hpp"

namespace permbb {

mpz_class Interval::length() const {
  if (empty()) return mpz_class(0);
  return mpz_class(end - begin);
}

bool operator==(const Interval& a, const Interval& b) {
  return a.begin == b.begin && a.end == b.end;
}

Interval intersect(const Interval& a, const Interval& b) {
  return Interval{a.begin >= b.begin ? a.begin : b.begin, a.end <= b.end ? a.end : b.end};
}

std::string to_string(const Interval& interval) {
  // Appended piece by piece: "literal" + std::string&& trips a false -Wrestrict in GCC 12.
  std::string text = "[";
  text += interval.begin.get_str();
  text += ", ";
  text += interval.end.get_str();
  text += "[";
  return text;
}

mpz_class total_length(const std::vector<Interval>& intervals) {
  mpz_class total = 0;
  for (const Interval& interval : intervals) total += interval.length();
  return total;
}

}  // namespace permbb
