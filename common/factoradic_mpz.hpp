#pragma once
// Conversions between factoradic digit arrays (factoradic.hpp) and GMP integers.
//
// The coordinator and the messages work with intervals of GMP integers in [0, n!]; the IVM
// explorers work with digit arrays. These host-only functions translate between the two, for
// any n >= 1 (n! itself maps to the overflowed form d[0] = n, other digits 0).
#include <gmpxx.h>

namespace permbb {

// n! for n >= 0. Values for n < kFactorialTableSize are copied from a table built once, on
// the first call (thread safe); larger ones are computed with mpz_fac_ui. Throws
// std::out_of_range for n < 0.
inline constexpr int kFactorialTableSize = 1025;
mpz_class factorial(int n);

// The value of the digit array d[0..n-1]. Throws std::invalid_argument when a digit is out
// of its range (d[i] in [0, n-1-i], or the n! form).
mpz_class to_mpz(const int* digits, int n);

// Writes the factoradic digits of v (0 <= v <= n!) to digits[0..n-1]; v == n! gives the
// overflowed form. Throws std::out_of_range, leaving digits unspecified, when v is outside
// [0, n!].
void from_mpz(const mpz_class& v, int n, int* digits);

}  // namespace permbb
