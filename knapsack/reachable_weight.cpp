#include "reachable_weight.hpp"

#include <algorithm>
#include <functional>

namespace permbb::knapsack {
namespace {

struct Interval {
  std::int64_t lo;
  std::int64_t hi;
};

// Appends [lo, hi] to `out` (sorted by lo), joining it to the last interval when they overlap
// or touch.
void append(std::vector<Interval>& out, std::int64_t lo, std::int64_t hi) {
  if (!out.empty() && lo <= out.back().hi + 1) {
    out.back().hi = std::max(out.back().hi, hi);
  } else {
    out.push_back({lo, hi});
  }
}

// `sums` ∪ (`sums` + w), both sorted, merged in one pass; sums above `capacity` dropped (a
// sum above it stays above it with more items).
void add_item(const std::vector<Interval>& sums, std::int64_t w, std::int64_t capacity,
              std::vector<Interval>& out) {
  out.clear();
  std::size_t a = 0, b = 0;
  while (a < sums.size() || b < sums.size()) {
    const bool shifted = a == sums.size() || (b < sums.size() && sums[b].lo + w < sums[a].lo);
    const Interval next = shifted ? Interval{sums[b].lo + w, sums[b].hi + w} : sums[a];
    (shifted ? b : a)++;
    if (next.lo > capacity) {
      if (shifted) break;  // every later shifted interval starts higher still
      continue;
    }
    append(out, next.lo, std::min(next.hi, capacity));
  }
}

// Merges across the smallest gaps until at most half of `max_intervals` remain, so that the
// coarsening runs once per many items. The set only grows.
void coarsen(std::vector<Interval>& sums, std::int64_t max_intervals) {
  std::vector<std::int64_t> gaps;
  gaps.reserve(sums.size());
  for (std::size_t i = 1; i < sums.size(); ++i) gaps.push_back(sums[i].lo - sums[i - 1].hi);
  const std::size_t keep = static_cast<std::size_t>(std::max<std::int64_t>(max_intervals / 2, 1));
  const std::size_t merges = sums.size() - keep;
  std::nth_element(gaps.begin(), gaps.begin() + (merges - 1), gaps.end());
  const std::int64_t widest_merged = gaps[merges - 1];
  std::vector<Interval> merged;
  merged.reserve(keep + 1);
  for (const Interval& s : sums) {
    if (!merged.empty() && s.lo - merged.back().hi <= widest_merged) {
      merged.back().hi = s.hi;
    } else {
      merged.push_back(s);
    }
  }
  sums.swap(merged);
}

}  // namespace

std::int64_t reachable_weight_bound(const std::vector<std::int64_t>& weights,
                                    std::int64_t capacity, std::int64_t max_intervals) {
  // The heaviest first: their sums form the coarse clusters that the light items then widen,
  // so the merging joins intervals within a cluster before it joins clusters.
  std::vector<std::int64_t> order = weights;
  std::sort(order.begin(), order.end(), std::greater<>());
  std::vector<Interval> sums{{0, 0}};
  std::vector<Interval> next;
  for (const std::int64_t w : order) {
    add_item(sums, w, capacity, next);
    sums.swap(next);
    if (static_cast<std::int64_t>(sums.size()) > max_intervals) coarsen(sums, max_intervals);
  }
  return sums.back().hi;
}

}  // namespace permbb::knapsack
