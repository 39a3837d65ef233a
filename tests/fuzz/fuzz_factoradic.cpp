// Fuzz target: interval bounds between factoradic digits and GMP integers
// (common/factoradic_mpz.hpp, factoradic.hpp), intervals and work units (interval.hpp,
// work_unit.hpp). The input picks n and then a sequence of operations, each checked against
// plain GMP arithmetic written here:
//   - digits -> to_mpz -> from_mpz: the value of the digits, and the same digits back;
//   - any ints -> to_mpz: the value, or std::invalid_argument exactly when a digit is out of
//     range (the n! form aside);
//   - any integer -> from_mpz: digits in range that convert back, or std::out_of_range
//     exactly when the value leaves [0, n!];
//   - the digit arithmetic of interval cuts (compare, add, subtract, divide_by, midpoint,
//     split_point) against the same operations on integers;
//   - work units built from fuzzed intervals: sorted, disjoint, inside [0, n!]; split and
//     intersect keep every point exactly once.
#include <fuzzer/FuzzedDataProvider.h>
#include <gmpxx.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "factoradic.hpp"
#include "factoradic_mpz.hpp"
#include "fuzz_support.hpp"
#include "interval.hpp"
#include "interval_checks.hpp"
#include "work_unit.hpp"

namespace permbb::fuzz {
namespace {

namespace fd = factoradic;
using Digits = std::vector<int>;

// The space [0, n!] of one input, with the weights (n-1-i)! of the digits, computed here.
struct Space {
  int n;
  mpz_class end;                  // n!
  std::vector<mpz_class> weight;  // weight[i] = (n-1-i)!

  explicit Space(int jobs) : n(jobs), weight(jobs) {
    mpz_class w = 1;
    for (int i = n - 1; i >= 0; --i) {
      weight[i] = w;
      w *= n - i;
    }
    end = w;
  }

  bool is_end_form(const Digits& d) const {
    return d[0] == n && std::all_of(d.begin() + 1, d.end(), [](int x) { return x == 0; });
  }

  // Every digit in its range, or the n! form.
  bool valid(const Digits& d) const {
    if (is_end_form(d)) return true;
    for (int i = 0; i < n; ++i) {
      if (d[i] < 0 || d[i] >= n - i) return false;
    }
    return true;
  }

  mpz_class value(const Digits& d) const {
    if (is_end_form(d)) return end;
    mpz_class v = 0;
    for (int i = 0; i < n; ++i) v += weight[i] * d[i];
    return v;
  }
};

// --------------------------------------------------------------------- fuzzed values

// An integer in [0, limit]: near either end (where the edge cases are) or anywhere.
mpz_class bound_in(FuzzedDataProvider& in, const mpz_class& limit) {
  const auto small = mpz_class(in.ConsumeIntegralInRange<unsigned long>(0, 1000));
  switch (in.ConsumeIntegralInRange(0, 2)) {
    case 0:
      return small <= limit ? small : limit;
    case 1:
      return small <= limit ? mpz_class(limit - small) : mpz_class(0);
    default: {
      const std::vector<std::uint8_t> bytes =
          in.ConsumeBytes<std::uint8_t>(mpz_sizeinbase(limit.get_mpz_t(), 256) + 1);
      mpz_class v = 0;
      if (!bytes.empty()) mpz_import(v.get_mpz_t(), bytes.size(), -1, 1, 0, 0, bytes.data());
      return v % (limit + 1);
    }
  }
}

// Any integer of up to a few bits more than n!, of either sign.
mpz_class any_integer(FuzzedDataProvider& in, const Space& space) {
  const bool negative = in.ConsumeBool();
  mpz_class v = in.ConsumeBool() ? bound_in(in, space.end) : bound_in(in, space.end * 4);
  if (in.ConsumeBool()) v += space.end;  // just above n!, often
  return negative ? mpz_class(-v) : v;
}

Digits digits_in_range(FuzzedDataProvider& in, const Space& space) {
  Digits d(space.n);
  for (int i = 0; i < space.n; ++i) d[i] = in.ConsumeIntegralInRange(0, space.n - 1 - i);
  return d;
}

Digits digits_of(const Space& space, const mpz_class& v) {
  Digits d(space.n);
  check_no_exception([&] { from_mpz(v, space.n, d.data()); }, "from_mpz refused a value in range");
  return d;
}

// ------------------------------------------------------------------- the conversions

void check_digits_round_trip(FuzzedDataProvider& in, const Space& space) {
  Digits d = digits_in_range(in, space);
  if (in.ConsumeBool()) fd::set_end_of_space(d.data(), space.n);
  mpz_class v;
  check_no_exception([&] { v = to_mpz(d.data(), space.n); }, "to_mpz refused digits in range");
  check(v == space.value(d), "to_mpz gives another value than the digit weights");
  check(digits_of(space, v) == d, "from_mpz(to_mpz(d)) is not d");
}

void check_any_digits(FuzzedDataProvider& in, const Space& space) {
  Digits d(space.n);
  for (int& x : d) {
    x = in.ConsumeBool() ? in.ConsumeIntegral<int>() : in.ConsumeIntegralInRange(-1, space.n);
  }
  const bool valid = space.valid(d);
  const auto v = decode_or_refuse<std::invalid_argument>([&] { return to_mpz(d.data(), space.n); },
                                                         [](std::string_view) {});
  check(v.has_value() == valid, "to_mpz accepts out-of-range digits or refuses valid ones");
  if (v) check(*v == space.value(d), "to_mpz gives another value than the digit weights");
}

void check_any_integer(FuzzedDataProvider& in, const Space& space) {
  const mpz_class v = any_integer(in, space);
  Digits d(space.n);
  const auto done = decode_or_refuse<std::out_of_range>(
      [&] {
        from_mpz(v, space.n, d.data());
        return true;
      },
      [](std::string_view) {});
  check(done.has_value() == (sgn(v) >= 0 && v <= space.end),
        "from_mpz accepts a value outside [0, n!] or refuses one inside");
  if (!done) return;
  check(space.valid(d), "from_mpz wrote a digit out of range");
  check(space.value(d) == v, "from_mpz wrote digits of another value");
}

// --------------------------------------------------------- the digit arithmetic of cuts

void check_arithmetic(FuzzedDataProvider& in, const Space& space) {
  const int n = space.n;
  mpz_class a = bound_in(in, space.end);
  mpz_class b = bound_in(in, space.end);
  if (a > b) swap(a, b);
  const Digits da = digits_of(space, a);
  const Digits db = digits_of(space, b);
  Digits out(n);

  const int order = a < b ? -1 : (a == b ? 0 : 1);
  check(fd::compare(da.data(), db.data(), n) == order, "compare disagrees with the values");
  fd::subtract(db.data(), da.data(), out.data(), n);
  check(space.value(out) == b - a, "subtract is not b - a");
  const Digits gap = out;
  fd::add(da.data(), gap.data(), out.data(), n);
  check(out == db, "add(a, b - a) is not b");
  fd::midpoint(da.data(), db.data(), out.data(), n);
  check(space.valid(out), "midpoint wrote a digit out of range");
  check(space.value(out) == (a + b) / 2, "midpoint is not floor((a + b) / 2)");
  // divide_by carries remainder * radix in a long long (a long here): T * n must fit.
  const long t = in.ConsumeIntegralInRange<long>(1, LONG_MAX / (n + 1));
  fd::split_point(da.data(), db.data(), t, out.data(), n);
  check(space.valid(out), "split_point wrote a digit out of range");
  check(space.value(out) == a + (b - a) / t, "split_point is not a + floor((b - a) / T)");
  const long rem = fd::divide_by(db.data(), t, out.data(), n);
  check(space.valid(out), "divide_by wrote a digit out of range");
  check(space.value(out) == b / t && b % t == rem,
        "divide_by is not floor(b / T) with remainder b mod T");
}

// ------------------------------------------------------------------------ work units

std::vector<Interval> fuzzed_intervals(FuzzedDataProvider& in, const Space& space) {
  std::vector<Interval> intervals(in.ConsumeIntegralInRange(0, 12));
  for (Interval& x : intervals) {
    x.begin = bound_in(in, space.end);
    x.end = in.ConsumeBool() ? mpz_class(x.begin + in.ConsumeIntegralInRange(0, 3))
                             : bound_in(in, space.end);
    if (x.end > space.end) x.end = space.end;
  }
  return intervals;
}

bool overlap(const Interval& x, const Interval& y) {
  return !x.empty() && !y.empty() && x.begin < y.end && y.begin < x.end;
}

// Whether every point of `part` is in `whole`, interval by interval.
bool covered(const std::vector<Interval>& part, const std::vector<Interval>& whole) {
  return std::all_of(part.begin(), part.end(), [&](const Interval& x) {
    return std::any_of(whole.begin(), whole.end(),
                       [&](const Interval& y) { return y.begin <= x.begin && x.end <= y.end; });
  });
}

// The size of the intersection of two interval lists, pair by pair.
mpz_class meet_size(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  mpz_class total = 0;
  for (const Interval& x : a) {
    for (const Interval& y : b) total += intersect(x, y).length();
  }
  return total;
}

void check_unit(const WorkUnit& unit, const Space& space, const char* what) {
  check_sorted_disjoint(unit.intervals(), what);
  check_inside(unit.intervals(), space.end, what);
  check(unit.size() == summed_lengths(unit.intervals()), what);
}

// WorkUnit(id, intervals): the non-empty intervals, sorted, or a refusal exactly when two
// overlap.
std::optional<WorkUnit> build_unit(FuzzedDataProvider& in, const Space& space, std::int64_t id) {
  const std::vector<Interval> intervals = fuzzed_intervals(in, space);
  bool overlapping = false;
  for (std::size_t i = 0; i < intervals.size(); ++i) {
    for (std::size_t j = i + 1; j < intervals.size(); ++j) {
      overlapping = overlapping || overlap(intervals[i], intervals[j]);
    }
  }
  auto unit = decode_or_refuse<std::invalid_argument>([&] { return WorkUnit(id, intervals); },
                                                      [](std::string_view) {});
  check(unit.has_value() == !overlapping,
        "WorkUnit refuses disjoint intervals or accepts overlaps");
  if (!unit) return unit;
  check_unit(*unit, space, "a built unit is not sorted, disjoint and inside [0, n!]");
  std::vector<Interval> kept;
  for (const Interval& x : intervals) {
    if (!x.empty()) kept.push_back(x);
  }
  check(kept.size() == unit->interval_count() && covered(kept, unit->intervals()) &&
            covered(unit->intervals(), kept),
        "a built unit does not hold the non-empty intervals it was given");
  return unit;
}

void check_split(FuzzedDataProvider& in, const Space& space, const WorkUnit& unit) {
  const int k = in.ConsumeIntegralInRange(-2, 14);
  WorkUnit left = unit;
  const auto right = decode_or_refuse<std::invalid_argument>([&] { return left.split(k, 99); },
                                                             [](std::string_view) {});
  check(right.has_value() == (k >= 0), "split refuses a count >= 0 or accepts a negative one");
  if (!right) return;
  check_unit(left, space, "the kept part of a split is not a sorted disjoint unit");
  check_unit(*right, space, "the split-off part is not a sorted disjoint unit");
  check(right->interval_count() == std::min<std::size_t>(k, unit.interval_count()),
        "the split-off part does not have min(k, K) intervals");
  check(left.size() + right->size() == unit.size(), "a split loses or adds points");
  check(
      covered(left.intervals(), unit.intervals()) && covered(right->intervals(), unit.intervals()),
      "a split gives points that were not in the unit");
  check(sgn(meet_size(left.intervals(), right->intervals())) == 0,
        "both parts of a split hold the same point");
}

void check_intersect(const Space& space, const WorkUnit& a, const WorkUnit& b) {
  const WorkUnit both = intersect(a, b);
  check_unit(both, space, "an intersection is not a sorted disjoint unit");
  check(both.id() == a.id(), "an intersection does not keep the first unit's id");
  check(both.size() == meet_size(a.intervals(), b.intervals()),
        "an intersection's size is not that of the pairwise intersections");
  check(covered(both.intervals(), a.intervals()) && covered(both.intervals(), b.intervals()),
        "an intersection holds points outside one of the units");
  check(intersect(a, a) == a, "intersect(w, w) is not w");
}

void check_work_units(FuzzedDataProvider& in, const Space& space) {
  const auto a = build_unit(in, space, 1);
  const auto b = build_unit(in, space, 2);
  if (a) check_split(in, space, *a);
  if (a && b) check_intersect(space, *a, *b);
}

}  // namespace
}  // namespace permbb::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace permbb::fuzz;
  FuzzedDataProvider in(data, size);
  // Mostly small n, where every digit matters; up to past the factorial table (1025).
  const int n =
      in.ConsumeBool() ? in.ConsumeIntegralInRange(1, 24) : in.ConsumeIntegralInRange(1, 1100);
  const Space space(n);
  check(permbb::factorial(n) == space.end, "factorial(n) is not the product 1 * 2 * ... * n");
  for (int step = 0; step < 8 && in.remaining_bytes() > 0; ++step) {
    switch (in.ConsumeIntegralInRange(0, 4)) {
      case 0:
        check_digits_round_trip(in, space);
        break;
      case 1:
        check_any_digits(in, space);
        break;
      case 2:
        check_any_integer(in, space);
        break;
      case 3:
        check_arithmetic(in, space);
        break;
      default:
        check_work_units(in, space);
        break;
    }
  }
  return 0;
}
