#pragma once
// The machine configurations of one target T (Li et al. §II, the set C): every nonzero
// vector s with s_d <= n_d and sum s_d * units_d <= capacity, precomputed once per T and
// shared by all states (Algorithm 2 regenerates them per state, line 17). Stored sparse (a
// configuration has at most capacity / k nonzero digits), with offset(s) = sum s_d * stride_d
// so that the state v - s is index(v) - offset(s).
#include <cstdint>
#include <vector>

#include "dp_step.hpp"
#include "run_control.hpp"
#include "table_shape.hpp"

namespace permbb::pcmax {

class ConfigSet {
 public:
  // Throws std::length_error when there are more than `max_count` configurations (callers
  // check count_configurations first and say what to change), RunStopped when `control` asks
  // for a stop: millions of configurations take seconds to enumerate and sort.
  ConfigSet(const TableShape& shape, std::uint64_t max_count, const RunControl* control = nullptr);

  // The number of configurations, or max_count + 1 if there are more (counting stops there).
  static std::uint64_t count_configurations(const TableShape& shape, std::uint64_t max_count);

  int count() const { return static_cast<int>(offsets_.size()); }
  std::uint64_t max_offset() const { return max_offset_; }
  std::uint64_t offset(int c) const { return offsets_[c]; }
  // Configuration c as per-dimension counts (for the schedule and the tests).
  std::vector<std::uint32_t> digits(int c, int dims) const;
  std::uint64_t bytes() const;

  ConfigSetView view() const;

 private:
  std::vector<std::uint32_t> begin_;
  std::vector<std::uint32_t> entries_;
  std::vector<std::uint64_t> offsets_;
  std::uint64_t max_offset_ = 0;
};

}  // namespace permbb::pcmax
