// The instance generator: every class's definition checked on the numbers it draws (the
// formulas of knapsack_generator.hpp, written again here), reproducibility, the portable
// uniform mapping (hand-computed with a scripted engine) and the spec parser.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "input_error.hpp"
#include "knapsack_generator.hpp"
#include "portable_random.hpp"

namespace permbb::knapsack {
namespace {

// An engine that returns the values it is given, in order.
struct ScriptedEngine {
  std::vector<std::uint64_t> values;
  std::size_t next = 0;
  std::uint64_t operator()() { return values.at(next++); }
};

TEST(KnapsackPortableRandom, MapsByModuloAndRejectsTheIncompleteLastBlock) {
  // range 3: 2^64 mod 3 = 1, so only 2^64 - 1 (the largest value) is rejected.
  ScriptedEngine engine{{~0ull, 7}};
  EXPECT_EQ(uniform_integer(engine, 10, 12), 10 + 7 % 3);
  EXPECT_EQ(engine.next, 2u);
  // 2^64 - 2 is accepted: (2^64 - 2) mod 3 = (1 - 2) mod 3 = 2.
  ScriptedEngine accepted{{~0ull - 1}};
  EXPECT_EQ(uniform_integer(accepted, 0, 2), 2);
  // A power-of-two range rejects nothing: 2^64 - 1 mod 8 = 7.
  ScriptedEngine power{{~0ull}};
  EXPECT_EQ(uniform_integer(power, 1, 8), 8);
  // A one-value range still takes one draw.
  ScriptedEngine single{{12345}};
  EXPECT_EQ(uniform_integer(single, 5, 5), 5);
}

TEST(KnapsackPortableRandom, TheEngineIsTheStandardMersenneTwister) {
  // The C++ standard ([rand.predef]): the 10000th output of a default-constructed
  // mt19937_64 is 9981545732273789042.
  std::mt19937_64 engine;
  engine.discard(9999);
  EXPECT_EQ(engine(), 9981545732273789042ull);
}

TEST(KnapsackPortableRandom, CoversTheWholeRange) {
  std::mt19937_64 engine(3);
  std::set<std::int64_t> seen;
  for (int k = 0; k < 2000; ++k) {
    const std::int64_t x = uniform_integer(engine, -3, 4);
    ASSERT_GE(x, -3);
    ASSERT_LE(x, 4);
    seen.insert(x);
  }
  EXPECT_EQ(seen.size(), 8u);
}

// Checks item i of `instance` against its class's definition, d = R / 10.
void expect_class_formula(InstanceClass c, std::int64_t range, std::int64_t p, std::int64_t w) {
  const std::int64_t d = range / 10;
  switch (c) {
    case InstanceClass::kUncorrelated:
      EXPECT_TRUE(1 <= w && w <= range && 1 <= p && p <= range) << p << " " << w;
      break;
    case InstanceClass::kWeaklyCorrelated:
      EXPECT_TRUE(1 <= w && w <= range) << w;
      EXPECT_TRUE(std::max<std::int64_t>(1, w - d) <= p && p <= w + d) << p << " " << w;
      break;
    case InstanceClass::kStronglyCorrelated:
      EXPECT_TRUE(1 <= w && w <= range && p == w + d) << p << " " << w;
      break;
    case InstanceClass::kInverseStronglyCorrelated:
      EXPECT_TRUE(1 <= p && p <= range && w == p + d) << p << " " << w;
      break;
    case InstanceClass::kSubsetSum:
      EXPECT_TRUE(1 <= w && w <= range && p == w) << p << " " << w;
      break;
    default:
      ADD_FAILURE() << "not a classic class";
  }
}

TEST(KnapsackGenerator, EveryClassFollowsItsDefinition) {
  for (const auto& name : instance_class_names()) {
    const InstanceClass c = parse_instance_class(name);
    for (const std::int64_t range : {1, 7, 10, 100, 1000, 1000000}) {
      const GeneratorSpec spec{c, 500, range, static_cast<std::uint64_t>(range) * 31 + 1};
      const KnapsackInstance instance = generate_instance(spec);
      SCOPED_TRACE(instance.name);
      ASSERT_EQ(instance.items(), 500);
      std::int64_t total = 0;
      for (int i = 0; i < instance.items(); ++i) {
        expect_class_formula(c, range, instance.profits[i], instance.weights[i]);
        total += instance.weights[i];
      }
      EXPECT_EQ(instance.capacity, total / 2);
    }
  }
}

// Pisinger's 2005 classes, their formulas written again here (knapsack_generator.hpp).
void expect_hard_class_formula(InstanceClass c, std::int64_t range, std::int64_t p,
                               std::int64_t w) {
  const std::int64_t d = range / 10;
  EXPECT_TRUE(1 <= w && w <= range) << w;
  switch (c) {
    case InstanceClass::kAlmostStronglyCorrelated:
      EXPECT_TRUE(std::max<std::int64_t>(1, w + d - range / 500) <= p &&
                  p <= w + d + range / 500)
          << p << " " << w;
      break;
    case InstanceClass::kMultipleStronglyCorrelated:
      EXPECT_EQ(p, w + (w % 6 == 0 ? 3 * range / 10 : 2 * range / 10)) << w;
      break;
    case InstanceClass::kProfitCeiling:
      EXPECT_TRUE(p % 3 == 0 && p >= w && p - w < 3) << p << " " << w;
      break;
    case InstanceClass::kCircle: {
      // p = floor(2 s / 3), s = floor(sqrt(w (4R - w))): s^2 <= w (4R - w) < (s + 1)^2.
      const std::int64_t s = std::max<std::int64_t>((3 * p) / 2, 1);
      const auto arc = static_cast<__int128>(w) * (4 * static_cast<__int128>(range) - w);
      bool found = false;
      for (std::int64_t root = std::max<std::int64_t>(s - 2, 0); root <= s + 2; ++root) {
        if (static_cast<__int128>(root) * root <= arc && arc < static_cast<__int128>(root + 1) * (root + 1)) {
          EXPECT_EQ(p, std::max<std::int64_t>(1, 2 * root / 3)) << w;
          found = true;
        }
      }
      EXPECT_TRUE(found) << p << " " << w;
      break;
    }
    default:
      ADD_FAILURE() << "not a class of independent items";
  }
}

TEST(KnapsackGenerator, EveryHardClassFollowsItsDefinition) {
  for (const InstanceClass c :
       {InstanceClass::kAlmostStronglyCorrelated, InstanceClass::kMultipleStronglyCorrelated,
        InstanceClass::kProfitCeiling, InstanceClass::kCircle}) {
    for (const std::int64_t range :
         std::vector<std::int64_t>{1, 7, 10, 1000, 1000000, std::int64_t{1} << 60}) {
      const int items = range > 1000000 ? 3 : 500;  // 3 weights near 2^60 stay below 2^63
      const KnapsackInstance instance = generate_instance({c, items, range, 5});
      SCOPED_TRACE(instance.name);
      for (int i = 0; i < instance.items(); ++i) {
        expect_hard_class_formula(c, range, instance.profits[i], instance.weights[i]);
      }
    }
  }
  // Both ends of the almost strongly correlated spread show up (R = 5000: e = 10).
  const auto almost =
      generate_instance({InstanceClass::kAlmostStronglyCorrelated, 2000, 5000, 3});
  std::set<std::int64_t> offsets;
  for (int i = 0; i < almost.items(); ++i) offsets.insert(almost.profits[i] - almost.weights[i]);
  EXPECT_EQ(*offsets.begin(), 500 - 10);
  EXPECT_EQ(*offsets.rbegin(), 500 + 10);
  // The circle's arc by hand, R = 100: w = 1 gives floor(sqrt(1 * 399)) = 19, so 12; w = 100
  // gives floor(sqrt(100 * 300)) = 173, so 115.
  const auto circle = generate_instance({InstanceClass::kCircle, 2000, 100, 1});
  int ends = 0;
  for (int i = 0; i < circle.items(); ++i) {
    if (circle.weights[i] == 1) {
      EXPECT_EQ(circle.profits[i], 12);
      ends |= 1;
    } else if (circle.weights[i] == 100) {
      EXPECT_EQ(circle.profits[i], 115);
      ends |= 2;
    }
  }
  EXPECT_EQ(ends, 3);
}

TEST(KnapsackGenerator, SpannerItemsAreMultiplesOfTwoDrawnItems) {
  // The draws written again: two items of the distribution divided by 11, then (k, a) per item.
  for (const auto& [c, base] :
       {std::pair{InstanceClass::kUncorrelatedSpanner, InstanceClass::kUncorrelated},
        std::pair{InstanceClass::kWeaklyCorrelatedSpanner, InstanceClass::kWeaklyCorrelated},
        std::pair{InstanceClass::kStronglyCorrelatedSpanner, InstanceClass::kStronglyCorrelated}}) {
    const KnapsackInstance instance = generate_instance({c, 300, 1000, 8});
    SCOPED_TRACE(instance.name);
    const KnapsackInstance drawn = generate_instance({base, 2, 1000, 8});  // the same first draws
    std::int64_t spanner_p[2];
    std::int64_t spanner_w[2];
    for (int k = 0; k < 2; ++k) {
      spanner_p[k] = std::max<std::int64_t>(1, drawn.profits[k] / 11);
      spanner_w[k] = std::max<std::int64_t>(1, drawn.weights[k] / 11);
    }
    std::mt19937_64 engine(8);
    const int draws_per_spanner_item = base == InstanceClass::kStronglyCorrelated ? 1 : 2;
    for (int k = 0; k < 2 * draws_per_spanner_item; ++k) uniform_integer(engine, 1, 1000);
    std::set<std::int64_t> multipliers;
    for (int i = 0; i < instance.items(); ++i) {
      const auto k = static_cast<std::size_t>(uniform_integer(engine, 0, 1));
      const std::int64_t a = uniform_integer(engine, 1, 10);
      multipliers.insert(a);
      EXPECT_EQ(instance.profits[i], a * spanner_p[k]) << i;
      EXPECT_EQ(instance.weights[i], a * spanner_w[k]) << i;
    }
    EXPECT_EQ(multipliers.size(), 10u);
  }
}

TEST(KnapsackGenerator, HardClassNamesParseAndListApart) {
  EXPECT_EQ(instance_class_names().size(), 5u);
  EXPECT_EQ(hard_instance_class_names(),
            (std::vector<std::string>{"almost-strongly-correlated", "uncorrelated-spanner",
                                      "weakly-correlated-spanner", "strongly-correlated-spanner",
                                      "multiple-strongly-correlated", "profit-ceiling", "circle"}));
  for (const auto& name : hard_instance_class_names()) {
    EXPECT_EQ(to_string(parse_instance_class(name)), name);
  }
  EXPECT_EQ(parse_generator_spec("circle,100,1000,1").instance_class, InstanceClass::kCircle);
}

TEST(KnapsackGenerator, DrawnValuesSpreadOverTheRange) {
  // R = 10: every weight 1..10 appears among 500 uniform draws, and the weakly correlated
  // profits reach both ends of [w - 1, w + 1].
  const auto instance = generate_instance({InstanceClass::kWeaklyCorrelated, 500, 10, 5});
  std::set<std::int64_t> weights(instance.weights.begin(), instance.weights.end());
  EXPECT_EQ(weights.size(), 10u);
  std::set<std::int64_t> offsets;
  for (int i = 0; i < instance.items(); ++i)
    offsets.insert(instance.profits[i] - instance.weights[i]);
  EXPECT_EQ(offsets, (std::set<std::int64_t>{-1, 0, 1}));
}

TEST(KnapsackGenerator, TheSameSpecGivesTheSameInstanceAndSeedsDiffer) {
  const GeneratorSpec spec{InstanceClass::kUncorrelated, 200, 1000, 42};
  const auto a = generate_instance(spec);
  const auto b = generate_instance(spec);
  EXPECT_EQ(a.profits, b.profits);
  EXPECT_EQ(a.weights, b.weights);
  EXPECT_EQ(a.capacity, b.capacity);
  GeneratorSpec other = spec;
  other.seed = 43;
  EXPECT_NE(generate_instance(other).weights, a.weights);
}

TEST(KnapsackGenerator, FirstItemsFollowTheDocumentedDraws) {
  // Strongly correlated: w_i = uniform_integer(engine, 1, R) in order, p_i = w_i + R / 10.
  const auto instance = generate_instance({InstanceClass::kStronglyCorrelated, 5, 100, 9});
  std::mt19937_64 engine(9);
  for (int i = 0; i < 5; ++i) {
    const std::int64_t w = uniform_integer(engine, 1, 100);
    EXPECT_EQ(instance.weights[i], w);
    EXPECT_EQ(instance.profits[i], w + 10);
  }
  // Uncorrelated: weight first, then profit.
  const auto u = generate_instance({InstanceClass::kUncorrelated, 3, 50, 9});
  std::mt19937_64 e2(9);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(u.weights[i], uniform_integer(e2, 1, 50));
    EXPECT_EQ(u.profits[i], uniform_integer(e2, 1, 50));
  }
}

TEST(KnapsackGenerator, CapacityGivenOverridesHalfTheWeight) {
  const auto instance = generate_instance({InstanceClass::kSubsetSum, 10, 100, 1}, 17);
  EXPECT_EQ(instance.capacity, 17);
}

TEST(KnapsackGenerator, ParsesSpecsAndRejectsBadOnes) {
  const GeneratorSpec spec = parse_generator_spec("inverse-strongly-correlated,250,1000,7");
  EXPECT_EQ(spec.instance_class, InstanceClass::kInverseStronglyCorrelated);
  EXPECT_EQ(spec.items, 250);
  EXPECT_EQ(spec.range, 1000);
  EXPECT_EQ(spec.seed, 7u);
  EXPECT_EQ(to_string(spec), "inverse-strongly-correlated,250,1000,7");
  // Every field at and past its limits; each message names --generate and the spec.
  for (const char* bad :
       {"strongly-correlated,100,100", "nope,1,1,1", ",1,1,1", "subset-sum,0,10,1",
        "subset-sum,10,0,1", "subset-sum,x,10,1", "subset-sum,10,10,-1", "subset-sum,10,10,1,",
        "subset-sum,10,1.5,1", "", "subset-sum,-1,10,1", "subset-sum,+1,10,1",
        "subset-sum,100000001,10,1", "subset-sum,99999999999999999999,10,1",
        "subset-sum,1,1152921504606846977,1", "subset-sum,1,9223372036854775808,1",
        "subset-sum,1,10,18446744073709551616", "subset-sum,1,10,", "subset-sum, 1,10,1"}) {
    try {
      parse_generator_spec(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--generate " + std::string(bad), 0), 0u) << e.what();
    }
  }
  // The largest accepted: n = 10^8, R = 2^60, seed 2^64 - 1.
  const GeneratorSpec largest =
      parse_generator_spec("subset-sum,100000000,1152921504606846976,18446744073709551615");
  EXPECT_EQ(largest.items, 100'000'000);
  EXPECT_EQ(largest.range, kMaxRange);
  EXPECT_EQ(largest.seed, 18446744073709551615u);
}

TEST(KnapsackGenerator, RefusesTotalsBeyond64Bits) {
  // 100 weights p + 2^60 / 10, p uniform in [1, 2^60]: about 60 * 2^60 in total, past 2^63.
  EXPECT_THROW(
      generate_instance({InstanceClass::kInverseStronglyCorrelated, 100, std::int64_t{1} << 60, 1}),
      InputError);
}

}  // namespace
}  // namespace permbb::knapsack
