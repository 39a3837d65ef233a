// Tests of the factoradic digit arithmetic (factoradic.hpp) and of the conversions to and
// from GMP integers (factoradic_mpz.hpp). Expected values come from hand computation, from an
// independent odometer enumeration, or from GMP arithmetic on the converted values.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "factoradic.hpp"
#include "factoradic_mpz.hpp"

namespace permbb {
namespace {

using Digits = std::vector<int>;
namespace fd = factoradic;

const int kLengths[] = {2, 3, 5, 10, 20, 50, 100, 800};

Digits digits_of(const mpz_class& v, int n) {
  Digits d(n);
  from_mpz(v, n, d.data());
  return d;
}

mpz_class value_of(const Digits& d) {
  return to_mpz(d.data(), static_cast<int>(d.size()));
}

// n! as a plain product, independent of factorial().
mpz_class product_factorial(int n) {
  mpz_class f = 1;
  for (int k = 2; k <= n; ++k) f *= k;
  return f;
}

// Increments a digit array like an odometer whose wheel i has radix n - i; the top wheel
// is allowed to reach n, which gives the n! form after the last permutation.
void odometer_increment(Digits& d) {
  const int n = static_cast<int>(d.size());
  for (int i = n - 1; i > 0; --i) {
    if (++d[i] < n - i) return;
    d[i] = 0;
  }
  ++d[0];
}

// Independent: mpz_class(random) uniformly in [lo, hi].
mpz_class random_in(gmp_randclass& rng, const mpz_class& lo, const mpz_class& hi) {
  const mpz_class span = hi - lo + 1;
  const mpz_class offset = rng.get_z_range(span);
  return lo + offset;
}

TEST(Factoradic, FactorialMatchesProduct) {
  for (int n : {0, 1, 2, 5, 20, 100, 800, 1024, 1025, 1100}) {
    EXPECT_EQ(factorial(n), product_factorial(n)) << "n = " << n;
  }
  EXPECT_EQ(factorial(4), 24);
  EXPECT_THROW(factorial(-1), std::out_of_range);
}

// n = 4, weights 3! = 6, 2! = 2, 1! = 1, 0! = 1. Worked out by hand:
//   9 = 1*6 + 1*2 + 1*1 -> 1110;  8 = 1*6 + 1*2 -> 1100;  15 = 2*6 + 1*2 + 1 -> 2110;
//   16 = 2*6 + 2*2 -> 2200;       23 = 3*6 + 2*2 + 1 -> 3210 (the last permutation);
//   24 = 4! -> 4000 (the n! form).
// Figure 5 of Gmys et al. 2022 writes [0, 9[ as [0000, 1100[ but [9, 15[ as [1110, 2110[:
// the second is right, 1100 is 8, so the first should read [0000, 1110[. The figure also
// writes the end of the space 24 as 3210, which is 23 (the last element, not the end).
TEST(Factoradic, HandWorkedCasesForFour) {
  const struct {
    int value;
    Digits digits;
  } cases[] = {{0, {0, 0, 0, 0}},  {1, {0, 0, 1, 0}},  {2, {0, 1, 0, 0}},
               {8, {1, 1, 0, 0}},  {9, {1, 1, 1, 0}},  {15, {2, 1, 1, 0}},
               {16, {2, 2, 0, 0}}, {23, {3, 2, 1, 0}}, {24, {4, 0, 0, 0}}};
  for (const auto& c : cases) {
    EXPECT_EQ(digits_of(c.value, 4), c.digits) << "value " << c.value;
    EXPECT_EQ(value_of(c.digits), c.value) << "value " << c.value;
  }
}

TEST(Factoradic, LengthOne) {
  // 1! = 1: the only permutation is 0 = (0), the end of the space is 1 = (1).
  EXPECT_EQ(digits_of(0, 1), Digits{0});
  EXPECT_EQ(digits_of(1, 1), Digits{1});
  EXPECT_EQ(value_of(Digits{1}), 1);
  EXPECT_THROW(digits_of(2, 1), std::out_of_range);
}

// Every value 0 .. n! for small n against an odometer that counts through the digit arrays.
TEST(Factoradic, ConversionsMatchOdometerEnumeration) {
  for (int n : {2, 3, 4, 5, 6}) {
    Digits odometer(n, 0);
    const long total = product_factorial(n).get_si();
    for (long v = 0; v <= total; ++v) {
      ASSERT_EQ(digits_of(v, n), odometer) << "n = " << n << ", v = " << v;
      ASSERT_EQ(value_of(odometer), v) << "n = " << n;
      odometer_increment(odometer);
    }
  }
}

// Known digit arrays of the extreme values for large n: n!-1 is (n-1, ..., 1, 0) and n! is
// the overflowed form (n, 0, ..., 0).
TEST(Factoradic, ExtremeValues) {
  for (int n : {2, 3, 5, 10, 20, 50, 100, 800, 1100}) {
    const mpz_class end = product_factorial(n);
    Digits last(n);
    for (int i = 0; i < n; ++i) last[i] = n - 1 - i;
    Digits end_form(n, 0);
    end_form[0] = n;
    EXPECT_EQ(digits_of(end - 1, n), last) << "n = " << n;
    EXPECT_EQ(value_of(last), mpz_class(end - 1)) << "n = " << n;
    EXPECT_EQ(digits_of(end, n), end_form) << "n = " << n;
    EXPECT_EQ(value_of(end_form), end) << "n = " << n;
    EXPECT_EQ(digits_of(0, n), Digits(n, 0));
    EXPECT_EQ(value_of(Digits(n, 0)), 0);
    EXPECT_TRUE(fd::is_end_of_space(end_form.data(), n));
    EXPECT_FALSE(fd::is_end_of_space(last.data(), n));
    EXPECT_TRUE(fd::is_zero(Digits(n, 0).data(), n));
    EXPECT_FALSE(fd::is_zero(end_form.data(), n));
    Digits written(n, 7);
    fd::set_end_of_space(written.data(), n);
    EXPECT_EQ(written, end_form);
    fd::set_zero(written.data(), n);
    EXPECT_EQ(written, Digits(n, 0));
  }
}

TEST(Factoradic, OutOfRangeInputsThrow) {
  for (int n : {3, 20, 800}) {
    const mpz_class end = product_factorial(n);
    Digits d(n);
    EXPECT_THROW(from_mpz(end + 1, n, d.data()), std::out_of_range) << n;
    EXPECT_THROW(from_mpz(end * 5, n, d.data()), std::out_of_range) << n;
    EXPECT_THROW(from_mpz(mpz_class(-1), n, d.data()), std::out_of_range) << n;
    Digits too_big(n, 0);
    too_big[n - 1] = 1;  // the last digit has radix 1
    EXPECT_THROW(value_of(too_big), std::invalid_argument) << n;
    Digits negative(n, 0);
    negative[0] = -1;
    EXPECT_THROW(value_of(negative), std::invalid_argument) << n;
    Digits past_end(n, 0);
    past_end[0] = n;
    past_end[n - 2] = 1;  // n! + 1 written with an overflowed top digit
    EXPECT_THROW(value_of(past_end), std::invalid_argument) << n;
  }
  Digits d(1);
  EXPECT_THROW(from_mpz(0, 0, d.data()), std::invalid_argument);
}

TEST(Factoradic, RandomRoundTrips) {
  gmp_randclass rng(gmp_randinit_default);
  rng.seed(20220401);
  for (int n : {1, 2, 3, 5, 10, 20, 50, 100, 333, 800}) {
    const mpz_class end = product_factorial(n);
    for (int trial = 0; trial < 200; ++trial) {
      const mpz_class v = random_in(rng, 0, end);
      const Digits d = digits_of(v, n);
      for (int i = 1; i < n; ++i) ASSERT_TRUE(d[i] >= 0 && d[i] < n - i) << n;
      ASSERT_TRUE(d[0] >= 0 && d[0] <= n);
      ASSERT_EQ(value_of(d), v) << "n = " << n;
    }
  }
}

// Hand-worked arithmetic for n = 4 (weights 6, 2, 1, 1).
TEST(Factoradic, HandWorkedArithmeticForFour) {
  Digits out(4);
  // 9 + 6 = 15: 1110 + 1000 = 2110.
  fd::add(Digits{1, 1, 1, 0}.data(), Digits{1, 0, 0, 0}.data(), out.data(), 4);
  EXPECT_EQ(out, (Digits{2, 1, 1, 0}));
  // 23 + 1 = 24: 3210 + 0010 carries through every wheel into 4000.
  fd::add(Digits{3, 2, 1, 0}.data(), Digits{0, 0, 1, 0}.data(), out.data(), 4);
  EXPECT_EQ(out, (Digits{4, 0, 0, 0}));
  // 24 - 1 = 23: 4000 - 0010 = 3210.
  fd::subtract(Digits{4, 0, 0, 0}.data(), Digits{0, 0, 1, 0}.data(), out.data(), 4);
  EXPECT_EQ(out, (Digits{3, 2, 1, 0}));
  // 23 / 5 = 4 rem 3, 4 = 0200.
  EXPECT_EQ(fd::divide_by(Digits{3, 2, 1, 0}.data(), 5, out.data(), 4), 3);
  EXPECT_EQ(out, (Digits{0, 2, 0, 0}));
  // midpoint(0, 24) = 12 = 2000; split_point(0, 24, 3) = 8 = 1100.
  fd::midpoint(Digits{0, 0, 0, 0}.data(), Digits{4, 0, 0, 0}.data(), out.data(), 4);
  EXPECT_EQ(out, (Digits{2, 0, 0, 0}));
  fd::split_point(Digits{0, 0, 0, 0}.data(), Digits{4, 0, 0, 0}.data(), 3, out.data(), 4);
  EXPECT_EQ(out, (Digits{1, 1, 0, 0}));
  // split_point(9, 15, 4) = 9 + 1 = 10 = 1200.
  fd::split_point(Digits{1, 1, 1, 0}.data(), Digits{2, 1, 1, 0}.data(), 4, out.data(), 4);
  EXPECT_EQ(out, (Digits{1, 2, 0, 0}));
  // 9 < 15 < 24, and 23 < 24 (the n! form compares above every permutation).
  EXPECT_EQ(fd::compare(Digits{1, 1, 1, 0}.data(), Digits{2, 1, 1, 0}.data(), 4), -1);
  EXPECT_EQ(fd::compare(Digits{4, 0, 0, 0}.data(), Digits{3, 2, 1, 0}.data(), 4), 1);
  EXPECT_EQ(fd::compare(Digits{2, 1, 1, 0}.data(), Digits{2, 1, 1, 0}.data(), 4), 0);
}

// Random operands for the digit arithmetic, with the expected results from GMP.
class FactoradicArithmetic : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    n_ = GetParam();
    end_ = product_factorial(n_);
    rng_.seed(4242 + n_);
  }
  // A random value in [0, n!], with extra weight on 0, n!-1 and n!.
  mpz_class pick() {
    const unsigned long k = mpz_class(rng_.get_z_range(20)).get_ui();
    if (k == 0) return 0;
    if (k == 1) return end_ - 1;
    if (k == 2) return end_;
    return random_in(rng_, 0, end_);
  }
  int n_ = 0;
  mpz_class end_;
  gmp_randclass rng_{gmp_randinit_default};
};

TEST_P(FactoradicArithmetic, AddAndSubtractMatchGmp) {
  for (int trial = 0; trial < 300; ++trial) {
    const mpz_class a = pick();
    const mpz_class b = random_in(rng_, 0, end_ - a);  // a + b <= n!
    Digits da = digits_of(a, n_), db = digits_of(b, n_), out(n_);
    fd::add(da.data(), db.data(), out.data(), n_);
    ASSERT_EQ(value_of(out), mpz_class(a + b)) << a << " + " << b;
    fd::add(da.data(), db.data(), da.data(), n_);  // out aliases a
    ASSERT_EQ(da, out);
    da = digits_of(a, n_);
    fd::add(da.data(), db.data(), db.data(), n_);  // out aliases b
    ASSERT_EQ(db, out);

    const mpz_class hi = pick();
    const mpz_class lo = random_in(rng_, 0, hi);
    Digits dhi = digits_of(hi, n_), dlo = digits_of(lo, n_);
    fd::subtract(dhi.data(), dlo.data(), out.data(), n_);
    ASSERT_EQ(value_of(out), mpz_class(hi - lo)) << hi << " - " << lo;
    fd::subtract(dhi.data(), dlo.data(), dlo.data(), n_);  // out aliases b
    ASSERT_EQ(dlo, out);
    fd::subtract(dhi.data(), dhi.data(), dhi.data(), n_);  // x - x
    ASSERT_TRUE(fd::is_zero(dhi.data(), n_));
  }
}

TEST_P(FactoradicArithmetic, DivisionMatchesGmp) {
  const long long divisors[] = {1, 2, 3, 7, 16384, 1000000007LL, 1LL << 50};
  for (int trial = 0; trial < 100; ++trial) {
    const mpz_class a = pick();
    for (long long divisor : divisors) {
      const mpz_class big_divisor = mpz_class(std::to_string(divisor));
      mpz_class q, r;
      mpz_fdiv_qr(q.get_mpz_t(), r.get_mpz_t(), a.get_mpz_t(), big_divisor.get_mpz_t());
      Digits da = digits_of(a, n_), out(n_);
      const long long rem = fd::divide_by(da.data(), divisor, out.data(), n_);
      ASSERT_EQ(value_of(out), q) << a << " / " << divisor;
      ASSERT_EQ(mpz_class(std::to_string(rem)), r) << a << " % " << divisor;
      ASSERT_EQ(fd::divide_by(da.data(), divisor, da.data(), n_), rem);  // out aliases a
      ASSERT_EQ(da, out);
    }
    Digits da = digits_of(a, n_), out(n_);
    fd::halve(da.data(), out.data(), n_);
    mpz_class half;
    mpz_fdiv_q_2exp(half.get_mpz_t(), a.get_mpz_t(), 1);
    ASSERT_EQ(value_of(out), half) << a;
  }
}

TEST_P(FactoradicArithmetic, MidpointAndSplitPointMatchGmp) {
  for (int trial = 0; trial < 200; ++trial) {
    mpz_class a = pick(), b = pick();
    if (a > b) std::swap(a, b);
    if (trial == 0) a = 0, b = end_;  // the whole space
    if (trial == 1) a = b;            // an empty interval
    const Digits da = digits_of(a, n_);
    Digits out(n_);
    fd::midpoint(da.data(), digits_of(b, n_).data(), out.data(), n_);
    mpz_class expected = b - a;
    mpz_fdiv_q_2exp(expected.get_mpz_t(), expected.get_mpz_t(), 1);
    expected += a;
    ASSERT_EQ(value_of(out), expected) << "midpoint(" << a << ", " << b << ")";
    Digits db = digits_of(b, n_);
    fd::midpoint(da.data(), db.data(), db.data(), n_);  // out aliases b
    ASSERT_EQ(db, out);
    for (long long T : {1LL, 2LL, 3LL, 7LL, 16384LL}) {
      db = digits_of(b, n_);
      fd::split_point(da.data(), db.data(), T, out.data(), n_);
      const mpz_class span = b - a;
      mpz_class step;
      mpz_fdiv_q_ui(step.get_mpz_t(), span.get_mpz_t(), static_cast<unsigned long>(T));
      ASSERT_EQ(value_of(out), mpz_class(a + step))
          << "split_point(" << a << ", " << b << ", " << T << ")";
      fd::split_point(da.data(), db.data(), T, db.data(), n_);  // out aliases b
      ASSERT_EQ(db, out);
    }
  }
}

TEST_P(FactoradicArithmetic, CompareMatchesGmp) {
  Digits end_form(n_, 0);
  fd::set_end_of_space(end_form.data(), n_);
  for (int trial = 0; trial < 300; ++trial) {
    const mpz_class a = pick();
    const mpz_class b = trial % 10 == 0 ? a : pick();
    const Digits da = digits_of(a, n_), db = digits_of(b, n_);
    const int expected = a < b ? -1 : (a > b ? 1 : 0);
    ASSERT_EQ(fd::compare(da.data(), db.data(), n_), expected) << a << " vs " << b;
    ASSERT_EQ(fd::compare(db.data(), da.data(), n_), -expected);
    ASSERT_EQ(fd::compare(da.data(), end_form.data(), n_), a == end_ ? 0 : -1) << a;
    ASSERT_EQ(fd::is_end_of_space(da.data(), n_), a == end_);
    ASSERT_EQ(fd::is_zero(da.data(), n_), a == 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Lengths, FactoradicArithmetic, ::testing::ValuesIn(kLengths));

}  // namespace
}  // namespace permbb
