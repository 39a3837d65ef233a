#pragma once
// Where a work-model bin's nodes lie inside it: a binary cascade `levels` deep. Each range
// is halved by permutations and its nodes split w : 1 - w, w drawn (from a hash of the bin,
// the level and the range, so nothing is stored) uniformly in [0.5 - spread, 0.5 + spread];
// below the last level, or where a range holds one node or none, they are spread evenly.
// A real B&B tree is uneven at every depth: a subtree pruned near its root holds a huge range
// of permutations and few nodes. Without this, a bin's nodes are even inside it, so that an
// interval shorter than a bin holds nodes in proportion to its length, and neither the mean
// steal rule's thin GPU nor the slivers of a handover by permutations can happen
// (docs/scale.md). With gaps (cascade_gaps.hpp) a level may leave one half empty. Counts are
// exact integers, monotone in the offset, and add up to the bin's.
#include <cstdint>

namespace permbb::scale {

using Offset = unsigned __int128;  // a position within a bin (bins shorter than 2^120)

struct InnerCascade {
  double spread = 0;  // 0: the nodes are even within a bin
  int levels = 48;    // at least 8, so that the products of the last level fit in an Offset
  std::uint64_t seed = 1;
  double gaps = 0;  // the chance that a level leaves one half empty (cascade_gaps.hpp)
  bool uneven() const { return spread > 0 || gaps > 0; }
};

// The nodes at offsets below q (0 <= q <= length) of a bin of `length` positions and `nodes`.
std::uint64_t inner_nodes_before(const InnerCascade& cascade, std::uint64_t bin, Offset length,
                                 std::uint64_t nodes, Offset q);

// The least offset q with inner_nodes_before(q) >= target (target <= nodes).
Offset inner_advance(const InnerCascade& cascade, std::uint64_t bin, Offset length,
                     std::uint64_t nodes, std::uint64_t target);

}  // namespace permbb::scale
