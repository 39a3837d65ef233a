#pragma once
#include <cstdint>
#include <functional>

#include "knapsack_instance.hpp"
#include "knapsack_solution.hpp"

namespace permbb::knapsack {

// The memory the dynamic program may use by default (its table and decision bits).
inline constexpr std::uint64_t kDefaultDpMemoryBytes = std::uint64_t{4} << 30;

// Bytes the dynamic program needs: (c + 1) 64-bit values and n (c + 1) decision bits.
// Saturates at 2^64 - 1.
std::uint64_t dp_memory_bytes(int items, std::int64_t capacity);

// The exact dynamic program over capacities, O(n c) time: best[x] = the most profit within
// weight x, items added one at a time (x from c down to w_i, so each item is used at most
// once), with one bit per (item, x) recording "item i improved best[x]"; the chosen items are
// read back from x = c. Independent of the branch-and-bound (no sorting, no bounds): the
// tests' reference. Throws InputError when dp_memory_bytes exceeds max_bytes, or when that
// memory cannot be allocated.
KnapsackSolution solve_dp(const KnapsackInstance& instance,
                          std::uint64_t max_bytes = kDefaultDpMemoryBytes);

// The same, asking `stop` after each item (a time limit, a signal): once it says stop, the
// result is the optimum over the items added so far (a feasible solution, not a proof), and
// `complete` is false.
struct DpResult {
  KnapsackSolution solution;
  bool complete = true;
};
DpResult solve_dp_until(const KnapsackInstance& instance, std::uint64_t max_bytes,
                        const std::function<bool()>& stop);

}  // namespace permbb::knapsack
