#pragma once
// The GPU node list of the knapsack branch-and-bound (host interface; no CUDA types). Built
// with CUDA wherever nvcc is found; without it, make_device_list_backend throws, so callers
// look for a device first (gpu_devices.hpp: built_with_cuda, list_devices).
#include <cstdint>
#include <memory>

#include "item_table.hpp"
#include "knapsack_memory_cap.hpp"
#include "list_backend.hpp"
#include "state_list.hpp"

namespace permbb::knapsack::gpu {

struct DeviceListOptions {
  int device = 0;
  // The most slots the list may take (its buffers grow to it as needed); the same value as
  // LevelSearchOptions::max_list_nodes.
  std::int64_t max_list_nodes = 2;
};

// Device memory per list slot: two copies of a node (the list and the target of the
// compaction) plus the scan's 32-bit flag and position.
inline std::int64_t device_bytes_per_slot(int words_per_node) {
  return 2 * host_bytes_per_slot(words_per_node) + 2 * 4;
}

// The list on device `options.device`; `items` must outlive it. Throws std::runtime_error
// without CUDA or on a CUDA failure (out of memory included, with a hint).
std::unique_ptr<LevelListBackend> make_device_list_backend(const ItemTable& items,
                                                           const DeviceListOptions& options);

// The expanding-core search's merge on device `device` (device_state_merge.cu), for
// CoreSearchOptions::merger. Lists it cannot hold (device memory, 2^30 states) are merged on
// the host. Throws std::runtime_error without CUDA or when the device cannot be selected.
std::unique_ptr<StateMerger> make_device_state_merger(int device);

}  // namespace permbb::knapsack::gpu
