#pragma once
// Uniform integers that are the same on every platform and standard library. std::mt19937_64's
// output sequence is fixed by the C++ standard, but std::uniform_int_distribution's mapping is
// not (libstdc++, libc++ and MSVC differ), so generated instances use this mapping instead:
//
//   range = hi - lo + 1;  r = 2^64 mod range;
//   draw x until x < 2^64 - r (then x mod range is exactly uniform);  return lo + x mod range.
//
// One draw of the engine per attempt; a rejection happens with probability r / 2^64 < range/2^64.
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace permbb::knapsack {

// `engine()` must return uniformly distributed 64-bit values (std::mt19937_64 does).
template <class Engine>
std::int64_t uniform_integer(Engine& engine, std::int64_t lo, std::int64_t hi) {
  if (hi < lo) throw std::invalid_argument("uniform_integer: empty range");
  const std::uint64_t span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  if (span == std::numeric_limits<std::uint64_t>::max()) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(engine()));
  }
  const std::uint64_t range = span + 1;
  const std::uint64_t leftover = (0 - range) % range;  // 2^64 mod range
  std::uint64_t x = static_cast<std::uint64_t>(engine());
  while (leftover != 0 && x > std::numeric_limits<std::uint64_t>::max() - leftover) {
    x = static_cast<std::uint64_t>(engine());
  }
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + x % range);
}

}  // namespace permbb::knapsack
