#pragma once
// The kernels of one level of the knapsack search (Lalami & El Baz 2012, §III.B.1), launched on
// `stream`, one thread per node. Branching and bounding call the host+device functions of
// knapsack/node_branching.hpp and node_bounds.hpp, so each thread does exactly what the CPU
// level step does for that node. Unlike the paper, the compaction is done on the device too
// (a scan of the keep flags and a scatter), so no label table travels to the host.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "items_view.hpp"
#include "node_arrays.hpp"

namespace permbb::knapsack::gpu {

// What a level leaves on the device for the host to read in one copy.
struct LevelState {
  long long best_lower;        // max(best given, the children's L)
  unsigned long long witness;  // lowest child index with L = best_lower if it improved,
                               // else kNoWitness
  unsigned long long kept;     // nodes after compaction
};
inline constexpr unsigned long long kNoWitness = ~0ull;

// Kernel 1: nodes [0, q) branch on `item`; children at [q, 2q).
void launch_branch(const ItemsView& items, const NodeArrays& nodes, std::int64_t q, int item,
                   cudaStream_t stream);
// Kernel 2: the children [q, 2q) are bounded.
void launch_bound(const ItemsView& items, const NodeArrays& nodes, std::int64_t q,
                  cudaStream_t stream);
// The best lower bound: state->best_lower = max(best_lower, L of [q, 2q)), and the witness.
void launch_best_lower(const NodeArrays& nodes, std::int64_t q, std::int64_t best_lower,
                       LevelState* state, cudaStream_t stream);
// Labels: flags[j] = keep_node(j, state->best_lower) for j < slots.
void launch_label(const NodeArrays& nodes, std::int64_t slots, const LevelState* state,
                  std::uint32_t* flags, cudaStream_t stream);
// positions = exclusive prefix sum of flags (CUB). scan_temp_bytes: the scratch it needs.
std::size_t scan_temp_bytes(std::int64_t slots);
void scan_flags(void* temp, std::size_t temp_bytes, const std::uint32_t* flags,
                std::uint32_t* positions, std::int64_t slots, cudaStream_t stream);
// Kept node j goes to `to` at positions[j]; state->kept = the number kept.
void launch_scatter(const NodeArrays& from, const NodeArrays& to, std::int64_t slots,
                    const std::uint32_t* flags, const std::uint32_t* positions, LevelState* state,
                    cudaStream_t stream);

}  // namespace permbb::knapsack::gpu
