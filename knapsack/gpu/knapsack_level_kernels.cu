#include "knapsack_level_kernels.hpp"

#include <cub/device/device_scan.cuh>

#include <climits>

#include "cuda_check.hpp"
#include "node_bounds.hpp"
#include "node_branching.hpp"

namespace permbb::knapsack::gpu {
namespace {

constexpr int kThreads = 256;  // threads per block
static_assert(kThreads % 32 == 0 && kThreads <= 1024,
              "max_lower_kernel reduces whole warps, at most 32 of them per block");

unsigned blocks_for(std::int64_t threads) {
  return static_cast<unsigned>((threads + kThreads - 1) / kThreads);
}

__device__ std::int64_t thread_index() {
  return static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

__global__ void branch_kernel(ItemsView items, NodeArrays nodes, std::int64_t q, int item) {
  const std::int64_t j = thread_index();
  if (j < q) branch_node(items, nodes, j, q, item);
}

__global__ void bound_kernel(ItemsView items, NodeArrays nodes, std::int64_t q) {
  const std::int64_t j = q + thread_index();
  if (j < 2 * q) bound_child(items, nodes, j);
}

__global__ void init_state_kernel(LevelState* state, std::int64_t best_lower) {
  state->best_lower = best_lower;
  state->witness = kNoWitness;
  state->kept = 0;
}

__device__ long long warp_max(long long value) {
  for (int offset = 16; offset > 0; offset /= 2) {
    const long long other = __shfl_down_sync(0xffffffffu, value, offset);
    value = other > value ? other : value;
  }
  return value;
}

// Block maximum of the children's L, then one atomicMax per block (Harris' reduction, which
// the paper cites, with warp shuffles for the last steps).
__global__ void max_lower_kernel(NodeArrays nodes, std::int64_t q, LevelState* state) {
  __shared__ long long warp_maxima[kThreads / 32];
  const std::int64_t j = q + thread_index();
  long long value = j < 2 * q ? nodes.lower[j] : LLONG_MIN;
  value = warp_max(value);
  if (threadIdx.x % 32 == 0) warp_maxima[threadIdx.x / 32] = value;
  __syncthreads();
  if (threadIdx.x < 32) {
    value = threadIdx.x < blockDim.x / 32 ? warp_maxima[threadIdx.x] : LLONG_MIN;
    value = warp_max(value);
    if (threadIdx.x == 0) atomicMax(&state->best_lower, value);
  }
}

// The lowest child index whose L is the new best, when the best improved.
__global__ void witness_kernel(NodeArrays nodes, std::int64_t q, std::int64_t best_before,
                               LevelState* state) {
  const std::int64_t j = q + thread_index();
  const long long best = state->best_lower;
  if (j < 2 * q && best > best_before && nodes.lower[j] == best) {
    atomicMin(&state->witness, static_cast<unsigned long long>(j));
  }
}

__global__ void label_kernel(NodeArrays nodes, std::int64_t slots, const LevelState* state,
                             std::uint32_t* flags) {
  const std::int64_t j = thread_index();
  if (j < slots) flags[j] = keep_node(nodes, j, state->best_lower) ? 1u : 0u;
}

__global__ void scatter_kernel(NodeArrays from, NodeArrays to, std::int64_t slots,
                               const std::uint32_t* flags, const std::uint32_t* positions,
                               LevelState* state) {
  const std::int64_t j = thread_index();
  if (j >= slots) return;
  if (flags[j] != 0) copy_node(from, j, to, positions[j]);
  if (j == slots - 1) state->kept = positions[j] + flags[j];
}

}  // namespace

void launch_branch(const ItemsView& items, const NodeArrays& nodes, std::int64_t q, int item,
                   cudaStream_t stream) {
  if (q == 0) return;
  branch_kernel<<<blocks_for(q), kThreads, 0, stream>>>(items, nodes, q, item);
  PERMBB_CUDA_CHECK_LAUNCH("branch_kernel");
}

void launch_bound(const ItemsView& items, const NodeArrays& nodes, std::int64_t q,
                  cudaStream_t stream) {
  if (q == 0) return;
  bound_kernel<<<blocks_for(q), kThreads, 0, stream>>>(items, nodes, q);
  PERMBB_CUDA_CHECK_LAUNCH("bound_kernel");
}

void launch_best_lower(const NodeArrays& nodes, std::int64_t q, std::int64_t best_lower,
                       LevelState* state, cudaStream_t stream) {
  init_state_kernel<<<1, 1, 0, stream>>>(state, best_lower);
  PERMBB_CUDA_CHECK_LAUNCH("init_state_kernel");
  if (q == 0) return;
  max_lower_kernel<<<blocks_for(q), kThreads, 0, stream>>>(nodes, q, state);
  PERMBB_CUDA_CHECK_LAUNCH("max_lower_kernel");
  witness_kernel<<<blocks_for(q), kThreads, 0, stream>>>(nodes, q, best_lower, state);
  PERMBB_CUDA_CHECK_LAUNCH("witness_kernel");
}

void launch_label(const NodeArrays& nodes, std::int64_t slots, const LevelState* state,
                  std::uint32_t* flags, cudaStream_t stream) {
  if (slots == 0) return;
  label_kernel<<<blocks_for(slots), kThreads, 0, stream>>>(nodes, slots, state, flags);
  PERMBB_CUDA_CHECK_LAUNCH("label_kernel");
}

std::size_t scan_temp_bytes(std::int64_t slots) {
  std::size_t bytes = 0;
  PERMBB_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<std::uint32_t*>(nullptr),
                                    static_cast<std::uint32_t*>(nullptr), static_cast<int>(slots)));
  return bytes;
}

void scan_flags(void* temp, std::size_t temp_bytes, const std::uint32_t* flags,
                std::uint32_t* positions, std::int64_t slots, cudaStream_t stream) {
  PERMBB_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, flags, positions,
                                                  static_cast<int>(slots), stream));
}

void launch_scatter(const NodeArrays& from, const NodeArrays& to, std::int64_t slots,
                    const std::uint32_t* flags, const std::uint32_t* positions, LevelState* state,
                    cudaStream_t stream) {
  if (slots == 0) return;
  scatter_kernel<<<blocks_for(slots), kThreads, 0, stream>>>(from, to, slots, flags, positions,
                                                             state);
  PERMBB_CUDA_CHECK_LAUNCH("scatter_kernel");
}

}  // namespace permbb::knapsack::gpu
