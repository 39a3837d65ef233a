#pragma once
// The explored subproblems check 4 re-explores: K draws with replacement, each subproblem
// drawn with a probability proportional to the decomposed nodes recorded under it (any
// when none records a node), from a seeded generator (splitmix64), so that an audit is
// repeatable. A fault confined to a share p of the explored nodes escapes one draw with
// probability 1 - p, and all K with probability at most (1 - p)^K. With K at least the number
// of explored subproblems, every one is taken instead: the check is then complete.
#include <cstdint>
#include <vector>

#include "certificate.hpp"

namespace permbb::audit {

struct SampleChoice {
  std::vector<std::size_t> subproblems;  // distinct indices into the certificate's, in order
  std::uint64_t draws = 0;               // K, or 0 when every explored one is taken
  bool complete = false;
};

SampleChoice draw_sample(const Certificate& certificate, std::uint64_t k, std::uint64_t seed);

}  // namespace permbb::audit
