#pragma once
// The order in which a table is filled, shared by the host and the GPU: blocks of the
// partition plan one after another, and inside a block its levels one after another; a
// backend buckets a block's states by level, computes a level, and says where a finished
// block goes:
//
//   backend.start_block(begin, end) -> level_begin   bucket the states [begin, end) by level
//                                                    (on the host, or on the device); level l
//                                                    of the block is [level_begin[l],
//                                                    level_begin[l + 1]) of its buckets
//   backend.run_level(first, count)                  the bucketed states [first, first + count)
//   backend.finish_block(begin, end)                 the block's entries are final (e.g. copy
//                                                    them to the host table)
#include <algorithm>
#include <cstdint>
#include <vector>

#include "partition_plan.hpp"
#include "run_control.hpp"
#include "table_shape.hpp"

namespace permbb::pcmax {

// `control` (may be null) is polled before each level and told the states of each: once it
// asks for a stop, the fill returns with the table unfinished (a GPU's levels already queued
// still run; nothing reads them).
template <class Backend>
void run_blocked_fill(const TableShape& shape, const PartitionPlan& plan, Backend& backend,
                      RunControl* control = nullptr) {
  for (std::uint64_t begin = 0; begin < shape.size(); begin += plan.block_states) {
    const std::uint64_t end = std::min(shape.size(), begin + plan.block_states);
    const std::vector<std::uint64_t> level_begin = backend.start_block(begin, end);
    for (std::size_t l = 0; l + 1 < level_begin.size(); ++l) {
      if (stop_requested(control)) return;
      const std::uint64_t count = level_begin[l + 1] - level_begin[l];
      if (count > 0) backend.run_level(level_begin[l], count);
      count_states_done(control, count);
    }
    backend.finish_block(begin, end);
  }
}

}  // namespace permbb::pcmax
