#pragma once
// The kernel of the P||Cmax DP: one thread per state of a level, each writing
// evaluate_state (dp_step.hpp) into the resident table (a ring when mask is not all ones).
#include <cuda_runtime.h>

#include <cstdint>

#include "dp_step.hpp"

namespace permbb::pcmax::gpu {

// The states first_state + states[0 .. count) of one level. Entry: uint8_t, uint16_t or
// uint32_t. Checked launch (throws on a launch error).
template <class Entry>
void launch_dp_level(const TableShapeView& shape, const ConfigSetView& configs,
                     const std::uint32_t* states, std::uint64_t count, std::uint64_t first_state,
                     Entry* resident, std::uint64_t mask, std::uint32_t limit, cudaStream_t stream);

}  // namespace permbb::pcmax::gpu
