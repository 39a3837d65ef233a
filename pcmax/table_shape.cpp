#include "table_shape.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace permbb::pcmax {
namespace {

// How many of the class's jobs one machine can take.
std::uint64_t per_machine(const ClassCount& c, std::uint64_t capacity) {
  return std::min<std::uint64_t>(c.count, capacity / c.units);
}

}  // namespace

std::uint64_t TableShape::table_entries(const std::vector<ClassCount>& classes) {
  std::uint64_t size = 1;
  for (const auto& c : classes) {
    const std::uint64_t extent = static_cast<std::uint64_t>(c.count) + 1;
    if (size > kUnbounded / extent) return kUnbounded;
    size *= extent;
  }
  return size;
}

TableShape::TableShape(const std::vector<ClassCount>& classes, std::uint64_t capacity)
    : capacity_(capacity) {
  if (capacity == 0) throw std::invalid_argument("TableShape: zero capacity");
  if (classes.size() > static_cast<std::size_t>(kMaxClasses)) {
    throw std::invalid_argument("TableShape: more than kMaxClasses classes");
  }
  for (const auto& c : classes) {
    if (c.units == 0 || c.count == 0) throw std::invalid_argument("TableShape: empty class");
  }
  if (table_entries(classes) == kUnbounded) {
    throw std::invalid_argument("TableShape: 2^64 entries or more");
  }
  class_of_dim_.resize(classes.size());
  std::iota(class_of_dim_.begin(), class_of_dim_.end(), 0);
  // Ascending per_machine / (count + 1), compared as cross products; ties: larger units
  // first, then the class order.
  std::stable_sort(class_of_dim_.begin(), class_of_dim_.end(), [&](int a, int b) {
    const auto& ca = classes[a];
    const auto& cb = classes[b];
    const auto left = per_machine(ca, capacity) * (static_cast<std::uint64_t>(cb.count) + 1);
    const auto right = per_machine(cb, capacity) * (static_cast<std::uint64_t>(ca.count) + 1);
    if (left != right) return left < right;
    return ca.units > cb.units;
  });
  for (const int c : class_of_dim_) {
    extents_.push_back(classes[c].count + 1);
    units_.push_back(classes[c].units);
  }
  strides_.assign(extents_.size(), 1);
  for (int d = dims() - 2; d >= 0; --d) strides_[d] = strides_[d + 1] * extents_[d + 1];
  size_ = dims() == 0 ? 1 : strides_[0] * extents_[0];
}

TableShapeView TableShape::view() const {
  return TableShapeView{dims(), extents_.data(), units_.data(), strides_.data(), capacity_};
}

}  // namespace permbb::pcmax
