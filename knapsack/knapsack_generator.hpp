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
// and the classes of Pisinger, "Where are the hard knapsack problems?", Computers &
// Operations Research 32 (2005), §3-4, with the parameters found hardest there; e = R / 500,
// every weight uniform in [1, R]:
//   almost-strongly-correlated   p uniform in [w + d - e, w + d + e]
//   uncorrelated-spanner,        spanner(2, 10): two items drawn as in the class named
//   weakly-correlated-spanner,   first, each profit and weight divided by m + 1 = 11
//   strongly-correlated-spanner  (integer division, at least 1); every item of the instance
//                                is a multiple a * (p_k, w_k) of one of them, k uniform in
//                                {0, 1}, a uniform in [1, 10]
//   multiple-strongly-correlated mstr(3R/10, 2R/10, 6): p = w + 3R/10 where 6 divides w,
//                                else p = w + 2R/10 (integer divisions)
//   profit-ceiling               pceil(3): p = 3 * ceil(w / 3)
//   circle                       circle(2/3): p = floor(2 * floor(sqrt(w (4R - w))) / 3),
//                                at least 1 (the arc p = (2/3) sqrt(4R^2 - (w - 2R)^2))
// The paper solves series of capacities c = h / (H + 1) * (total weight), h = 1..H: give
// --capacity for those; the default is half the total weight.
enum class InstanceClass {
  kUncorrelated,
  kWeaklyCorrelated,
  kStronglyCorrelated,
  kInverseStronglyCorrelated,
  kSubsetSum,
  kAlmostStronglyCorrelated,
  kUncorrelatedSpanner,
  kWeaklyCorrelatedSpanner,
  kStronglyCorrelatedSpanner,
  kMultipleStronglyCorrelated,
  kProfitCeiling,
  kCircle,
};

// The five classic classes (Martello & Toth; the 2012 paper's), in the enum's order.
const std::vector<std::string>& instance_class_names();
// Pisinger's 2005 classes, in the enum's order after the classic ones.
const std::vector<std::string>& hard_instance_class_names();
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
// first (w, or p for inverse-strongly-correlated) and then, for the weakly and almost
// strongly correlated classes, its profit. The spanner classes first draw their two spanner
// items so, then for each item k and then a. The capacity is `capacity` when given, else half the total weight
// (rounded down), as in Lalami & El Baz 2012, §IV. Throws InputError for a bad spec or a
// total above 2^63 - 1.
KnapsackInstance generate_instance(const GeneratorSpec& spec,
                                   std::optional<std::int64_t> capacity = std::nullopt);

}  // namespace permbb::knapsack
