#pragma once
// The order in which a table is filled, shared by the host and the GPU: blocks of the
// partition plan one after another, and inside a block its levels one after another; a
// backend says how a level is computed and where a finished block goes.
//
//   backend.start_block(buckets)            the block's states by level (e.g. upload them)
//   backend.run_level(buckets, first, count) states[first .. first + count) of one level
//   backend.finish_block(begin, end)        the block's entries are final (e.g. download)
#include <algorithm>
#include <cstdint>

#include "level_buckets.hpp"
#include "partition_plan.hpp"
#include "table_shape.hpp"

namespace permbb::pcmax {

template <class Backend>
void run_blocked_fill(const TableShape& shape, const PartitionPlan& plan, Backend& backend) {
  for (std::uint64_t begin = 0; begin < shape.size(); begin += plan.block_states) {
    const std::uint64_t end = std::min(shape.size(), begin + plan.block_states);
    const LevelBuckets buckets = build_level_buckets(shape, begin, end);
    backend.start_block(buckets);
    for (int l = 0; l < buckets.levels(); ++l) {
      const std::uint64_t first = buckets.level_begin[l];
      const std::uint64_t count = buckets.level_begin[l + 1] - first;
      if (count > 0) backend.run_level(buckets, first, count);
    }
    backend.finish_block(begin, end);
  }
}

}  // namespace permbb::pcmax
