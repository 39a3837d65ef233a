#pragma once
#include <cstdint>

namespace permbb::knapsack {

// The most list slots any backend takes (the GPU compaction scans 32-bit counts of an int
// number of slots).
inline constexpr std::int64_t kMaxListSlots = std::int64_t{1} << 30;

// The share of the memory (host for the CPU, device for the GPU) the node list may take by
// default (--memory-fraction).
inline constexpr double kDefaultMemoryFraction = 0.25;

// Bytes of one slot of a host node list: four 64-bit fields, the 32-bit slack item and the
// decision record.
std::int64_t host_bytes_per_slot(int words_per_node);

// max_list_nodes for a memory budget: fraction * memory_bytes / bytes_per_slot, within
// [2, kMaxListSlots].
std::int64_t list_slots_for_memory(std::int64_t memory_bytes, double fraction,
                                   std::int64_t bytes_per_slot);

// This machine's physical memory (sysconf), or 0 when unknown.
std::int64_t physical_memory_bytes();

}  // namespace permbb::knapsack
