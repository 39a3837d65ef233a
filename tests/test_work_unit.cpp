// Tests of Interval and WorkUnit: hand-worked cases, and random work units checked against
// a brute-force membership reference on the small universe [0, 5!).
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bitset>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "interval.hpp"
#include "work_unit.hpp"

namespace permbb {
namespace {

constexpr int kUniverse = 120;  // 5!
using Members = std::bitset<kUniverse>;

Interval iv(long begin, long end) {
  return Interval{mpz_class(begin), mpz_class(end)};
}

Members members_of(const WorkUnit& w) {
  Members m;
  for (const Interval& x : w.intervals()) {
    for (long v = x.begin.get_si(); v < x.end.get_si(); ++v) m.set(static_cast<std::size_t>(v));
  }
  return m;
}

// Checks the class invariant from the outside: sorted, disjoint, non-empty intervals and a
// size equal to the sum of their lengths (recomputed here).
void expect_well_formed(const WorkUnit& w) {
  mpz_class total = 0;
  for (std::size_t j = 0; j < w.interval_count(); ++j) {
    const Interval& x = w.intervals()[j];
    EXPECT_LT(x.begin, x.end) << w.to_string();
    if (j > 0) {
      EXPECT_LE(w.intervals()[j - 1].end, x.begin) << w.to_string();
    }
    total += x.end - x.begin;
  }
  EXPECT_EQ(w.size(), total) << w.to_string();
  EXPECT_EQ(w.empty(), w.interval_count() == 0);
}

// A random work unit inside [0, kUniverse): random cut points, a random subset of the
// segments between them (touching segments included), given to the constructor shuffled and
// with a few empty intervals mixed in.
WorkUnit random_unit(std::mt19937& rng, std::int64_t id) {
  std::vector<long> cuts{0, kUniverse};
  const int n_cuts = std::uniform_int_distribution<int>(0, 14)(rng);
  for (int c = 0; c < n_cuts; ++c)
    cuts.push_back(std::uniform_int_distribution<long>(0, kUniverse)(rng));
  std::sort(cuts.begin(), cuts.end());
  std::vector<Interval> parts;
  for (std::size_t j = 0; j + 1 < cuts.size(); ++j) {
    if (rng() % 3 != 0) parts.push_back(iv(cuts[j], cuts[j + 1]));  // may be empty
  }
  if (rng() % 4 == 0) parts.push_back(iv(50, 50));
  std::shuffle(parts.begin(), parts.end(), rng);
  return WorkUnit(id, parts);
}

TEST(Interval, LengthAndEmpty) {
  EXPECT_EQ(iv(3, 10).length(), 7);
  EXPECT_FALSE(iv(3, 10).empty());
  EXPECT_TRUE(iv(4, 4).empty());
  EXPECT_EQ(iv(4, 4).length(), 0);
  EXPECT_TRUE(iv(9, 2).empty());
  EXPECT_EQ(iv(9, 2).length(), 0);
}

TEST(Interval, IntersectCases) {
  EXPECT_EQ(intersect(iv(0, 10), iv(5, 20)), iv(5, 10));     // overlap
  EXPECT_EQ(intersect(iv(5, 20), iv(0, 10)), iv(5, 10));     // symmetric
  EXPECT_EQ(intersect(iv(0, 100), iv(20, 30)), iv(20, 30));  // nested
  EXPECT_EQ(intersect(iv(7, 9), iv(7, 9)), iv(7, 9));        // identical
  EXPECT_TRUE(intersect(iv(0, 5), iv(5, 9)).empty());        // touching: half-open
  EXPECT_TRUE(intersect(iv(0, 5), iv(6, 9)).empty());        // disjoint
  EXPECT_TRUE(intersect(iv(0, 5), iv(3, 3)).empty());        // with an empty one
  EXPECT_EQ(intersect(iv(0, 5), iv(4, 9)).length(), 1);
  // Big bounds, around 30! (weights far beyond 64 bits).
  mpz_class f30;
  mpz_fac_ui(f30.get_mpz_t(), 30);
  const Interval a{f30 / 3, f30}, b{mpz_class(0), f30 / 2};
  EXPECT_EQ(intersect(a, b), (Interval{f30 / 3, f30 / 2}));
}

TEST(Interval, ToString) {
  EXPECT_EQ(to_string(iv(3, 17)), "[3, 17[");
}

TEST(WorkUnit, ConstructorSortsAndDropsEmptyIntervals) {
  const WorkUnit w(7, {iv(16, 24), iv(3, 3), iv(0, 9), iv(9, 15), iv(30, 20)});
  EXPECT_EQ(w.id(), 7);
  ASSERT_EQ(w.interval_count(), 3u);
  EXPECT_EQ(w.intervals()[0], iv(0, 9));
  EXPECT_EQ(w.intervals()[1], iv(9, 15));  // touching intervals stay separate
  EXPECT_EQ(w.intervals()[2], iv(16, 24));
  EXPECT_EQ(w.size(), 9 + 6 + 8);
  EXPECT_FALSE(w.empty());
  EXPECT_EQ(w.to_string(), "#7 {[0, 9[, [9, 15[, [16, 24[}");
}

TEST(WorkUnit, DefaultAndEmptyUnits) {
  const WorkUnit w;
  EXPECT_EQ(w.id(), 0);
  EXPECT_TRUE(w.empty());
  EXPECT_EQ(w.size(), 0);
  const WorkUnit only_empty(3, {iv(5, 5), iv(8, 1)});
  EXPECT_TRUE(only_empty.empty());
  EXPECT_EQ(only_empty.interval_count(), 0u);
  EXPECT_EQ(only_empty.size(), 0);
}

TEST(WorkUnit, OverlappingIntervalsThrow) {
  EXPECT_THROW(WorkUnit(1, {iv(0, 10), iv(9, 12)}), std::invalid_argument);
  EXPECT_THROW(WorkUnit(1, {iv(20, 30), iv(0, 100)}), std::invalid_argument);
  EXPECT_THROW(WorkUnit(1, {iv(5, 6), iv(5, 6)}), std::invalid_argument);
  try {
    WorkUnit(42, {iv(0, 10), iv(9, 12)});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("#42"), std::string::npos) << what;
    EXPECT_NE(what.find("[0, 10["), std::string::npos) << what;
    EXPECT_NE(what.find("[9, 12["), std::string::npos) << what;
  }
}

TEST(WorkUnit, EqualityComparesIdAndIntervals) {
  EXPECT_EQ(WorkUnit(1, {iv(0, 5), iv(8, 9)}), WorkUnit(1, {iv(8, 9), iv(0, 5)}));
  EXPECT_NE(WorkUnit(1, {iv(0, 5)}), WorkUnit(2, {iv(0, 5)}));
  EXPECT_NE(WorkUnit(1, {iv(0, 5)}), WorkUnit(1, {iv(0, 6)}));
  EXPECT_NE(WorkUnit(1, {iv(0, 10)}), WorkUnit(1, {iv(0, 5), iv(5, 10)}));
}

TEST(WorkUnit, IntersectOneIntervalMeetingSeveral) {
  // [0, 100[ meets three intervals of b; b's [90, 120[ sticks out to the right.
  const WorkUnit a(1, {iv(0, 100)});
  const WorkUnit b(2, {iv(10, 20), iv(30, 40), iv(50, 60), iv(90, 120)});
  const WorkUnit expected(1, {iv(10, 20), iv(30, 40), iv(50, 60), iv(90, 100)});
  EXPECT_EQ(intersect(a, b), expected);
  EXPECT_EQ(intersect(b, a), WorkUnit(2, expected.intervals()));
  // Touching intervals in b cut a's interval in two.
  EXPECT_EQ(intersect(WorkUnit(3, {iv(0, 10)}), WorkUnit(4, {iv(0, 5), iv(5, 10)})),
            WorkUnit(3, {iv(0, 5), iv(5, 10)}));
  // Hand case: {[0,9[, [9,15[, [16,24[} ∩ {[4,12[, [14,20[} = {[4,9[, [9,12[, [14,15[, [16,20[}.
  const WorkUnit c(5, {iv(0, 9), iv(9, 15), iv(16, 24)});
  const WorkUnit d(6, {iv(4, 12), iv(14, 20)});
  const WorkUnit cd = intersect(c, d);
  EXPECT_EQ(cd, WorkUnit(5, {iv(4, 9), iv(9, 12), iv(14, 15), iv(16, 20)}));
  EXPECT_EQ(cd.size(), 5 + 3 + 1 + 4);
}

TEST(WorkUnit, IntersectWithItselfIsIdentity) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    const WorkUnit w = random_unit(rng, trial);
    EXPECT_EQ(intersect(w, w), w);
  }
}

TEST(WorkUnit, IntersectOfDisjointUnitsIsEmpty) {
  const WorkUnit a(1, {iv(0, 10), iv(20, 30), iv(40, 50)});
  const WorkUnit b(2, {iv(10, 20), iv(30, 40), iv(50, 120)});
  const WorkUnit ab = intersect(a, b);
  EXPECT_TRUE(ab.empty());
  EXPECT_EQ(ab.size(), 0);
  EXPECT_EQ(ab.id(), 1);
  EXPECT_TRUE(intersect(a, WorkUnit()).empty());
  EXPECT_TRUE(intersect(WorkUnit(), a).empty());
}

TEST(WorkUnit, IntersectMatchesBruteForce) {
  std::mt19937 rng(2022);
  for (int trial = 0; trial < 2000; ++trial) {
    const WorkUnit a = random_unit(rng, 100 + trial);
    const WorkUnit b = random_unit(rng, -trial);
    const WorkUnit ab = intersect(a, b);
    expect_well_formed(ab);
    ASSERT_EQ(members_of(ab), members_of(a) & members_of(b))
        << a.to_string() << " ∩ " << b.to_string() << " = " << ab.to_string();
    EXPECT_EQ(ab.id(), a.id());
    EXPECT_EQ(ab.size(), static_cast<long>((members_of(a) & members_of(b)).count()));
    // Each result interval lies inside one interval of a and one of b.
    for (const Interval& x : ab.intervals()) {
      for (const WorkUnit* w : {&a, &b}) {
        EXPECT_TRUE(std::any_of(w->intervals().begin(), w->intervals().end(),
                                [&](const Interval& y) { return intersect(x, y) == x; }))
            << to_string(x) << " in " << w->to_string();
      }
    }
  }
}

// §4.1.3 worked by hand: mid = floor((a + b) / 2), on the K_new largest intervals.
//   {[0, 9[, [9, 15[, [16, 24[}, K_new = 2: the lengths 9 and 8, mids 4 and 20.
//   new unit {[4, 9[, [20, 24[}, victim {[0, 4[, [9, 15[, [16, 20[}.
TEST(WorkUnit, SplitHandWorked) {
  WorkUnit victim(1, {iv(0, 9), iv(9, 15), iv(16, 24)});
  const WorkUnit stolen = victim.split(2, 9);
  EXPECT_EQ(stolen, WorkUnit(9, {iv(4, 9), iv(20, 24)}));
  EXPECT_EQ(victim, WorkUnit(1, {iv(0, 4), iv(9, 15), iv(16, 20)}));
  EXPECT_EQ(stolen.size(), 5 + 4);
  EXPECT_EQ(victim.size(), 4 + 6 + 4);
  // Of equal lengths, the first: {[0, 4[, [10, 14[, [20, 24[}, K_new = 2.
  WorkUnit tie(1, {iv(0, 4), iv(10, 14), iv(20, 24)});
  EXPECT_EQ(tie.split(2, 3), WorkUnit(3, {iv(2, 4), iv(12, 14)}));
  EXPECT_EQ(tie, WorkUnit(1, {iv(0, 2), iv(10, 12), iv(20, 24)}));
}

// A length-1 interval [a, a+1[ has mid = a: its left half is empty, so it moves whole.
TEST(WorkUnit, SplitMovesLengthOneIntervalsWhole) {
  WorkUnit victim(1, {iv(3, 4), iv(10, 20)});
  WorkUnit stolen = victim.split(2, 2);
  EXPECT_EQ(stolen, WorkUnit(2, {iv(3, 4), iv(15, 20)}));
  EXPECT_EQ(victim, WorkUnit(1, {iv(10, 15)}));

  WorkUnit victim2(1, {iv(3, 4), iv(10, 20), iv(30, 31)});
  stolen = victim2.split(5, 2);  // K_new = min(5, 3) = 3
  EXPECT_EQ(stolen, WorkUnit(2, {iv(3, 4), iv(15, 20), iv(30, 31)}));
  EXPECT_EQ(victim2, WorkUnit(1, {iv(10, 15)}));
  EXPECT_EQ(victim2.size(), 5);
  EXPECT_EQ(stolen.size(), 1 + 5 + 1);

  // A length-2 interval splits into two length-1 halves.
  WorkUnit victim3(1, {iv(6, 8)});
  EXPECT_EQ(victim3.split(1, 2), WorkUnit(2, {iv(7, 8)}));
  EXPECT_EQ(victim3, WorkUnit(1, {iv(6, 7)}));
}

TEST(WorkUnit, SplitEdgeCases) {
  WorkUnit victim(1, {iv(0, 10)});
  EXPECT_TRUE(victim.split(0, 2).empty());
  EXPECT_EQ(victim, WorkUnit(1, {iv(0, 10)}));
  EXPECT_THROW(victim.split(-1, 2), std::invalid_argument);
  WorkUnit nothing;
  const WorkUnit stolen = nothing.split(4, 5);
  EXPECT_TRUE(stolen.empty());
  EXPECT_EQ(stolen.id(), 5);
}

TEST(WorkUnit, SplitInvariantsOnRandomUnits) {
  std::mt19937 rng(4113);
  for (int trial = 0; trial < 2000; ++trial) {
    WorkUnit victim = random_unit(rng, 1);
    const WorkUnit original = victim;
    const int k = static_cast<int>(original.interval_count());
    const int k_new = std::uniform_int_distribution<int>(0, k + 3)(rng);
    const int expected_count = std::min(k_new, k);
    const WorkUnit stolen = victim.split(k_new, 77);
    expect_well_formed(victim);
    expect_well_formed(stolen);
    EXPECT_EQ(stolen.id(), 77);
    EXPECT_EQ(victim.id(), 1);
    ASSERT_EQ(stolen.interval_count(), static_cast<std::size_t>(expected_count))
        << original.to_string();
    const Members left = members_of(victim), right = members_of(stolen);
    EXPECT_TRUE((left & right).none()) << original.to_string();
    EXPECT_EQ(left | right, members_of(original)) << original.to_string();
    EXPECT_EQ(mpz_class(victim.size() + stolen.size()), original.size());
    // The K_new longest intervals (ties: the first) lost their right halves
    // [floor((a+b)/2), b[ to the stolen unit; the others are untouched.
    std::vector<int> order(k);
    for (int j = 0; j < k; ++j) order[j] = j;
    const auto length = [&](int j) { return original.intervals()[j].length().get_si(); };
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return length(a) > length(b); });
    std::vector<bool> halved(k, false);
    for (int j = 0; j < expected_count; ++j) halved[order[j]] = true;
    std::vector<Interval> expected_stolen;
    for (int j = 0; j < k; ++j) {
      const Interval& x = original.intervals()[j];
      if (halved[j]) {
        expected_stolen.push_back(iv((x.begin.get_si() + x.end.get_si()) / 2, x.end.get_si()));
      }
    }
    EXPECT_EQ(stolen.intervals(), expected_stolen) << original.to_string();
    const auto& kept = victim.intervals();
    for (int j = 0; j < k; ++j) {
      if (halved[j]) continue;
      EXPECT_NE(std::find(kept.begin(), kept.end(), original.intervals()[j]), kept.end());
    }
  }
}

// take() worked by hand: the part cuts the unit's intervals in the middle, at an edge, across
// two, twice within one, and holds points outside it; both keep exact sizes.
TEST(WorkUnit, TakeHandWorked) {
  WorkUnit a(4, {iv(0, 10), iv(20, 30), iv(30, 40), iv(50, 60)});
  const WorkUnit part(9, {iv(3, 5), iv(8, 22), iv(35, 45), iv(52, 53), iv(55, 58), iv(70, 80)});
  const WorkUnit taken = a.take(part, 11);
  EXPECT_EQ(taken, WorkUnit(11, {iv(3, 5), iv(8, 10), iv(20, 22), iv(35, 40), iv(52, 53),
                                 iv(55, 58)}));
  EXPECT_EQ(a, WorkUnit(4, {iv(0, 3), iv(5, 8), iv(22, 30), iv(30, 35), iv(50, 52), iv(53, 55),
                            iv(58, 60)}));
  EXPECT_EQ(taken.size(), 2 + 2 + 2 + 5 + 1 + 3);
  EXPECT_EQ(a.size(), 3 + 3 + 8 + 5 + 2 + 2 + 2);
  WorkUnit b(4, {iv(0, 10)});
  EXPECT_TRUE(b.take(WorkUnit(), 5).empty());
  EXPECT_TRUE(b.take(WorkUnit(1, {iv(10, 20)}), 5).empty());
  EXPECT_EQ(b, WorkUnit(4, {iv(0, 10)}));
  EXPECT_EQ(b.take(b, 5), WorkUnit(5, {iv(0, 10)}));
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.size(), 0);
}

TEST(WorkUnit, TakeMatchesSetOperationsOnRandomUnits) {
  std::mt19937 rng(8117);
  for (int trial = 0; trial < 2000; ++trial) {
    WorkUnit a = random_unit(rng, 5);
    const WorkUnit original = a;
    const WorkUnit part = random_unit(rng, 6);
    const WorkUnit taken = a.take(part, 7);
    expect_well_formed(a);
    expect_well_formed(taken);
    EXPECT_EQ(a.id(), 5);
    EXPECT_EQ(taken.id(), 7);
    ASSERT_EQ(members_of(taken), members_of(original) & members_of(part))
        << original.to_string() << " take " << part.to_string();
    ASSERT_EQ(members_of(a), members_of(original) & ~members_of(part))
        << original.to_string() << " take " << part.to_string();
  }
}

// The whole space of 800 jobs split repeatedly: exact sizes far beyond 64 bits.
TEST(WorkUnit, SplitLargeIntervalsKeepsSizesExact) {
  mpz_class end;
  mpz_fac_ui(end.get_mpz_t(), 800);
  WorkUnit victim(1, {Interval{mpz_class(0), end}});
  std::vector<WorkUnit> pieces;
  for (int round = 0; round < 20; ++round) {
    pieces.push_back(victim.split(1 + round % 3, 100 + round));
    expect_well_formed(victim);
  }
  mpz_class total = victim.size();
  for (const WorkUnit& p : pieces) total += p.size();
  EXPECT_EQ(total, end);
  // 20 halvings of [0, 800![: the victim keeps floor(800! / 2^20), the first piece the
  // larger half ceil(800! / 2), as 800! is even.
  mpz_class expected_left;
  mpz_fdiv_q_2exp(expected_left.get_mpz_t(), end.get_mpz_t(), 20);
  EXPECT_EQ(victim.size(), expected_left);
  EXPECT_EQ(mpz_class(pieces[0].size() * 2), end);
}

}  // namespace
}  // namespace permbb
