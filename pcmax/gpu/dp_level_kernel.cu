#include "cuda_check.hpp"
#include "dp_level_kernel.hpp"

namespace permbb::pcmax::gpu {
namespace {

constexpr int kDpThreadsPerBlock = 256;

template <class Entry>
__global__ void dp_level_kernel(TableShapeView shape, ConfigSetView configs,
                                const std::uint32_t* states, std::uint64_t count,
                                std::uint64_t first_state, Entry* resident, std::uint64_t mask,
                                std::uint32_t limit) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const std::uint64_t index = first_state + states[i];
  const TableLookup<Entry> lookup{resident, mask};
  resident[index & mask] = static_cast<Entry>(evaluate_state(shape, configs, index, lookup, limit));
}

}  // namespace

template <class Entry>
void launch_dp_level(const TableShapeView& shape, const ConfigSetView& configs,
                     const std::uint32_t* states, std::uint64_t count, std::uint64_t first_state,
                     Entry* resident, std::uint64_t mask, std::uint32_t limit,
                     cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>((count + kDpThreadsPerBlock - 1) / kDpThreadsPerBlock);
  dp_level_kernel<Entry><<<blocks, kDpThreadsPerBlock, 0, stream>>>(
      shape, configs, states, count, first_state, resident, mask, limit);
  PERMBB_CUDA_CHECK_LAUNCH("dp_level_kernel");
}

template void launch_dp_level<std::uint8_t>(const TableShapeView&, const ConfigSetView&,
                                            const std::uint32_t*, std::uint64_t, std::uint64_t,
                                            std::uint8_t*, std::uint64_t, std::uint32_t,
                                            cudaStream_t);
template void launch_dp_level<std::uint16_t>(const TableShapeView&, const ConfigSetView&,
                                             const std::uint32_t*, std::uint64_t, std::uint64_t,
                                             std::uint16_t*, std::uint64_t, std::uint32_t,
                                             cudaStream_t);
template void launch_dp_level<std::uint32_t>(const TableShapeView&, const ConfigSetView&,
                                             const std::uint32_t*, std::uint64_t, std::uint64_t,
                                             std::uint32_t*, std::uint64_t, std::uint32_t,
                                             cudaStream_t);

}  // namespace permbb::pcmax::gpu
