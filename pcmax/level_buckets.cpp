#include "level_buckets.hpp"

#include <algorithm>
#include <stdexcept>

namespace permbb::pcmax {
namespace {

// Walks the states begin, begin+1, ... with their digits and level, like an odometer.
class StateWalk {
 public:
  StateWalk(const TableShape& shape, std::uint64_t begin)
      : shape_(shape), digits_(shape.dims(), 0) {
    std::uint64_t rest = begin;
    for (int d = shape.dims() - 1; d >= 0; --d) {
      digits_[d] = static_cast<std::uint32_t>(rest % shape.extents()[d]);
      rest /= shape.extents()[d];
      level_ += digits_[d];
    }
  }

  std::uint64_t level() const { return level_; }

  void advance() {
    for (int d = shape_.dims() - 1; d >= 0; --d) {
      if (++digits_[d] < shape_.extents()[d]) {
        ++level_;
        return;
      }
      level_ -= digits_[d] - 1;
      digits_[d] = 0;
    }
  }

 private:
  const TableShape& shape_;
  std::vector<std::uint32_t> digits_;
  std::uint64_t level_ = 0;
};

}  // namespace

std::uint64_t top_level(const TableShape& shape) {
  std::uint64_t level = 0;
  for (const auto extent : shape.extents()) level += extent - 1;
  return level;
}

LevelBuckets build_level_buckets(const TableShape& shape, std::uint64_t begin, std::uint64_t end) {
  if (begin > end || end > shape.size() || end - begin > kMaxBlockStates) {
    throw std::invalid_argument("build_level_buckets: bad block");
  }
  LevelBuckets buckets;
  buckets.first_state = begin;
  const std::uint64_t count = end - begin;
  std::vector<std::uint64_t> per_level(top_level(shape) + 1, 0);
  std::uint64_t low = per_level.size();
  std::uint64_t high = 0;
  StateWalk walk(shape, begin);
  for (std::uint64_t i = 0; i < count; ++i, walk.advance()) {
    ++per_level[walk.level()];
    low = std::min(low, walk.level());
    high = std::max(high, walk.level());
  }
  if (count == 0) {
    buckets.level_begin = {0};
    return buckets;
  }
  buckets.first_level = low;
  buckets.level_begin.assign(high - low + 2, 0);
  for (std::uint64_t l = low; l <= high; ++l) {
    buckets.level_begin[l - low + 1] = buckets.level_begin[l - low] + per_level[l];
  }
  std::vector<std::uint64_t> next(buckets.level_begin.begin(), buckets.level_begin.end() - 1);
  buckets.states.resize(count);
  StateWalk again(shape, begin);
  for (std::uint64_t i = 0; i < count; ++i, again.advance()) {
    buckets.states[next[again.level() - low]++] = static_cast<std::uint32_t>(i);
  }
  return buckets;
}

}  // namespace permbb::pcmax
