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

// n / d for d > 0. On an x86-64 host, one `divq` when the quotient fits in 64 bits (n's high
// word below d, as for every bound of a state: a profit scaled by a weight, divided by it);
// otherwise, and on the device, the generic division, a library call (__udivti3) that costs
// about 1.6 times as much on the host (the expanding-core search spends a sixth of its time
// on the floors of its bounds on Jooken's class: docs/knapsack.md).
PERMBB_HD WideUnsigned divide_wide(WideUnsigned n, std::uint64_t d) {
#if defined(__x86_64__) && !defined(__CUDA_ARCH__)
  const auto high = static_cast<std::uint64_t>(n >> 64);
  if (high < d) {
    std::uint64_t quotient = 0;
    std::uint64_t remainder = 0;
    __asm__("divq %4"
            : "=a"(quotient), "=d"(remainder)
            : "a"(static_cast<std::uint64_t>(n)), "d"(high), "r"(d)
            : "cc");
    return quotient;
  }
#endif
  return n / d;
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
