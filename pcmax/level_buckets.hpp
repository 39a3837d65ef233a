#pragma once
// The states of a block of consecutive table indices [begin, end), grouped by level (digit
// sum, Li et al. Algorithm 2 lines 4-8): within a block, the states of one level depend only
// on lower levels of the block and on earlier blocks, so a level is one parallel step (one
// kernel launch on the GPU, one OpenMP loop on the CPU). Built by a counting sort in two
// odometer passes over the block, O(block x dims) with no per-state scratch beyond the
// result. Offsets are 32-bit, relative to the block's first state.
#include <cstdint>
#include <vector>

#include "table_shape.hpp"

namespace permbb::pcmax {

inline constexpr std::uint64_t kMaxBlockStates = 0xffffffffull;

struct LevelBuckets {
  std::uint64_t first_state = 0;
  std::uint64_t first_level = 0;
  // Level first_level + l holds states[level_begin[l] .. level_begin[l + 1]).
  std::vector<std::uint64_t> level_begin;
  std::vector<std::uint32_t> states;  // first_state + states[i] is a table index

  int levels() const { return static_cast<int>(level_begin.size()) - 1; }
};

// end - begin <= kMaxBlockStates. Empty levels inside the range are kept (no states).
LevelBuckets build_level_buckets(const TableShape& shape, std::uint64_t begin, std::uint64_t end);

// The highest level, sum of (extent - 1): the number of long jobs.
std::uint64_t top_level(const TableShape& shape);

}  // namespace permbb::pcmax
