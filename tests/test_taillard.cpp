// Taillard's generator and tables against the published facts. Every expected number here is
// typed in from shared/notes/taillard.md (Taillard 1993 and the literature), never taken from
// the code under test.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "instance.hpp"
#include "taillard.hpp"

namespace permbb {
namespace {

// Checksums (sum of all processing times) of ta001..ta120, from the notes.
constexpr std::array<long long, 120> kPublishedChecksums = {
    5153,   5196,   4605,   5636,   4968,   5055,   4948,   5231,   5242,   4777,    //
    10329,  10858,  9876,   8930,   9459,   9140,   9377,   9902,   10034,  10528,   //
    20273,  18772,  20323,  19734,  20467,  19701,  20096,  19757,  20201,  19338,   //
    12077,  13049,  11990,  12823,  12726,  13004,  12324,  12393,  11622,  12818,   //
    25100,  24236,  24007,  25281,  25391,  25090,  25184,  24535,  24332,  25446,   //
    51911,  49271,  48435,  49300,  49141,  49030,  49673,  49249,  49943,  50602,   //
    25797,  25182,  24735,  24028,  25098,  24510,  24749,  24339,  25839,  25583,   //
    51911,  48435,  50197,  52638,  49703,  47457,  49030,  49851,  51396,  50980,   //
    98766,  99848,  99207,  98548,  99239,  99300,  100097, 101843, 99964,  100664,  //
    100404, 99250,  101158, 100171, 99911,  97363,  102039, 101133, 99275,  100258,  //
    195826, 200179, 201018, 200171, 198020, 200182, 201426, 199690, 199777, 199666,  //
    496290, 504800, 499062, 500754, 498137, 503430, 496976, 502428, 496121, 499516,  //
};

// Sizes (jobs, machines) of each group of ten instances, from the notes.
struct Size {
  int jobs;
  int machines;
};
constexpr std::array<Size, 12> kPublishedSizes = {{
    {20, 5},
    {20, 10},
    {20, 20},
    {50, 5},
    {50, 10},
    {50, 20},
    {100, 5},
    {100, 10},
    {100, 20},
    {200, 10},
    {200, 20},
    {500, 20},
}};

std::string ta_name(int index) {
  char name[8];
  std::snprintf(name, sizeof name, "ta%03d", index);
  return name;
}

// The seeds repeat across sizes, so a generator with the wrong shape or order would still
// give plausible numbers: every instance's checksum is compared.
TEST(Taillard, GeneratedChecksumsMatchPublishedOnes) {
  for (int index = 1; index <= taillard::kInstanceCount; ++index) {
    SCOPED_TRACE(ta_name(index));
    const Instance instance = taillard::generate(index);
    EXPECT_EQ(instance.checksum(), kPublishedChecksums[index - 1]);
    EXPECT_EQ(taillard::checksum(index), kPublishedChecksums[index - 1]);
  }
}

TEST(Taillard, SizesPerGroup) {
  for (int index = 1; index <= taillard::kInstanceCount; ++index) {
    SCOPED_TRACE(ta_name(index));
    const Size expected = kPublishedSizes[(index - 1) / 10];
    EXPECT_EQ(taillard::jobs(index), expected.jobs);
    EXPECT_EQ(taillard::machines(index), expected.machines);
    const Instance instance = taillard::generate(index);
    EXPECT_EQ(instance.jobs(), expected.jobs);
    EXPECT_EQ(instance.machines(), expected.machines);
  }
}

TEST(Taillard, NamesHaveThreeDigits) {
  EXPECT_EQ(taillard::generate(1).name(), "ta001");
  EXPECT_EQ(taillard::generate(21).name(), "ta021");
  EXPECT_EQ(taillard::generate(120).name(), "ta120");
}

TEST(Taillard, FirstMachineRowOfTa001) {
  const std::vector<Time> expected = {54, 83, 15, 71, 77, 36, 53, 38, 27, 87,
                                      76, 91, 14, 29, 12, 77, 32, 87, 68, 94};
  const Instance instance = taillard::generate(1);
  ASSERT_EQ(instance.jobs(), 20);
  for (int job = 0; job < 20; ++job) EXPECT_EQ(instance.time(0, job), expected[job]) << job;
}

TEST(Taillard, TimesAreBetween1And99) {
  for (int index : {1, 51, 111}) {
    const Instance instance = taillard::generate(index);
    for (Time t : instance.times()) {
      ASSERT_GE(t, 1);
      ASSERT_LE(t, 99);
    }
  }
}

TEST(Taillard, ParseNameAcceptsShortAndCaseInsensitiveForms) {
  EXPECT_EQ(taillard::parse_name("ta1"), 1);
  EXPECT_EQ(taillard::parse_name("ta01"), 1);
  EXPECT_EQ(taillard::parse_name("ta001"), 1);
  EXPECT_EQ(taillard::parse_name("TA021"), 21);
  EXPECT_EQ(taillard::parse_name("Ta21"), 21);
  EXPECT_EQ(taillard::parse_name("ta120"), 120);
}

TEST(Taillard, ParseNameRejectsOtherNames) {
  for (const char* name : {"ta0", "ta000", "ta121", "tax", "ta", "ta001.txt", "ta-1", "ta+1",
                           "xta001", "ta 1", "ta0001", "", "t", "001"}) {
    EXPECT_FALSE(taillard::parse_name(name).has_value()) << name;
  }
}

TEST(Taillard, BestKnownMakespansFromTheNotes) {
  EXPECT_EQ(taillard::best_known_makespan(1), 1278);
  EXPECT_EQ(taillard::best_known_makespan(17), 1484);
  EXPECT_EQ(taillard::best_known_makespan(21), 2297);
  EXPECT_EQ(taillard::best_known_makespan(51), 3846);
  EXPECT_EQ(taillard::best_known_makespan(120), 26457);
}

TEST(Taillard, OpenInstancesAreExactlyTheTwelveOfTheNotes) {
  const std::vector<int> open = {51, 54, 55, 59, 60, 81, 85, 86, 87, 88, 89, 102};
  EXPECT_TRUE(taillard::is_open(51));
  EXPECT_FALSE(taillard::is_open(52));
  std::vector<int> found;
  for (int index = 1; index <= taillard::kInstanceCount; ++index) {
    if (taillard::is_open(index)) found.push_back(index);
  }
  EXPECT_EQ(found, open);
}

TEST(Taillard, IndexOutOfRangeIsAProgrammingError) {
  EXPECT_THROW(taillard::generate(0), std::out_of_range);
  EXPECT_THROW(taillard::generate(121), std::out_of_range);
  EXPECT_THROW(taillard::jobs(-1), std::out_of_range);
  EXPECT_THROW(taillard::checksum(121), std::out_of_range);
  EXPECT_THROW(taillard::best_known_makespan(0), std::out_of_range);
  EXPECT_THROW(taillard::is_open(0), std::out_of_range);
}

}  // namespace
}  // namespace permbb
