#pragma once
// 64-bit knapsack arithmetic with 128-bit intermediate products, host and device (nvcc supports
// unsigned __int128 in device code). Profits, weights and the capacity are below 2^63, so a
// product of two of them is below 2^126 and never overflows.
#include <cstdint>

#include "host_device.hpp"

namespace permbb::knapsack {

__extension__ typedef unsigned __int128 WideUnsigned;

// floor(a * b / d) for a, b >= 0 and d > 0, when the quotient fits in 63 bits (Dantzig's bound
// divides room * p_s by w_s with room < w_s, so the quotient is below p_s). The 64-bit division
// is taken when the product fits, as it usually does, since 128-bit division is slow on a GPU.
PERMBB_HD std::int64_t mul_div_floor(std::int64_t a, std::int64_t b, std::int64_t d) {
  const WideUnsigned product =
      static_cast<WideUnsigned>(static_cast<std::uint64_t>(a)) * static_cast<std::uint64_t>(b);
  const std::uint64_t divisor = static_cast<std::uint64_t>(d);
  if ((product >> 64) == 0)
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(product) / divisor);
  return static_cast<std::int64_t>(product / divisor);
}

// p_a / w_a > p_b / w_b, exactly (cross-multiplied in 128 bits), for positive weights.
PERMBB_HD bool ratio_greater(std::int64_t p_a, std::int64_t w_a, std::int64_t p_b,
                             std::int64_t w_b) {
  return static_cast<WideUnsigned>(static_cast<std::uint64_t>(p_a)) *
             static_cast<std::uint64_t>(w_b) >
         static_cast<WideUnsigned>(static_cast<std::uint64_t>(p_b)) *
             static_cast<std::uint64_t>(w_a);
}

}  // namespace permbb::knapsack
