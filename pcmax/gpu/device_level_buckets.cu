#include "cuda_check.hpp"
#include "device_level_buckets.hpp"

namespace permbb::pcmax::gpu {
namespace {

constexpr int kBucketThreadsPerBlock = 256;
constexpr unsigned kFullWarp = 0xffffffffu;

// Takes one slot of counters[level] for each lane with `active`, aggregated over the lanes of
// the warp with the same level: one atomic per distinct level in the warp. Every lane of the
// warp must call it. Returns the lane's slot (meaningless where !active).
__device__ unsigned long long take_slot(unsigned long long* counters, std::uint32_t level,
                                        bool active) {
  const std::uint32_t key = active ? level : 0xffffffffu;  // levels are far below
  const unsigned peers = __match_any_sync(kFullWarp, key);
  const int lane = static_cast<int>(threadIdx.x & 31u);
  const int leader = __ffs(static_cast<int>(peers)) - 1;
  unsigned long long first = 0;
  if (active && lane == leader) first = atomicAdd(counters + level, __popc(peers));
  first = __shfl_sync(kFullWarp, first, leader);
  return first + static_cast<unsigned long long>(__popc(peers & ((1u << lane) - 1u)));
}

__global__ void count_levels_kernel(TableShapeView shape, std::uint64_t begin,
                                    std::uint64_t count, unsigned long long* level_counts) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const bool active = i < count;
  const std::uint32_t level = active ? state_level(shape, begin + i) : 0;
  take_slot(level_counts, level, active);
}

// level_cursors: each level's first free slot, from the counts' prefix sums.
__global__ void scatter_states_kernel(TableShapeView shape, std::uint64_t begin,
                                      std::uint64_t count, unsigned long long* level_cursors,
                                      std::uint32_t* states) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const bool active = i < count;
  const std::uint32_t level = active ? state_level(shape, begin + i) : 0;
  const unsigned long long slot = take_slot(level_cursors, level, active);
  if (active) states[slot] = static_cast<std::uint32_t>(i);
}

}  // namespace

std::vector<std::uint64_t> bucket_levels_on_device(const TableShapeView& shape,
                                                   std::uint64_t begin, std::uint64_t end,
                                                   std::uint64_t top_level, std::uint32_t* states,
                                                   unsigned long long* level_counts,
                                                   cudaStream_t stream) {
  const std::uint64_t count = end - begin;
  const std::size_t levels = static_cast<std::size_t>(top_level) + 1;
  std::vector<std::uint64_t> level_begin(levels + 1, 0);
  if (count == 0) return level_begin;
  const auto blocks = static_cast<unsigned>((count + kBucketThreadsPerBlock - 1) / kBucketThreadsPerBlock);
  PERMBB_CUDA_CHECK(cudaMemsetAsync(level_counts, 0, levels * sizeof(unsigned long long), stream));
  count_levels_kernel<<<blocks, kBucketThreadsPerBlock, 0, stream>>>(shape, begin, count, level_counts);
  PERMBB_CUDA_CHECK_LAUNCH("count_levels_kernel");
  std::vector<unsigned long long> counts(levels);
  PERMBB_CUDA_CHECK(cudaMemcpyAsync(counts.data(), level_counts, levels * sizeof(counts[0]),
                                    cudaMemcpyDeviceToHost, stream));
  PERMBB_CUDA_CHECK(cudaStreamSynchronize(stream));
  for (std::size_t l = 0; l < levels; ++l) level_begin[l + 1] = level_begin[l] + counts[l];
  std::vector<unsigned long long> cursors(level_begin.begin(), level_begin.end() - 1);
  PERMBB_CUDA_CHECK(cudaMemcpyAsync(level_counts, cursors.data(), levels * sizeof(cursors[0]),
                                    cudaMemcpyHostToDevice, stream));
  scatter_states_kernel<<<blocks, kBucketThreadsPerBlock, 0, stream>>>(shape, begin, count,
                                                                 level_counts, states);
  PERMBB_CUDA_CHECK_LAUNCH("scatter_states_kernel");
  // `cursors` must outlive the copy from it: pageable memory is staged before the call
  // returns, but the wait makes that independent of the memory kind.
  PERMBB_CUDA_CHECK(cudaStreamSynchronize(stream));
  return level_begin;
}

}  // namespace permbb::pcmax::gpu
