// Taillard's PFSP benchmark (E. Taillard, "Benchmarks for basic scheduling problems",
// EJOR 64, 1993): the generator, its seed table, and published facts per instance.
//
// Indices are 1..120. An index outside that range is a programming error (callers get
// indices from parse_name or loop over 1..kInstanceCount), so every function taking an
// index throws std::out_of_range for it, not InputError.
#include "taillard.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace permbb::taillard {
namespace {

// Seeds of ta001..ta120, in order (Taillard 1993). Some repeat across sizes.
constexpr std::array<std::int64_t, kInstanceCount> kSeeds = {
    873654221,  379008056,  1866992158, 216771124,  495070989,  402959317,  1369363414, 2021925980,
    573109518,  88325120,   587595453,  1401007982, 873136276,  268827376,  1634173168, 691823909,
    73807235,   1273398721, 2065119309, 1672900551, 479340445,  268827376,  1958948863, 918272953,
    555010963,  2010851491, 1519833303, 1748670931, 1923497586, 1829909967, 1328042058, 200382020,
    496319842,  1203030903, 1730708564, 450926852,  1303135678, 1273398721, 587288402,  248421594,
    1958948863, 575633267,  655816003,  1977864101, 93805469,   1803345551, 49612559,   1899802599,
    2013025619, 578962478,  1539989115, 691823909,  655816003,  1315102446, 1949668355, 1923497586,
    1805594913, 1861070898, 715643788,  464843328,  896678084,  1179439976, 1122278347, 416756875,
    267829958,  1835213917, 1328833962, 1418570761, 161033112,  304212574,  1539989115, 655816003,
    960914243,  1915696806, 2013025619, 1168140026, 1923497586, 167698528,  1528387973, 993794175,
    450926852,  1462772409, 1021685265, 83696007,   508154254,  1861070898, 26482542,   444956424,
    2115448041, 118254244,  471503978,  1215892992, 135346136,  1602504050, 160037322,  551454346,
    519485142,  383947510,  1968171878, 540872513,  2013025619, 475051709,  914834335,  810642687,
    1019331795, 2056065863, 1342855162, 1325809384, 1988803007, 765656702,  1368624604, 450181436,
    1927888393, 1759567256, 606425239,  19268348,   1298201670, 2041736264, 379756761,  28837162,
};

// Sum of all processing times of ta001..ta120, as published (checked against the generator
// by the tests).
constexpr std::array<long long, kInstanceCount> kChecksums = {
    5153,   5196,   4605,   5636,   4968,   5055,   4948,   5231,   5242,   4777,   10329,  10858,
    9876,   8930,   9459,   9140,   9377,   9902,   10034,  10528,  20273,  18772,  20323,  19734,
    20467,  19701,  20096,  19757,  20201,  19338,  12077,  13049,  11990,  12823,  12726,  13004,
    12324,  12393,  11622,  12818,  25100,  24236,  24007,  25281,  25391,  25090,  25184,  24535,
    24332,  25446,  51911,  49271,  48435,  49300,  49141,  49030,  49673,  49249,  49943,  50602,
    25797,  25182,  24735,  24028,  25098,  24510,  24749,  24339,  25839,  25583,  51911,  48435,
    50197,  52638,  49703,  47457,  49030,  49851,  51396,  50980,  98766,  99848,  99207,  98548,
    99239,  99300,  100097, 101843, 99964,  100664, 100404, 99250,  101158, 100171, 99911,  97363,
    102039, 101133, 99275,  100258, 195826, 200179, 201018, 200171, 198020, 200182, 201426, 199690,
    199777, 199666, 496290, 504800, 499062, 500754, 498137, 503430, 496976, 502428, 496121, 499516,
};

// Best-known makespans (upper bounds) of ta001..ta120; optimal except the open instances.
constexpr std::array<Time, kInstanceCount> kBestKnown = {
    1278,  1359,  1081,  1293,  1235,  1195,  1234,  1206,  1230,  1108,  1582,  1659,
    1496,  1377,  1419,  1397,  1484,  1538,  1593,  1591,  2297,  2099,  2326,  2223,
    2291,  2226,  2273,  2200,  2237,  2178,  2724,  2834,  2621,  2751,  2863,  2829,
    2725,  2683,  2552,  2782,  2991,  2867,  2839,  3063,  2976,  3006,  3093,  3037,
    2897,  3065,  3846,  3699,  3640,  3719,  3610,  3679,  3704,  3691,  3741,  3755,
    5493,  5268,  5175,  5014,  5250,  5135,  5246,  5094,  5448,  5322,  5770,  5349,
    5676,  5781,  5467,  5303,  5595,  5617,  5871,  5845,  6173,  6183,  6252,  6254,
    6285,  6331,  6223,  6372,  6247,  6404,  10862, 10480, 10922, 10889, 10524, 10329,
    10854, 10730, 10438, 10675, 11158, 11160, 11281, 11275, 11259, 11176, 11337, 11301,
    11146, 11284, 26040, 26500, 26371, 26456, 26334, 26469, 26389, 26560, 26005, 26457,
};

// Instances whose optimum is unknown (state of the literature after the 2022 results).
constexpr std::array<int, 12> kOpen = {51, 54, 55, 59, 60, 81, 85, 86, 87, 88, 89, 102};

// Sizes per group of ten consecutive instances.
struct GroupSize {
  int jobs;
  int machines;
};
constexpr std::array<GroupSize, kInstanceCount / 10> kGroups = {{
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

// Position of `index` in the tables; rejects anything outside 1..120.
std::size_t slot(int index) {
  if (index < 1 || index > kInstanceCount) {
    throw std::out_of_range("Taillard instance index " + std::to_string(index) +
                            " is out of range [1, " + std::to_string(kInstanceCount) + "]");
  }
  return static_cast<std::size_t>(index - 1);
}

// Taillard's generator: the Lehmer LCG seed = 16807 * seed mod (2^31 - 1), computed with
// Schrage's decomposition (m = a*b + c) so no intermediate exceeds 32 bits; the uniform draw
// scales seed/m in double, exactly as Taillard's published code does, so the instances match
// bit for bit.
class TaillardRandom {
 public:
  explicit TaillardRandom(std::int64_t seed) : seed_(seed) {}

  int uniform(int low, int high) {
    advance();
    const double fraction = static_cast<double>(seed_) / static_cast<double>(kM);
    return low + static_cast<int>(fraction * (high - low + 1));
  }

 private:
  static constexpr std::int64_t kA = 16807;
  static constexpr std::int64_t kM = 2147483647;
  static constexpr std::int64_t kB = 127773;  // kM / kA
  static constexpr std::int64_t kC = 2836;    // kM % kA

  void advance() {
    const std::int64_t k = seed_ / kB;
    seed_ = kA * (seed_ % kB) - k * kC;
    if (seed_ < 0) seed_ += kM;
  }

  std::int64_t seed_;
};

}  // namespace

int jobs(int index) {
  return kGroups[slot(index) / 10].jobs;
}
int machines(int index) {
  return kGroups[slot(index) / 10].machines;
}
long long checksum(int index) {
  return kChecksums[slot(index)];
}
Time best_known_makespan(int index) {
  return kBestKnown[slot(index)];
}

bool is_open(int index) {
  slot(index);  // validates
  return std::find(kOpen.begin(), kOpen.end(), index) != kOpen.end();
}

// Times are drawn machine by machine, each machine's row over all jobs (machine-major), which
// is also Instance's storage order.
Instance generate(int index) {
  const std::size_t i = slot(index);
  const int n = jobs(index);
  const int m = machines(index);
  TaillardRandom random(kSeeds[i]);
  std::vector<Time> times(static_cast<std::size_t>(n) * m);
  for (Time& t : times) t = random.uniform(1, 99);
  char name[8];
  std::snprintf(name, sizeof name, "ta%03d", index);
  return Instance(name, n, m, std::move(times));
}

// Accepts "ta" (any case) followed by one to three decimal digits whose value is 1..120.
std::optional<int> parse_name(const std::string& name) {
  if (name.size() < 3 || name.size() > 5) return std::nullopt;
  if (std::tolower(static_cast<unsigned char>(name[0])) != 't' ||
      std::tolower(static_cast<unsigned char>(name[1])) != 'a') {
    return std::nullopt;
  }
  int value = 0;
  for (std::size_t k = 2; k < name.size(); ++k) {
    const auto c = static_cast<unsigned char>(name[k]);
    if (!std::isdigit(c)) return std::nullopt;
    value = value * 10 + (c - '0');
  }
  if (value < 1 || value > kInstanceCount) return std::nullopt;
  return value;
}

std::optional<int> identify(const Instance& instance) {
  const auto index = parse_name(instance.name());
  if (!index || instance.jobs() != jobs(*index) || instance.machines() != machines(*index) ||
      instance.fingerprint() != generate(*index).fingerprint()) {
    return std::nullopt;
  }
  return index;
}

}  // namespace permbb::taillard
