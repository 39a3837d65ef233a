#pragma once
// One state of the configuration DP (Li et al. Eq. 1), written once for the CPU and the GPU:
//
//   OPT(0) = 0,   OPT(v) = 1 + min { OPT(v - s) : s in C, s <= v }
//
// where v counts the long jobs left per class and C holds the nonzero machine configurations
// (per-class counts whose rounded load fits in T). The table is row-major over the classes
// (the last dimension fastest), so v - s sits at index(v) - offset(s), offset(s) = sum of
// s_d * stride_d, precomputed per configuration: no table search (the cost Li et al. §III-B
// attack with their partitioning). Entries saturate at `limit` (= machines + 1, or the long
// job count + 1 when that is smaller): any value >= limit is stored as limit, "more than m
// machines", which is all the PTAS needs to know.
//
// Every state v - s has a smaller digit sum (level) than v, so the states of one level are
// independent; the CPU and GPU DPs evaluate level by level, each state with evaluate_state.
#include <cstdint>

#include "host_device.hpp"

namespace permbb::pcmax {

// A table with d nonempty classes has at least 2^d entries: 40 classes are more than a
// terabyte of table, refused long before (memory_budget.hpp), so this fixed bound on the
// digits a thread decodes never binds a table that could be built.
inline constexpr int kMaxClasses = 40;

// The table's dimensions, as plain arrays (host or device memory).
struct TableShapeView {
  int dims = 0;
  const std::uint32_t* extents = nullptr;  // n_d + 1
  const std::uint32_t* units = nullptr;    // rounded time of class d, in units of delta
  const std::uint64_t* strides = nullptr;  // row-major; strides[dims-1] = 1
  std::uint64_t capacity = 1;              // a machine's units, >= 1
};

// The configurations, sparse: configuration c's nonzero counts are entries[begin[c] ..
// begin[c+1]), each (dim << 16) | count. Ordered by decreasing load, so a full machine is
// tried first and the lower-bound cut below comes early.
struct ConfigSetView {
  int count = 0;
  const std::uint32_t* begin = nullptr;
  const std::uint32_t* entries = nullptr;
  const std::uint64_t* offsets = nullptr;  // index(v) - index(v - s)
};

PERMBB_HD int entry_dim(std::uint32_t entry) {
  return static_cast<int>(entry >> 16);
}
PERMBB_HD std::uint32_t entry_count(std::uint32_t entry) {
  return entry & 0xffffu;
}

// The digits of a state (per-class counts) into `digits`; returns its load in units. 32-bit
// division when the index allows it: 64-bit division is many instructions on a GPU.
PERMBB_HD std::uint64_t decode_state(const TableShapeView& shape, std::uint64_t index,
                                     std::uint32_t* digits) {
  std::uint64_t load = 0;
  if (index <= 0xffffffffull) {
    auto rest = static_cast<std::uint32_t>(index);
    for (int d = shape.dims - 1; d >= 0; --d) {
      digits[d] = rest % shape.extents[d];
      rest /= shape.extents[d];
      load += static_cast<std::uint64_t>(digits[d]) * shape.units[d];
    }
  } else {
    for (int d = shape.dims - 1; d >= 0; --d) {
      digits[d] = static_cast<std::uint32_t>(index % shape.extents[d]);
      index /= shape.extents[d];
      load += static_cast<std::uint64_t>(digits[d]) * shape.units[d];
    }
  }
  return load;
}

// The level of a state: its digit sum, the long jobs it holds. The GPU buckets a block's
// states by level with it (pcmax/gpu/device_level_buckets.cu); the host walks the digits
// like an odometer instead (level_buckets.cpp), which is cheaper in sequence.
PERMBB_HD std::uint32_t state_level(const TableShapeView& shape, std::uint64_t index) {
  std::uint32_t digits[kMaxClasses];
  decode_state(shape, index, digits);
  std::uint32_t level = 0;
  for (int d = 0; d < shape.dims; ++d) level += digits[d];
  return level;
}

// s_c <= v, digit by digit (only s_c's nonzero digits need a look).
PERMBB_HD bool config_fits(const ConfigSetView& configs, int c, const std::uint32_t* digits) {
  for (std::uint32_t e = configs.begin[c]; e < configs.begin[c + 1]; ++e) {
    const std::uint32_t entry = configs.entries[e];
    if (entry_count(entry) > digits[entry_dim(entry)]) return false;
  }
  return true;
}

// Machines needed at least: the load over the capacity, rounded up.
PERMBB_HD std::uint64_t machines_lower_bound(std::uint64_t load, std::uint64_t capacity) {
  return (load + capacity - 1) / capacity;
}

// min(OPT(index), limit). `lookup(i)` reads the finished entry of state i (any smaller
// index); `limit` <= the entry type's maximum. The loop stops when 1 + best reaches the load
// bound, which OPT cannot beat; a state whose bound reaches `limit` is not searched at all.
template <class Lookup>
PERMBB_HD std::uint32_t evaluate_state(const TableShapeView& shape, const ConfigSetView& configs,
                                       std::uint64_t index, const Lookup& lookup,
                                       std::uint32_t limit) {
  if (index == 0) return 0;
  std::uint32_t digits[kMaxClasses];
  const std::uint64_t bound =
      machines_lower_bound(decode_state(shape, index, digits), shape.capacity);
  if (bound >= limit) return limit;
  std::uint32_t best = limit;  // min OPT(v - s) so far, saturated
  for (int c = 0; c < configs.count; ++c) {
    if (!config_fits(configs, c, digits)) continue;
    const std::uint32_t value = lookup(index - configs.offsets[c]);
    if (value < best) {
      best = value;
      if (best + 1 <= bound) break;
    }
  }
  return best + 1 < limit ? best + 1 : limit;
}

// For the backtracking: the first configuration c <= v with OPT(v - s_c) = OPT(v) - 1, for a
// state whose value is below the limit (exact); -1 if none (a corrupt table).
template <class Lookup>
PERMBB_HD int predecessor_config(const TableShapeView& shape, const ConfigSetView& configs,
                                 std::uint64_t index, const Lookup& lookup) {
  std::uint32_t digits[kMaxClasses];
  decode_state(shape, index, digits);
  const std::uint32_t value = lookup(index);
  for (int c = 0; c < configs.count; ++c) {
    if (config_fits(configs, c, digits) && lookup(index - configs.offsets[c]) + 1 == value) {
      return c;
    }
  }
  return -1;
}

// Table reads: straight (host table, or a device table holding every state) or through the
// ring of a partitioned table (mask = window - 1, window a power of two; an all-ones mask
// reads straight).
template <class Entry>
struct TableLookup {
  const Entry* table;
  std::uint64_t mask;
  PERMBB_HD std::uint32_t operator()(std::uint64_t index) const { return table[index & mask]; }
};

}  // namespace permbb::pcmax
