#include "partition_plan.hpp"

#include <algorithm>

namespace permbb::pcmax {
namespace {

std::uint64_t blocks_for(std::uint64_t entries, std::uint64_t block_states) {
  return (entries + block_states - 1) / block_states;
}

// The longest block that fits beside `window` resident entries, or 0 if none does.
std::uint64_t longest_block(std::uint64_t window, int entry_bytes, std::uint64_t top_level,
                            std::uint64_t budget_bytes) {
  const std::uint64_t fixed = plan_bytes(window, 0, entry_bytes, top_level);
  if (window > budget_bytes / static_cast<std::uint64_t>(entry_bytes) || fixed > budget_bytes) {
    return 0;
  }
  return std::min<std::uint64_t>((budget_bytes - fixed) / sizeof(std::uint32_t), kMaxPlannedBlock);
}

}  // namespace

std::uint64_t plan_bytes(std::uint64_t window, std::uint64_t block_states, int entry_bytes,
                         std::uint64_t top_level) {
  return window * static_cast<std::uint64_t>(entry_bytes) + block_states * sizeof(std::uint32_t) +
         (top_level + 2) * sizeof(std::uint64_t);
}

std::optional<PartitionPlan> plan_partition(std::uint64_t entries, std::uint64_t max_offset,
                                            int entry_bytes, std::uint64_t top_level,
                                            std::uint64_t budget_bytes) {
  const std::uint64_t resident_block =
      std::min(entries, longest_block(entries, entry_bytes, top_level, budget_bytes));
  if (resident_block > 0 && resident_block >= std::min(entries, kMinResidentBlock)) {
    PartitionPlan plan{entries, ~std::uint64_t{0}, resident_block,
                       blocks_for(entries, resident_block), 0};
    plan.bytes = plan_bytes(plan.window, plan.block_states, entry_bytes, top_level);
    return plan;
  }
  std::optional<PartitionPlan> best;
  for (int p = 0; p < 63; ++p) {
    const std::uint64_t window = std::uint64_t{1} << p;
    if (window <= max_offset) continue;
    const std::uint64_t block =
        std::min({window - max_offset, entries,
                  longest_block(window, entry_bytes, top_level, budget_bytes)});
    if (block == 0) continue;
    if (!best || block > best->block_states) {
      best = PartitionPlan{window, window - 1, block, blocks_for(entries, block), 0};
      best->bytes = plan_bytes(window, block, entry_bytes, top_level);
    }
  }
  return best;
}

std::vector<RingRun> ring_runs(const PartitionPlan& plan, std::uint64_t begin, std::uint64_t end) {
  std::vector<RingRun> runs;
  std::uint64_t index = begin;
  while (index < end) {
    const std::uint64_t slot = index & plan.mask;
    const std::uint64_t room = plan.ring() ? plan.window - slot : end - index;
    const std::uint64_t count = std::min(end - index, room);
    runs.push_back(RingRun{index, slot, count});
    index += count;
  }
  return runs;
}

}  // namespace permbb::pcmax
