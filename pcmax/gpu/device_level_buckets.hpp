#pragma once
// A block's states bucketed by level (digit sum) on the device, so that the GPU's DP never
// waits for the host: the host's counting sort (level_buckets.cpp) is a sequential walk over
// every state plus an upload of 4 bytes a state, which on tables of 10^8 entries took longer
// than the DP kernels themselves (docs/pcmax.md, "Benchmark").
//
// Two passes over the block, each thread one state: count the states of each level, then give
// each state a slot in its level's range. The states of one level are independent (dp_step.hpp),
// so their order inside the range is free: slots are taken with atomics, one per distinct level
// in a warp (__match_any_sync), and the order varies from run to run while the table's values
// do not.
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "dp_step.hpp"

namespace permbb::pcmax::gpu {

// Buckets the states [begin, end) of the table (shape in device memory) by level:
// states[level_begin[l] .. level_begin[l + 1]) hold state - begin for the states of level l,
// l = 0 .. top_level; the returned level_begin has top_level + 2 entries. `states` holds
// end - begin entries, `level_counts` top_level + 1 (device scratch). Runs on `stream` and
// waits for it (the ranges are needed on the host to launch the levels).
std::vector<std::uint64_t> bucket_levels_on_device(const TableShapeView& shape,
                                                   std::uint64_t begin, std::uint64_t end,
                                                   std::uint64_t top_level, std::uint32_t* states,
                                                   unsigned long long* level_counts,
                                                   cudaStream_t stream);

}  // namespace permbb::pcmax::gpu
