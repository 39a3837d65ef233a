#pragma once
// The invariants of an interval list that the protocol and the checkpoint file promise:
// sorted, non-empty, disjoint (touching is fine), inside [0, limit].
#include <gmpxx.h>

#include <vector>

#include "fuzz_support.hpp"
#include "interval.hpp"

namespace permbb::fuzz {

inline void check_sorted_disjoint(const std::vector<Interval>& intervals, const char* what) {
  for (std::size_t j = 0; j < intervals.size(); ++j) {
    check(sgn(intervals[j].begin) >= 0 && intervals[j].begin < intervals[j].end, what);
    check(j == 0 || intervals[j - 1].end <= intervals[j].begin, what);
  }
}

inline void check_inside(const std::vector<Interval>& intervals, const mpz_class& limit,
                         const char* what) {
  check(intervals.empty() || intervals.back().end <= limit, what);
}

// The sum of the lengths, computed here.
inline mpz_class summed_lengths(const std::vector<Interval>& intervals) {
  mpz_class total = 0;
  for (const Interval& x : intervals) total += x.end - x.begin;
  return total;
}

}  // namespace permbb::fuzz
