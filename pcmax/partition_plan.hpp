#pragma once
// How a DP table is cut into blocks when the memory that computes it (a GPU's) may not hold
// the whole table: Li et al. §III-C partition the table into blocks and process them in
// order, yet keep the whole table in device memory (their §V names keeping only the needed
// blocks as future work). Here the blocks are runs of consecutive row-major indices and only
// a window of the table stays resident:
//
//   * a state v depends on v - s, at most max_offset = max offset(s) indices earlier, so
//     while block [b, e) is computed only the indices [b - max_offset, e) are needed;
//   * the resident entries live in a ring of `window` = 2^p entries, index i in slot
//     i & (window - 1); with block length <= window - max_offset, the slots a block writes
//     are those of indices below b - max_offset, which nothing needs any more;
//   * after each block, its entries are copied to the host table (the backtracking needs
//     the whole table), so nothing ever goes back to the device.
//
// When the whole table fits, window = table size and the mask is all ones (the same code,
// no wrap-around); blocks then only bound the memory of the level buckets.
#include <cstdint>
#include <optional>
#include <vector>

namespace permbb::pcmax {

struct PartitionPlan {
  std::uint64_t window = 0;        // resident entries
  std::uint64_t mask = 0;          // slot of index i: i & mask (all ones: no ring)
  std::uint64_t block_states = 0;  // states per block (the last one may be shorter)
  std::uint64_t blocks = 0;
  std::uint64_t bytes = 0;  // resident entries + one block's level buckets

  bool ring() const { return mask != ~std::uint64_t{0}; }
};

// Bytes that a plan holds: window entries, block_states 32-bit bucket offsets and the level
// offsets (levels + 2 of 64 bits).
std::uint64_t plan_bytes(std::uint64_t window, std::uint64_t block_states, int entry_bytes,
                         std::uint64_t top_level);

// The plan for a table of `entries` entries within `budget_bytes`: the whole table resident
// when it fits with blocks of at least min(entries, kMinResidentBlock) states, else the ring
// whose power-of-two window gives the longest blocks. nullopt when not even a window of
// max_offset + 1 entries with one-state blocks fits: the table cannot be computed there.
std::optional<PartitionPlan> plan_partition(std::uint64_t entries, std::uint64_t max_offset,
                                            int entry_bytes, std::uint64_t top_level,
                                            std::uint64_t budget_bytes);

inline constexpr std::uint64_t kMinResidentBlock = 1 << 16;
// Blocks are at most this long: a block's level buckets are built in host memory too
// (4 bytes a state), and 2^28 states keep that at 1 GiB whatever the table's size.
inline constexpr std::uint64_t kMaxPlannedBlock = std::uint64_t{1} << 28;

// A block's indices [begin, end) as runs of ring slots: one run, or two when the block wraps
// around the end of the ring.
struct RingRun {
  std::uint64_t first_index;
  std::uint64_t first_slot;
  std::uint64_t count;
};
std::vector<RingRun> ring_runs(const PartitionPlan& plan, std::uint64_t begin, std::uint64_t end);

}  // namespace permbb::pcmax
