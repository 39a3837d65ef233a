#pragma once
// The explored subproblems check 4 re-explores: K draws with replacement, each subproblem
// drawn with a probability proportional to the decomposed nodes recorded under it (any
// when none records a node), from a seeded generator (splitmix64), so that an audit is
// repeatable. A fault confined to a share p of the explored nodes escapes one draw with
// probability 1 - p, and all K with probability at most (1 - p)^K (a nested record's count
// and its container's exclude each other's nodes: each explored node weighs once). With K at
// least the number of explored subproblems, every one is taken instead: the check is then
// complete.
//
// The distinct subproblems drawn are listed in the order of their first draw, so that the
// first m of them hold every one of the first first_draw[m] draws: an audit stopped by its
// time limit after m re-explorations is still a sample of that many draws, whatever their
// weights (a fault in a large subproblem cannot hide in the unexplored rest).
#include <cstdint>
#include <vector>

#include "certificate.hpp"

namespace permbb::audit {

struct SampleChoice {
  std::vector<std::size_t> subproblems;  // distinct indices into the certificate's
  std::vector<std::uint64_t> first_draw;  // of each, the draw that first took it (0, ...)
  std::uint64_t draws = 0;               // K, or 0 when every explored one is taken
  bool complete = false;

  // The draws held by the first m subproblems (all K when m covers them).
  std::uint64_t draws_covered(std::size_t m) const;
};

SampleChoice draw_sample(const Certificate& certificate, std::uint64_t k, std::uint64_t seed);

}  // namespace permbb::audit
