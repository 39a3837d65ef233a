// Conversions between factoradic digit arrays and GMP integers.
//
// Both directions group consecutive digits into one machine word, so that a conversion costs
// about n / 6 big-number operations by a word (for n = 800) instead of n: to_mpz multiplies
// by the product of several radices at once, from_mpz divides by it and splits the word
// remainder into digits with native arithmetic. No operation ever divides by a big number.
#include "factoradic_mpz.hpp"

#include <climits>
#include <stdexcept>
#include <string>
#include <vector>

#include "factoradic.hpp"

namespace permbb {
namespace {

std::vector<mpz_class> build_factorial_table() {
  std::vector<mpz_class> table(kFactorialTableSize);
  table[0] = 1;
  for (int k = 1; k < kFactorialTableSize; ++k) table[k] = table[k - 1] * k;
  return table;
}

void require_length(int n, const char* where) {
  if (n < 1) {
    throw std::invalid_argument(std::string(where) + ": factoradic length must be >= 1, got " +
                                std::to_string(n));
  }
}

// A short description of a possibly huge value, for error messages.
std::string describe(const mpz_class& v) {
  if (mpz_sizeinbase(v.get_mpz_t(), 10) <= 40) return v.get_str();
  return std::string(mpz_sgn(v.get_mpz_t()) < 0 ? "-" : "") + "(a " +
         std::to_string(mpz_sizeinbase(v.get_mpz_t(), 2)) + "-bit integer)";
}

}  // namespace

mpz_class factorial(int n) {
  if (n < 0) throw std::out_of_range("factorial: negative argument " + std::to_string(n));
  static const std::vector<mpz_class> table = build_factorial_table();
  if (n < kFactorialTableSize) return table[n];
  mpz_class result;
  mpz_fac_ui(result.get_mpz_t(), static_cast<unsigned long>(n));
  return result;
}

// Horner's scheme v = v * radix(i) + d[i] from the most significant digit, taking as many
// digits per step as fit in an unsigned long: chunk is their Horner value, scale the product
// of their radices (chunk < scale, or chunk == scale for the n! form of d[0]).
mpz_class to_mpz(const int* digits, int n) {
  require_length(n, "to_mpz");
  const bool end_of_space = factoradic::is_end_of_space(digits, n);
  for (int i = end_of_space ? n : 0; i < n; ++i) {
    if (digits[i] < 0 || digits[i] >= factoradic::radix(i, n)) {
      throw std::invalid_argument("to_mpz: digit " + std::to_string(i) + " is " +
                                  std::to_string(digits[i]) + ", outside [0, " +
                                  std::to_string(factoradic::radix(i, n) - 1) +
                                  "] (n = " + std::to_string(n) + ")");
    }
  }
  mpz_class v;
  int i = 0;
  while (i < n) {
    unsigned long scale = 1;
    unsigned long chunk = 0;
    do {
      const auto r = static_cast<unsigned long>(factoradic::radix(i, n));
      if (scale > ULONG_MAX / r) break;
      scale *= r;
      chunk = chunk * r + static_cast<unsigned long>(digits[i]);
      ++i;
    } while (i < n);
    mpz_mul_ui(v.get_mpz_t(), v.get_mpz_t(), scale);
    mpz_add_ui(v.get_mpz_t(), v.get_mpz_t(), chunk);
  }
  return v;
}

// Repeated division by the radices 1, 2, ..., n-1 of digits n-1, ..., 1 (least significant
// first), several radices per division; what is left is floor(v / (n-1)!), the top digit,
// which must be below n, or exactly n with all other digits 0 (v == n!).
void from_mpz(const mpz_class& v, int n, int* digits) {
  require_length(n, "from_mpz");
  if (sgn(v) < 0) {
    throw std::out_of_range("from_mpz: value " + describe(v) +
                            " is negative (n = " + std::to_string(n) + ")");
  }
  mpz_class q = v;
  int i = n - 1;
  while (i > 0 && sgn(q) != 0) {
    unsigned long scale = 1;
    int lo = i;  // this step produces digits i, i-1, ..., lo+1
    while (lo > 0) {
      const auto r = static_cast<unsigned long>(factoradic::radix(lo, n));
      if (scale > ULONG_MAX / r) break;
      scale *= r;
      --lo;
    }
    unsigned long rem = mpz_fdiv_q_ui(q.get_mpz_t(), q.get_mpz_t(), scale);
    for (int t = i; t > lo; --t) {
      const auto r = static_cast<unsigned long>(factoradic::radix(t, n));
      digits[t] = static_cast<int>(rem % r);
      rem /= r;
    }
    i = lo;
  }
  for (; i > 0; --i) digits[i] = 0;  // q reached 0 early: the remaining digits are 0
  if (q > n || (q == n && !factoradic::is_zero(digits + 1, n - 1))) {
    throw std::out_of_range("from_mpz: value " + describe(v) + " is above " + std::to_string(n) +
                            "!");
  }
  digits[0] = static_cast<int>(q.get_si());
}

}  // namespace permbb
