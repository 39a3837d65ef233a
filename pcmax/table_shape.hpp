#pragma once
// The DP table's dimensions: one per nonempty job class, extent n_d + 1, row-major with the
// last dimension fastest. The order of the dimensions is ours to choose (the values do not
// depend on it); it is chosen so that configurations reach back as few entries as possible
// (ConfigSet::max_offset), which is what a partitioned table must keep resident
// (partition_plan.hpp): dimensions whose jobs fit a machine in small numbers relative to
// their count go first (slowest).
#include <cstdint>
#include <limits>
#include <vector>

#include "dp_step.hpp"

namespace permbb::pcmax {

struct ClassCount {
  std::uint32_t units = 0;  // rounded time in units of delta, >= 1
  std::uint32_t count = 0;  // jobs in the class, >= 1
};

class TableShape {
 public:
  static constexpr std::uint64_t kUnbounded = std::numeric_limits<std::uint64_t>::max();

  // Throws std::invalid_argument for a zero count or unit, or more than kMaxClasses classes
  // (callers check table_entries first), or a table of 2^64 entries or more.
  TableShape(const std::vector<ClassCount>& classes, std::uint64_t capacity);

  // prod (count + 1), or kUnbounded when that does not fit in 64 bits.
  static std::uint64_t table_entries(const std::vector<ClassCount>& classes);

  int dims() const { return static_cast<int>(extents_.size()); }
  std::uint64_t size() const { return size_; }
  std::uint64_t capacity() const { return capacity_; }
  const std::vector<int>& class_of_dim() const { return class_of_dim_; }
  const std::vector<std::uint32_t>& extents() const { return extents_; }
  const std::vector<std::uint32_t>& units() const { return units_; }
  const std::vector<std::uint64_t>& strides() const { return strides_; }

  // The state holding every job: the last entry.
  std::uint64_t full_state() const { return size_ - 1; }

  TableShapeView view() const;

 private:
  std::vector<int> class_of_dim_;
  std::vector<std::uint32_t> extents_;
  std::vector<std::uint32_t> units_;
  std::vector<std::uint64_t> strides_;
  std::uint64_t size_ = 1;
  std::uint64_t capacity_ = 1;
};

}  // namespace permbb::pcmax
