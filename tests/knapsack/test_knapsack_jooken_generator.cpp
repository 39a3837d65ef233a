// The generator of Jooken, Leyman & De Causmaecker's class (2022, §3), checked against group
// sizes and bases worked out by hand or by a different formula, and the spread of its draws;
// and the exact decimal fields of the spec.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "input_error.hpp"
#include "jooken_generator.hpp"

namespace permbb::knapsack {
namespace {

__extension__ typedef unsigned __int128 Wide;

// Items of `instance` from `first` (count of them) lie in [base + 1, base + s] in both profit
// and weight.
void expect_group(const KnapsackInstance& instance, int first, int count, std::int64_t base,
                  std::int64_t s) {
  for (int i = first; i < first + count; ++i) {
    ASSERT_GE(instance.profits[i], base + 1) << "item " << i;
    ASSERT_LE(instance.profits[i], base + s) << "item " << i;
    ASSERT_GE(instance.weights[i], base + 1) << "item " << i;
    ASSERT_LE(instance.weights[i], base + s) << "item " << i;
  }
}

TEST(JookenGenerator, GroupsByHand) {
  // n = 400, f = 0.1: 40 small items, (400 - 40) / (6 - 1) = 72 items in each of 5 groups;
  // bases ⌊(1/2^(j+1) + 10^-4) 10^6⌋ = 500000 + 100, 250000 + 100, 125000 + 100,
  // 62500 + 100, 31250 + 100.
  const JookenSpec spec = parse_jooken_spec("jooken,400,1000000,6,0.1,0.0001,100,1");
  EXPECT_EQ(jooken_group_size(spec), 72);
  const std::int64_t bases[] = {500100, 250100, 125100, 62600, 31350};
  for (int j = 0; j < 5; ++j) EXPECT_EQ(jooken_group_base(spec, j), bases[j]) << j;
  const KnapsackInstance instance = generate_jooken_instance(spec);
  ASSERT_EQ(instance.items(), 400);
  EXPECT_EQ(instance.capacity, 1000000);
  EXPECT_EQ(instance.name, "jooken,400,1000000,6,0.1,0.0001,100,1");
  for (int j = 0; j < 5; ++j) expect_group(instance, 72 * j, 72, bases[j], 100);
  expect_group(instance, 360, 40, 0, 100);
}

TEST(JookenGenerator, UnevenGroupsAndFractionalBases) {
  // n = 1000, f = 0.3, g = 14: (1000 - 300) / 13 = 53 per group, 1000 - 13 * 53 = 311 small.
  const JookenSpec spec = parse_jooken_spec("jooken,1000,100000007,14,0.3,1e-3,300,5");
  EXPECT_EQ(jooken_group_size(spec), 53);
  const KnapsackInstance instance = generate_jooken_instance(spec);
  ASSERT_EQ(instance.items(), 1000);
  for (int j = 0; j < 13; ++j) {
    // ⌊c / 2^(j+1) + c / 1000⌋ = ⌊(1000 c + 2^(j+1) c) / (1000 2^(j+1))⌋, one division.
    const Wide c = 100000007;
    const Wide two = Wide{1} << (j + 1);
    const auto base = static_cast<std::int64_t>((1000 * c + two * c) / (1000 * two));
    EXPECT_EQ(jooken_group_base(spec, j), base) << j;
    expect_group(instance, 53 * j, 53, base, 300);
  }
  expect_group(instance, 13 * 53, 311, 0, 300);
}

TEST(JookenGenerator, DrawsCoverTheirRange) {
  // 10,000 small items (f = 1): both ends of [1, s] drawn, the mean near (s + 1) / 2.
  const KnapsackInstance instance =
      generate_jooken_instance(parse_jooken_spec("jooken,10000,1000,2,1,0,200,3"));
  ASSERT_EQ(instance.items(), 10000);
  for (const auto* values : {&instance.profits, &instance.weights}) {
    EXPECT_EQ(*std::min_element(values->begin(), values->end()), 1);
    EXPECT_EQ(*std::max_element(values->begin(), values->end()), 200);
    double sum = 0;
    for (const std::int64_t v : *values) sum += static_cast<double>(v);
    EXPECT_NEAR(sum / 10000, 100.5, 2.0);  // standard error about 0.6
  }
  // Profits and weights are drawn independently: they differ on most items.
  int equal = 0;
  for (int i = 0; i < 10000; ++i) equal += instance.profits[i] == instance.weights[i];
  EXPECT_LT(equal, 200);  // about 10000 / 200 = 50 expected
}

TEST(JookenGenerator, ReproducibleFromItsSeed) {
  const auto a = generate_jooken_instance(parse_jooken_spec("jooken,600,10000000000,10,0.2,0,100,9"));
  const auto b = generate_jooken_instance(parse_jooken_spec("jooken,600,10000000000,10,0.2,0,100,9"));
  const auto c = generate_jooken_instance(parse_jooken_spec("jooken,600,10000000000,10,0.2,0,100,10"));
  EXPECT_EQ(a.profits, b.profits);
  EXPECT_EQ(a.weights, b.weights);
  EXPECT_NE(a.profits, c.profits);
  // With ε = 0 the bases are exact halvings of 10^10: 5 * 10^9, 2.5 * 10^9, ...
  EXPECT_EQ(jooken_group_base(parse_jooken_spec("jooken,600,10000000000,10,0.2,0,100,9"), 3),
            625000000);
}

TEST(JookenGenerator, RejectsBadSpecs) {
  for (const char* bad :
       {"jooken,400,1000000,6,0.1,0.0001,100", "jooken,0,1000,2,0.1,0,100,1",
        "jooken,400,1000,1,0.1,0,100,1", "jooken,400,1000,64,0.1,0,100,1",
        "jooken,400,1000,2,1.5,0,100,1", "jooken,400,1000,2,0.1,-0.1,100,1",
        "jooken,400,1000,2,0.1,0,0,1", "jooken,400,1000,2,0.1,x,100,1",
        "jooken,400,4611686018427387905,2,0.1,0,100,1", "jooken,400,1000,2,0.1,0,100,1,",
        "jooken,400,1000,2,0.1,1e-19,100,1", "jooken,400,1000,2,0.1e,0,100,1"}) {
    try {
      parse_jooken_spec(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--generate " + std::string(bad), 0), 0u) << e.what();
    }
  }
  EXPECT_TRUE(is_jooken_spec("jooken,1"));
  EXPECT_FALSE(is_jooken_spec("subset-sum,1,1,1"));
}

TEST(GeneratorFields, DecimalFractionsAreExact) {
  const auto f = [](const std::string& text) { return spec_fraction(text, "spec", "f"); };
  EXPECT_EQ(f("0.1").numerator, 1u);
  EXPECT_EQ(f("0.1").digits, 1);
  EXPECT_EQ(f("1e-5").numerator, 1u);
  EXPECT_EQ(f("1e-5").digits, 5);
  EXPECT_EQ(f("2.5E-3").numerator, 25u);
  EXPECT_EQ(f("2.5E-3").digits, 4);
  EXPECT_EQ(f("1").numerator, 1u);
  EXPECT_EQ(f("1").digits, 0);
  EXPECT_EQ(f(".5").numerator, 5u);
  EXPECT_EQ(f("0.01e1").numerator, 1u);
  EXPECT_EQ(f("0.01e1").digits, 1);
  for (const char* bad : {"", ".", "1.01", "2", "0.5.5", "1e", "e-5", "0.1234567890123456789",
                          "-0.1", "0x1"}) {
    EXPECT_THROW(f(bad), InputError) << bad;
  }
}

}  // namespace
}  // namespace permbb::knapsack
