#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "knapsack_instance.hpp"

namespace permbb::knapsack {

// The standard classes of random knapsack instances (Martello & Toth 1990, Pisinger's
// generator), all with weights or profits drawn uniformly from [1, R]; d = R / 10 (integer
// division):
//   uncorrelated                 w uniform in [1, R], p uniform in [1, R]
//   weakly-correlated            w uniform in [1, R], p uniform in [max(1, w - d), w + d]
//   strongly-correlated          w uniform in [1, R], p = w + d   (Lalami & El Baz 2012, §IV:
//                                                                  "correlated", R = 100)
//   inverse-strongly-correlated  p uniform in [1, R], w = p + d
//   subset-sum                   w uniform in [1, R], p = w
enum class InstanceClass {
  kUncorrelated,
  kWeaklyCorrelated,
  kStronglyCorrelated,
  kInverseStronglyCorrelated,
  kSubsetSum,
};

const std::vector<std::string>& instance_class_names();
std::string to_string(InstanceClass c);
// Throws InputError listing the accepted names.
InstanceClass parse_instance_class(const std::string& name);

struct GeneratorSpec {
  InstanceClass instance_class = InstanceClass::kUncorrelated;
  int items = 0;
  std::int64_t range = 0;  // R
  std::uint64_t seed = 0;
};

// The largest R accepted: profits stay below 2^62 whatever the class.
inline constexpr std::int64_t kMaxRange = std::int64_t{1} << 60;

// "CLASS,n,R,seed", e.g. "strongly-correlated,100,100,1". Throws InputError.
GeneratorSpec parse_generator_spec(const std::string& text);

// The instance's name: the spec written back ("strongly-correlated,100,100,1").
std::string to_string(const GeneratorSpec& spec);

// Generates the instance. Draws come from std::mt19937_64 seeded with `seed`, through
// uniform_integer (portable_random.hpp), item after item, the drawn value of each item
// first (w, or p for inverse-strongly-correlated) and then, for the weakly correlated
// class, its profit. The capacity is `capacity` when given, else half the total weight
// (rounded down), as in Lalami & El Baz 2012, §IV. Throws InputError for a bad spec or a
// total above 2^63 - 1.
KnapsackInstance generate_instance(const GeneratorSpec& spec,
                                   std::optional<std::int64_t> capacity = std::nullopt);

}  // namespace permbb::knapsack
