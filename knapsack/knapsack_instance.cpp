#include "knapsack_instance.hpp"

#include <limits>

#include "input_error.hpp"

namespace permbb::knapsack {
namespace {

[[noreturn]] void fail(const KnapsackInstance& instance, const std::string& what) {
  throw InputError(instance.name + ": " + what);
}

// Sum of positive values, or a failure naming `what` when it would pass 2^63 - 1.
std::int64_t checked_total(const KnapsackInstance& instance, const std::vector<std::int64_t>& v,
                           const char* what) {
  std::int64_t total = 0;
  for (const std::int64_t x : v) {
    if (x > std::numeric_limits<std::int64_t>::max() - total) {
      fail(instance, std::string("the total ") + what + " exceeds 2^63 - 1");
    }
    total += x;
  }
  return total;
}

}  // namespace

void validate_instance(const KnapsackInstance& instance) {
  if (instance.profits.size() != instance.weights.size()) {
    fail(instance, "as many profits as weights are needed");
  }
  if (instance.profits.empty()) fail(instance, "an instance needs at least one item");
  if (static_cast<std::int64_t>(instance.profits.size()) > kMaxItems) {
    fail(instance, "more than " + std::to_string(kMaxItems) + " items");
  }
  if (instance.capacity < 0) fail(instance, "the capacity must not be negative");
  for (int i = 0; i < instance.items(); ++i) {
    if (instance.profits[i] < 1 || instance.weights[i] < 1) {
      fail(instance, "item " + std::to_string(i + 1) + ": profit and weight must be positive");
    }
  }
  checked_total(instance, instance.profits, "profit");
  checked_total(instance, instance.weights, "weight");
}

std::int64_t total_weight(const KnapsackInstance& instance) {
  std::int64_t total = 0;
  for (const std::int64_t w : instance.weights) total += w;
  return total;
}

}  // namespace permbb::knapsack
