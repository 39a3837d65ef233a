#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace permbb::knapsack {

// A 0-1 knapsack instance (Lalami & El Baz 2012, §II.A): n items with positive integer
// profits and weights, and a capacity. Items are numbered from 0 here, from 1 in all output.
struct KnapsackInstance {
  std::string name;
  std::int64_t capacity = 0;
  std::vector<std::int64_t> profits;
  std::vector<std::int64_t> weights;

  int items() const { return static_cast<int>(profits.size()); }
};

// The largest item count accepted (the slack item index is a 32-bit integer on the device).
inline constexpr std::int64_t kMaxItems = 100'000'000;

// Checks what every solver relies on: as many profits as weights, 1 <= n <= kMaxItems,
// capacity >= 0, every profit and weight >= 1, and the total profit and the total weight
// below 2^63 (so sums never overflow). Throws InputError naming the instance otherwise.
void validate_instance(const KnapsackInstance& instance);

// The sum of the weights (validate_instance guarantees it fits).
std::int64_t total_weight(const KnapsackInstance& instance);

}  // namespace permbb::knapsack
