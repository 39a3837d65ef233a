#pragma once
// Interval: a half-open range [begin, end[ of permutation numbers, the elementary work unit
// of the IVM-based branch-and-bound (Gmys et al. 2022, §2.6). Bounds are GMP integers in
// [0, n!]; digit-array intervals for the explorers are converted with factoradic_mpz.hpp.
#include <gmpxx.h>

#include <string>
#include <vector>

namespace permbb {

struct Interval {
  mpz_class begin;
  mpz_class end;  // excluded

  // An interval with begin >= end holds nothing.
  bool empty() const { return begin >= end; }
  // end - begin, or 0 when empty.
  mpz_class length() const;
};

// The sum of the intervals' lengths: the work they hold when they are disjoint.
mpz_class total_length(const std::vector<Interval>& intervals);

// Compares the bounds exactly: two empty intervals with different bounds are not equal.
bool operator==(const Interval& a, const Interval& b);

// [a1, b1[ ∩ [a2, b2[ = [max(a1, a2), min(b1, b2)[ (Eq. 3 of the 2022 paper). The result is
// empty (begin >= end) when the intervals do not meet; its bounds are then returned as computed.
Interval intersect(const Interval& a, const Interval& b);

// "[begin, end[" in decimal, for messages and logs.
std::string to_string(const Interval& interval);

}  // namespace permbb
