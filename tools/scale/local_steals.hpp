#pragma once
// A GPU's own stealing between its IVMs (2022 §3.4; gpu/kernels/steal_logic.hpp), on the
// pieces a virtual worker tracks: one phase takes, for each idle piece, the right half by
// permutations of a busy piece, each victim once, the longest first. The rule says which
// pieces are victims: every busy piece (the largest-neighbour rule, this build's default),
// or only those at least as long, in permutations, as the mean of the busy pieces (the
// paper's mean rule, the build before). Lengths are permutations, not nodes: under the mean
// rule a few long, nearly empty pieces raise the mean above every piece that holds the real
// work, so those are never split and the GPU runs with few busy IVMs (docs/scale.md, "one
// thin GPU").
//
// Limits: a thief may take from any piece, where a real IVM polls its hypercube neighbours;
// the longest-first order stands for the largest-neighbour rule's choice among them.
#include <cstdint>
#include <vector>

#include "interval.hpp"
#include "work_model.hpp"

namespace permbb::scale {

enum class StealRule { kLargest, kMean };

struct Piece {
  Interval interval;
  std::uint64_t nodes;  // model nodes left in it
};

// One steal phase over `pieces` (the busy ones) for `capacity - pieces.size()` thieves.
// Appends the thieves' halves; returns the number of steals. Node counts move with the
// halves, so the pieces' nodes add up to the same total.
int steal_phase(std::vector<Piece>& pieces, int capacity, StealRule rule, const WorkModel& model);

// Steal phases, as the GPU runs them while fewer than `trigger` x capacity pieces are busy,
// until that share is reached or a phase steals nothing (a new unit spreading over the IVMs).
void spread(std::vector<Piece>& pieces, int capacity, double trigger, StealRule rule,
            const WorkModel& model);

}  // namespace permbb::scale
