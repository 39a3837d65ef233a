// P||Cmax instances: the file format and its errors (file:line), the generators against
// their definitions, SplitMix64 against its published outputs.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <string>

#include "input_error.hpp"
#include "instance_generator.hpp"
#include "pcmax_instance.hpp"
#include "splitmix64.hpp"

namespace permbb::pcmax {
namespace {

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "pcmax_" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// The message of the InputError that reading `text` raises ("" if none).
std::string read_error(const std::string& name, const std::string& text) {
  const std::string path = write_file(name, text);
  try {
    read_instance_file(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(PcmaxInstanceFile, ReadsJobsMachinesAndTimes) {
  const auto path = write_file("good.txt", "5 2\n3 1 4\n1 5\n");
  const PcmaxInstance instance = read_instance_file(path);
  EXPECT_EQ(instance.name, "pcmax_good");
  EXPECT_EQ(instance.machines, 2);
  EXPECT_EQ(instance.times, (std::vector<Duration>{3, 1, 4, 1, 5}));
  EXPECT_EQ(simple_lower_bound(instance), 7);  // ceil(14 / 2) = 7 > 5
  EXPECT_EQ(read_instance_file(write_file("roundtrip.txt", format_instance(instance))).times,
            instance.times);
}

TEST(PcmaxInstanceFile, CrlfAndAnyWhitespace) {
  const auto path = write_file("crlf.txt", "3 4\r\n\t7\r\n 8   9\r\n");
  const PcmaxInstance instance = read_instance_file(path);
  EXPECT_EQ(instance.times, (std::vector<Duration>{7, 8, 9}));
  EXPECT_EQ(simple_lower_bound(instance), 9);  // max t = 9 > ceil(24 / 4) = 6
}

TEST(PcmaxInstanceFile, ErrorsNameTheFileAndLine) {
  const std::string dir = ::testing::TempDir() + "pcmax_";
  struct Case {
    const char* name;
    const char* text;
    const char* where;  // file:line
    const char* what;
  };
  const Case cases[] = {
      {"empty.txt", "", "empty.txt:1:", "expected the number of jobs"},
      {"no_m.txt", "4\n", "no_m.txt:1:", "expected the number of machines"},
      {"token.txt", "3 2\n1 2\nx\n", "token.txt:3:", "expected an integer"},
      {"zero.txt", "2 2\n5\n0\n", "zero.txt:3:", "processing time 0 is out of range"},
      {"negative.txt", "2 2\n-5 1\n", "negative.txt:2:", "out of range"},
      {"jobs0.txt", "0 2\n", "jobs0.txt:1:", "number of jobs 0 is out of range"},
      {"big_m.txt", "1\n99999999999 1\n", "big_m.txt:2:", "number of machines"},
      {"huge.txt", "1 1\n\n99999999999999999999999\n", "huge.txt:3:", "too large"},
      {"truncated.txt", "5 2\n1 2\n3\n\n",
       "truncated.txt:3:", "expected 5 processing times, found only 3"},
      {"trailing.txt", "2 1\n1 2\n\n7\n", "trailing.txt:4:", "unexpected '7'"},
  };
  for (const Case& c : cases) {
    const std::string message = read_error(c.name, c.text);
    EXPECT_EQ(message.rfind(dir + c.where, 0), 0u) << c.name << ": " << message;
    EXPECT_NE(message.find(c.what), std::string::npos) << c.name << ": " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  EXPECT_THROW(read_instance_file(dir + "does_not_exist.txt"), InputError);
}

TEST(SplitMix64, PublishedOutputs) {
  // Outputs for seed 1234567 as published with the reference implementation (Vigna,
  // splitmix64.c): an independent check of the constants and shifts.
  SplitMix64 rng(1234567);
  EXPECT_EQ(rng.next(), 6457827717110365317ULL);
  EXPECT_EQ(rng.next(), 3203168211198807973ULL);
  EXPECT_EQ(rng.next(), 9817491932198370423ULL);
  EXPECT_EQ(rng.next(), 4593380528125082431ULL);
  EXPECT_EQ(rng.next(), 16408922859458223821ULL);
}

TEST(Generator, UniformIsLoPlusOutputModRange) {
  // seed 42, range 11: 2^64 mod 11 = 5 outputs are rejected, none of the first five is; the
  // times are 10 + output mod 11, computed from the outputs by hand (Python).
  const PcmaxInstance instance = generate_instance(parse_generator_spec("uniform,5,2,10,20,42"));
  EXPECT_EQ(instance.times, (std::vector<Duration>{19, 15, 12, 11, 12}));
  EXPECT_EQ(instance.machines, 2);
  EXPECT_EQ(instance.name, "uniform,5,2,10,20,42");
}

TEST(Generator, UniformFrequenciesMatchTheDefinition) {
  const PcmaxInstance instance = generate_instance(parse_generator_spec("uniform,60000,3,1,6,9"));
  std::map<Duration, int> seen;
  for (const Duration t : instance.times) ++seen[t];
  ASSERT_EQ(seen.size(), 6u);
  EXPECT_EQ(seen.begin()->first, 1);
  EXPECT_EQ(seen.rbegin()->first, 6);
  // 10000 expected each; the standard deviation is sqrt(60000 * 1/6 * 5/6) = 91.3.
  for (const auto& [value, count] : seen) EXPECT_NEAR(count, 10000, 5 * 91.3) << value;
  EXPECT_EQ(generate_instance(parse_generator_spec("uniform,60000,3,1,6,9")).times, instance.times);
  EXPECT_NE(generate_instance(parse_generator_spec("uniform,60000,3,1,6,10")).times,
            instance.times);
}

TEST(Generator, ParetoTailMatchesTheDefinition) {
  const double alpha = 1.5;
  const int n = 40000;
  const PcmaxInstance instance =
      generate_instance(parse_generator_spec("pareto,40000,4,10,1000,1.5,3"));
  for (const Duration t : instance.times) {
    ASSERT_GE(t, 10);
    ASSERT_LE(t, 1000);
  }
  // P(t >= x) = ((10/x)^a - r) / (1 - r), r = (10/1001)^a.
  const double r = std::pow(10.0 / 1001.0, alpha);
  for (const Duration x : {11, 15, 20, 50, 100, 300, 1000}) {
    const double p = (std::pow(10.0 / static_cast<double>(x), alpha) - r) / (1 - r);
    int at_least = 0;
    for (const Duration t : instance.times) at_least += t >= x;
    const double sigma = std::sqrt(p * (1 - p) / n);
    EXPECT_NEAR(static_cast<double>(at_least) / n, p, 5 * sigma + 1e-9) << x;
  }
}

TEST(Generator, EqualBoundsGiveConstantTimes) {
  for (const char* spec : {"uniform,7,3,5,5,1", "pareto,7,3,5,5,2.0,1"}) {
    const PcmaxInstance instance = generate_instance(parse_generator_spec(spec));
    EXPECT_EQ(instance.times, std::vector<Duration>(7, 5)) << spec;
  }
}

TEST(Generator, BadSpecsAreInputErrors) {
  for (const char* spec :
       {"normal,5,2,1,9,1", "uniform,5,2,1,9", "uniform,5,2,1,9,1,1", "uniform,0,2,1,9,1",
        "uniform,5,0,1,9,1", "uniform,5,2,0,9,1", "uniform,5,2,9,1,1", "uniform,5,2,1,x,1",
        "pareto,5,2,1,9,0,1", "pareto,5,2,1,9,-1,1", "uniform,5,2,1,200000000000,1", ""}) {
    try {
      parse_generator_spec(spec);
      ADD_FAILURE() << spec << " was accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--generate", 0), 0u) << e.what();
    }
  }
}

TEST(PcmaxInstance, ValidateRefusesOutOfRangeTimes) {
  PcmaxInstance instance{"x", 2, {3, 0}};
  EXPECT_THROW(validate_instance(instance, "x"), InputError);
  instance.times = {3, 4};
  instance.machines = 0;
  EXPECT_THROW(validate_instance(instance, "x"), InputError);
  instance.machines = 2;
  EXPECT_NO_THROW(validate_instance(instance, "x"));
}

}  // namespace
}  // namespace permbb::pcmax
