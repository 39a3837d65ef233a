#include "audit_sample.hpp"

#include <algorithm>

namespace permbb::audit {
namespace {

// splitmix64 (Steele, Lea & Flood 2014): one 64-bit state, a fixed sequence per seed.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound), bound > 0, without modulo bias (rejection).
  std::uint64_t below(std::uint64_t bound) {
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    std::uint64_t x = next();
    while (x >= limit) x = next();
    return x % bound;
  }

 private:
  std::uint64_t state_;
};

}  // namespace

std::uint64_t SampleChoice::draws_covered(std::size_t m) const {
  return m < first_draw.size() ? first_draw[m] : draws;
}

SampleChoice draw_sample(const Certificate& c, std::uint64_t k, std::uint64_t seed) {
  std::vector<std::size_t> explored;
  std::vector<std::uint64_t> cumulative;  // weights' running sums
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < c.subproblems.size(); ++i) {
    if (c.subproblems[i].pruned) continue;
    explored.push_back(i);
    total += c.subproblems[i].nodes;
    cumulative.push_back(total);
  }
  SampleChoice choice;
  if (k >= explored.size()) {
    choice.subproblems = explored;
    choice.complete = true;
    return choice;
  }
  choice.draws = k;
  SplitMix64 random(seed);
  std::vector<bool> drawn(c.subproblems.size(), false);
  for (std::uint64_t draw = 0; draw < k; ++draw) {
    std::size_t at = 0;
    if (total == 0) {
      at = random.below(explored.size());
    } else {
      const std::uint64_t x = random.below(total);
      at = std::upper_bound(cumulative.begin(), cumulative.end(), x) - cumulative.begin();
    }
    if (drawn[explored[at]]) continue;
    drawn[explored[at]] = true;
    choice.subproblems.push_back(explored[at]);
    choice.first_draw.push_back(draw);
  }
  return choice;
}

}  // namespace permbb::audit
