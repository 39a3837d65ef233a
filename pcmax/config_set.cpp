#include "config_set.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <tuple>

namespace permbb::pcmax {
namespace {

// Depth-first over the dimensions: at dimension d, every count that still fits. Calls
// visit(counts, load) for each complete vector, the zero vector included; stops early when
// visit returns false.
template <class Visit>
bool enumerate(const TableShape& shape, int d, std::vector<std::uint32_t>& counts,
               std::uint64_t load, Visit& visit) {
  if (d == shape.dims()) return visit(counts, load);
  const std::uint64_t room = (shape.capacity() - load) / shape.units()[d];
  const std::uint64_t most = std::min<std::uint64_t>(shape.extents()[d] - 1, room);
  for (std::uint64_t s = 0; s <= most; ++s) {
    counts[d] = static_cast<std::uint32_t>(s);
    if (!enumerate(shape, d + 1, counts, load + s * shape.units()[d], visit)) return false;
  }
  counts[d] = 0;
  return true;
}

struct Candidate {
  std::uint64_t load;
  std::vector<std::uint32_t> counts;
};

}  // namespace

std::uint64_t ConfigSet::count_configurations(const TableShape& shape, std::uint64_t max_count) {
  std::uint64_t seen = 0;  // the zero vector included
  auto visit = [&](const std::vector<std::uint32_t>&, std::uint64_t) {
    return ++seen <= max_count + 1;
  };
  std::vector<std::uint32_t> counts(shape.dims(), 0);
  enumerate(shape, 0, counts, 0, visit);
  return std::min(seen - 1, max_count + 1);
}

ConfigSet::ConfigSet(const TableShape& shape, std::uint64_t max_count, const RunControl* control) {
  std::vector<Candidate> found;
  auto visit = [&](const std::vector<std::uint32_t>& counts, std::uint64_t load) {
    throw_if_stopped(control);
    if (load == 0) return true;  // the zero vector is no configuration
    if (found.size() >= max_count) throw std::length_error("ConfigSet: too many configurations");
    found.push_back(Candidate{load, counts});
    return true;
  };
  std::vector<std::uint32_t> counts(shape.dims(), 0);
  enumerate(shape, 0, counts, 0, visit);
  // Decreasing load, then lexicographically larger first: a fixed order, so every DP and the
  // backtracking see the same configurations in the same order. The sort is most of the
  // time, so it polls the stop too: a throwing comparison leaves `found` valid, and it goes.
  std::sort(found.begin(), found.end(), [&](const Candidate& a, const Candidate& b) {
    throw_if_stopped(control);
    return std::tie(a.load, a.counts) > std::tie(b.load, b.counts);
  });
  begin_.push_back(0);
  for (const auto& candidate : found) {
    std::uint64_t offset = 0;
    for (int d = 0; d < shape.dims(); ++d) {
      const std::uint32_t s = candidate.counts[d];
      if (s == 0) continue;
      if (s > 0xffffu) throw std::length_error("ConfigSet: a count does not fit 16 bits");
      entries_.push_back((static_cast<std::uint32_t>(d) << 16) | s);
      offset += s * shape.strides()[d];
    }
    begin_.push_back(static_cast<std::uint32_t>(entries_.size()));
    offsets_.push_back(offset);
    max_offset_ = std::max(max_offset_, offset);
  }
}

std::vector<std::uint32_t> ConfigSet::digits(int c, int dims) const {
  std::vector<std::uint32_t> out(dims, 0);
  for (std::uint32_t e = begin_[c]; e < begin_[c + 1]; ++e) {
    out[entry_dim(entries_[e])] = entry_count(entries_[e]);
  }
  return out;
}

std::uint64_t ConfigSet::bytes() const {
  return begin_.size() * sizeof(std::uint32_t) + entries_.size() * sizeof(std::uint32_t) +
         offsets_.size() * sizeof(std::uint64_t);
}

ConfigSetView ConfigSet::view() const {
  return ConfigSetView{count(), begin_.data(), entries_.data(), offsets_.data()};
}

}  // namespace permbb::pcmax
