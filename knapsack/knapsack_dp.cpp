#include "knapsack_dp.hpp"

#include <algorithm>
#include <limits>
#include <new>
#include <vector>

#include "input_error.hpp"
#include "wide_arithmetic.hpp"

namespace permbb::knapsack {

std::uint64_t dp_memory_bytes(int items, std::int64_t capacity) {
  const WideUnsigned columns = static_cast<WideUnsigned>(capacity) + 1;
  const WideUnsigned words = (columns + 63) / 64;
  const WideUnsigned bytes = columns * 8 + static_cast<WideUnsigned>(items) * words * 8;
  const WideUnsigned limit = std::numeric_limits<std::uint64_t>::max();
  return static_cast<std::uint64_t>(std::min(bytes, limit));
}

KnapsackSolution solve_dp(const KnapsackInstance& instance, std::uint64_t max_bytes) {
  return solve_dp_until(instance, max_bytes, {}).solution;
}

DpResult solve_dp_until(const KnapsackInstance& instance, std::uint64_t max_bytes,
                        const std::function<bool()>& stop) {
  const std::uint64_t needed = dp_memory_bytes(instance.items(), instance.capacity);
  if (needed > max_bytes) {
    throw InputError(instance.name + ": the dynamic program over capacity " +
                     std::to_string(instance.capacity) + " and " +
                     std::to_string(instance.items()) + " items needs " +
                     std::to_string(needed >> 20) + " MiB, more than the " +
                     std::to_string(max_bytes >> 20) + " MiB allowed");
  }
  const auto columns = static_cast<std::size_t>(instance.capacity) + 1;
  const std::size_t words = (columns + 63) / 64;
  std::vector<std::int64_t> best;
  std::vector<std::uint64_t> improved;
  try {
    best.assign(columns, 0);
    improved.assign(static_cast<std::size_t>(instance.items()) * words, 0);
  } catch (const std::bad_alloc&) {
    // Within the limit, yet more than the system gives (a limit above the free memory).
    throw InputError(instance.name + ": the dynamic program could not allocate its " +
                     std::to_string(needed >> 20) + " MiB");
  }
  int added = 0;
  for (; added < instance.items(); ++added) {
    if (stop && stop()) break;
    const int i = added;
    const std::int64_t w = instance.weights[i];
    const std::int64_t p = instance.profits[i];
    std::uint64_t* bits = improved.data() + static_cast<std::size_t>(i) * words;
    for (std::int64_t x = instance.capacity; x >= w; --x) {
      if (best[x - w] + p > best[x]) {
        best[x] = best[x - w] + p;
        bits[x / 64] |= std::uint64_t{1} << (x % 64);
      }
    }
  }
  KnapsackSolution solution{best[instance.capacity], 0, {}};
  std::int64_t x = instance.capacity;
  for (int i = added - 1; i >= 0; --i) {
    const std::uint64_t* bits = improved.data() + static_cast<std::size_t>(i) * words;
    if ((bits[x / 64] >> (x % 64)) & 1u) {
      solution.items.push_back(i);
      solution.weight += instance.weights[i];
      x -= instance.weights[i];
    }
  }
  std::reverse(solution.items.begin(), solution.items.end());
  return {std::move(solution), added == instance.items()};
}

}  // namespace permbb::knapsack
