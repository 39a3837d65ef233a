#include "johnson_tables.hpp"

#include <algorithm>
#include <numeric>

#include "lb1.hpp"

namespace permbb {
namespace {

// Johnson's rule for times (first, second): jobs with first < second come first, by
// increasing first; the others follow by decreasing second. Ties by job index, so the order
// (and every bound computed with it) is the same on every platform.
std::vector<int> johnson_order(const std::vector<Time>& first, const std::vector<Time>& second) {
  std::vector<int> order(first.size());
  std::iota(order.begin(), order.end(), 0);
  auto in_first_set = [&](int j) { return first[j] < second[j]; };
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
    const bool fx = in_first_set(x);
    const bool fy = in_first_set(y);
    if (fx != fy) return fx;
    if (fx) return first[x] < first[y];
    return second[x] > second[y];
  });
  return order;
}

}  // namespace

MachinePairs machine_pairs_for(BoundKind bound) {
  return bound == BoundKind::kLb2Adjacent ? MachinePairs::kAdjacent : MachinePairs::kAll;
}

JohnsonTables::JohnsonTables(const Instance& instance, MachinePairs pairs)
    : jobs_(instance.jobs()) {
  const int m = instance.machines();
  for (int a = 0; a < m; ++a) {
    for (int b = a + 1; b < m; ++b) {
      if (pairs == MachinePairs::kAdjacent && b != a + 1) continue;
      machine_a_.push_back(a);
      machine_b_.push_back(b);
    }
  }
  const int n = jobs_;
  sequence_.reserve(static_cast<size_t>(pair_count()) * n);
  std::vector<Time> lag(n);
  std::vector<Time> first(n);
  std::vector<Time> second(n);
  for (int pair = 0; pair < pair_count(); ++pair) {
    const int a = machine_a_[pair];
    const int b = machine_b_[pair];
    for (int j = 0; j < n; ++j) {
      lag[j] = 0;
      for (int k = a + 1; k < b; ++k) lag[j] += instance.time(k, j);
      first[j] = instance.time(a, j) + lag[j];
      second[j] = lag[j] + instance.time(b, j);
    }
    for (int j : johnson_order(first, second)) {
      sequence_.push_back({j, instance.time(a, j), lag[j], instance.time(b, j)});
    }
  }
}

JohnsonTables JohnsonTables::reordered(const std::vector<int>& order) const {
  JohnsonTables out = *this;
  const auto n = static_cast<std::size_t>(jobs_);
  for (std::size_t i = 0; i < order.size(); ++i) {
    const auto from = static_cast<std::size_t>(order[i]);
    out.machine_a_[i] = machine_a_[from];
    out.machine_b_[i] = machine_b_[from];
    std::copy_n(sequence_.begin() + static_cast<std::ptrdiff_t>(from * n), n,
                out.sequence_.begin() + static_cast<std::ptrdiff_t>(i * n));
  }
  return out;
}

std::vector<JohnsonEntry> JohnsonTables::sequence_with_stride(int stride) const {
  const auto n = static_cast<std::size_t>(jobs_);
  std::vector<JohnsonEntry> out(static_cast<std::size_t>(pair_count()) * stride, JohnsonEntry{});
  for (std::size_t pair = 0; pair < static_cast<std::size_t>(pair_count()); ++pair) {
    std::copy_n(sequence_.begin() + static_cast<std::ptrdiff_t>(pair * n), n,
                out.begin() + static_cast<std::ptrdiff_t>(pair * stride));
  }
  return out;
}

std::vector<int> pairs_by_root_bound(const FlowshopView& data, const JohnsonTables& johnson) {
  const int m = data.machines;
  std::vector<Time> front(m), back(m), remain(m);
  lb1_root(data, front.data(), back.data(), remain.data());
  const std::vector<unsigned char> scheduled(static_cast<std::size_t>(johnson.jobs()), 0);
  const JohnsonView view = johnson.view();
  std::vector<Time> bound(static_cast<std::size_t>(johnson.pair_count()));
  for (int pair = 0; pair < johnson.pair_count(); ++pair) {
    bound[pair] = johnson_pair_bound(view, pair, front.data(), back.data(), scheduled.data(), -1);
  }
  std::vector<int> order(bound.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return bound[x] > bound[y]; });
  return order;
}

JohnsonView JohnsonTables::view() const {
  JohnsonView v;
  v.pairs = pair_count();
  v.jobs = jobs_;
  v.machine_a = machine_a_.data();
  v.machine_b = machine_b_.data();
  v.sequence = sequence_.data();
  v.stride = jobs_;
  return v;
}

}  // namespace permbb
