#pragma once
// Factoradic numbers: fixed-length digit arrays that number the n! permutations of n jobs.
//
// Representation. A factoradic for permutations of n elements is an array d[0..n-1] of ints
// with d[i] in [0, n-1-i]; digit i has weight (n-1-i)!, so d[0] is the most significant digit
// and d[n-1] is always 0. The value 0 is (0, ..., 0) and the last permutation, n!-1, is
// (n-1, n-2, ..., 1, 0). During a depth-first IVM exploration the position vector V runs
// through these values in increasing order (Gmys et al. 2016, §2.3; 2022, §2.6). The end of
// the search space, n!, has no regular representation: it is written with an "overflowed" top
// digit, d[0] = n and every other digit 0. With this convention the lexicographic order of
// digit arrays is the numeric order, n! included, so half-open intervals [a, b[ with
// 0 <= a <= b <= n! are compared and split without ever converting to big integers.
//
// Every function works on plain pointers and a length n, without allocation, exceptions or
// recursion, so the same code runs in the CPU explorer and in the GPU kernels (PERMBB_HD).
// Preconditions are the caller's to respect; they are not checked. Unless a function says
// otherwise, `out` may be the same array as any input.
#include "host_device.hpp"

namespace permbb::factoradic {

// The radix of digit i: d[i] takes the values 0 .. radix(i, n) - 1.
PERMBB_HD int radix(int i, int n) {
  return n - i;
}

// -1, 0 or 1 as a < b, a == b, a > b (lexicographic order, which is numeric order).
PERMBB_HD int compare(const int* a, const int* b, int n) {
  for (int i = 0; i < n; ++i) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

PERMBB_HD bool is_zero(const int* d, int n) {
  for (int i = 0; i < n; ++i) {
    if (d[i] != 0) return false;
  }
  return true;
}

PERMBB_HD void set_zero(int* d, int n) {
  for (int i = 0; i < n; ++i) d[i] = 0;
}

// Writes n!, the end of the search space: d[0] = n, every other digit 0.
PERMBB_HD void set_end_of_space(int* d, int n) {
  set_zero(d, n);
  if (n > 0) d[0] = n;
}

PERMBB_HD bool is_end_of_space(const int* d, int n) {
  return n > 0 && d[0] == n && is_zero(d + 1, n - 1);
}

// out = a + b, digit by digit from the least significant, carrying into the next digit.
// Requires a + b <= n!; the n! result comes out in its overflowed form.
PERMBB_HD void add(const int* a, const int* b, int* out, int n) {
  int carry = 0;
  for (int i = n - 1; i > 0; --i) {
    const int sum = a[i] + b[i] + carry;
    const int r = radix(i, n);
    carry = sum >= r ? 1 : 0;
    out[i] = sum - carry * r;
  }
  if (n > 0) out[0] = a[0] + b[0] + carry;
}

// out = a - b, borrowing from the next more significant digit. Requires a >= b.
PERMBB_HD void subtract(const int* a, const int* b, int* out, int n) {
  int borrow = 0;
  for (int i = n - 1; i >= 0; --i) {
    int diff = a[i] - b[i] - borrow;
    borrow = diff < 0 ? 1 : 0;
    out[i] = diff + borrow * radix(i, n);
  }
}

// out = floor(a / divisor); returns a mod divisor. Schoolbook long division from the most
// significant digit: the running remainder r < divisor is carried into the next digit as
// r * radix + d[i], so it needs divisor * n to fit in a long long. Each quotient digit is at
// most radix - 1, so the quotient is a valid factoradic (n! / 1 keeps its overflowed form).
// Requires divisor >= 1.
PERMBB_HD long long divide_by(const int* a, long long divisor, int* out, int n) {
  long long rem = 0;
  for (int i = 0; i < n; ++i) {
    const long long cur = rem * radix(i, n) + a[i];
    out[i] = static_cast<int>(cur / divisor);
    rem = cur % divisor;
  }
  return rem;
}

// out = floor(a / 2).
PERMBB_HD void halve(const int* a, int* out, int n) {
  divide_by(a, 2, out, n);
}

// out = a + floor((b - a) / T), the point where an interval [a, b[ is cut so that the left
// part [a, out[ holds about 1/T of it. This is computeNewPos of Gmys et al. 2016 (§3.3.1),
// C = (1 - 1/T) A + (1/T) B, written as A + (B - A) / T so that it stays in integers:
// both equal floor(((T-1) A + B) / T). Requires a <= b and T >= 1 with T * n fitting in a
// long long. `out` may be the same array as b, but NOT as a (a is read after out is written).
PERMBB_HD void split_point(const int* a, const int* b, long long T, int* out, int n) {
  subtract(b, a, out, n);
  divide_by(out, T, out, n);
  add(a, out, out, n);
}

// out = a + floor((b - a) / 2) = floor((a + b) / 2): the cut of a work-stealing operation,
// [a, out[ stays with the victim and [out, b[ goes to the thief. Requires a <= b. Same
// aliasing rule as split_point: `out` may be b, not a.
PERMBB_HD void midpoint(const int* a, const int* b, int* out, int n) {
  split_point(a, b, 2, out, n);
}

// d / n! as a double, for progress reports: digit i weighs (n-1-i)!/n! = 1/(n(n-1)...(n-i)).
// The n! form gives 1.
PERMBB_HD double fraction_of_space(const int* d, int n) {
  double weight = 1.0;
  double fraction = 0.0;
  for (int i = 0; i < n && weight > 1e-300; ++i) {
    weight /= static_cast<double>(n - i);
    fraction += d[i] * weight;
  }
  return fraction;
}

}  // namespace permbb::factoradic
