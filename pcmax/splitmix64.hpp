#pragma once
// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators", OOPSLA
// 2014): a 64-bit state advanced by the golden-ratio constant, each output a fixed mix of it.
// Every step is 64-bit integer arithmetic, so a seed gives the same numbers on every platform
// and compiler; the library distributions of <random> do not promise that, which is why the
// instance generator draws from this and maps the numbers itself (below).
#include <cstdint>

namespace permbb::pcmax {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    state_ += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  // Uniform on [0, range), range >= 1, without bias: outputs below 2^64 mod range are drawn
  // again, so the accepted ones are a whole number of copies of [0, range).
  std::uint64_t below(std::uint64_t range) {
    const std::uint64_t rejected = (0 - range) % range;  // 2^64 mod range
    std::uint64_t x = next();
    while (x < rejected) x = next();
    return x % range;
  }

  // Uniform on [0, 1) with 53 random bits: the top 53 bits of one output, times 2^-53.
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  std::uint64_t state_;
};

}  // namespace permbb::pcmax
