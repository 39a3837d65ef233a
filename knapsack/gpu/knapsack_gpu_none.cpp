// The stand-in built without CUDA: no device list.
#include <stdexcept>

#include "knapsack_gpu.hpp"

namespace permbb::knapsack::gpu {

std::unique_ptr<LevelListBackend> make_device_list_backend(const ItemTable&,
                                                           const DeviceListOptions&) {
  throw std::runtime_error("the knapsack GPU list: this permbb was built without CUDA");
}

std::unique_ptr<StateMerger> make_device_state_merger(int) {
  throw std::runtime_error("the knapsack GPU merge: this permbb was built without CUDA");
}

}  // namespace permbb::knapsack::gpu
