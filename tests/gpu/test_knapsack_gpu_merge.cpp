// The expanding-core search's merge on the GPU (gpu/device_state_merge.cu) against the one-pass
// merge on the host, merge by merge (run on a GPU machine; label gpu): the same states in the
// same order, the same arena nodes, the same outcome (tests/knapsack/state_merge_check.hpp).
// Random lists with every bound in play, whole searches with every list merged on the device,
// and a search whose lists reach hundreds of thousands of states (many blocks, grown buffers).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>

#include "jooken_generator.hpp"
#include "knapsack/state_merge_check.hpp"
#include "knapsack_gpu.hpp"

namespace permbb::knapsack {
namespace {

TEST(KnapsackGpuMerge, RandomListsMergeAsOnTheHost) {
  const std::unique_ptr<StateMerger> device = gpu::make_device_state_merger(0);
  testing::check_random_merges(*device, 2000, 20261127);
}

TEST(KnapsackGpuMerge, SearchesThroughTheDeviceMergeAreTheSame) {
  const std::unique_ptr<StateMerger> device = gpu::make_device_state_merger(0);
  testing::check_searches(*device);
}

// Lists of up to a few hundred thousand states (docs/knapsack.md: 370,658 at most on this
// instance), merged on the device from 4,096 states on: the buffers grow, the scans and
// reductions span thousands of blocks, and the outside items' sums bound the states.
TEST(KnapsackGpuMerge, LongListsOfAJookenInstance) {
  const std::unique_ptr<StateMerger> device = gpu::make_device_state_merger(0);
  const KnapsackInstance instance =
      generate_jooken_instance(parse_jooken_spec("jooken,400,1000000000,10,0.1,0.00001,300,2"));
  std::int64_t merges = 0;
  testing::expect_same_search(instance, CoreSearchOptions{}, *device, 4096, merges);
  EXPECT_GT(merges, 10);
}

}  // namespace
}  // namespace permbb::knapsack
