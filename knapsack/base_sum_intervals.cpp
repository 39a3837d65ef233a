#include "base_sum_intervals.hpp"

#include <algorithm>

namespace permbb::knapsack {

BaseSumIntervals BaseSumIntervals::plus(std::int64_t base, int most, std::int64_t limit,
                                        std::int64_t most_intervals) const {
  std::vector<Interval> shifted;
  for (const Interval& v : intervals_) {
    for (std::int64_t k = 0; k <= most && v.low <= limit - k * base; ++k) {
      shifted.push_back({v.low + k * base, std::min(v.high, limit - k * base) + k * base});
    }
  }
  BaseSumIntervals result;
  result.intervals_ = joined(std::move(shifted), most_intervals);
  return result;
}

// Sorted and overlapping or touching intervals joined; then, while more than `most` are left,
// the pairs with the smallest gaps between them joined (a cover again, coarser).
std::vector<BaseSumIntervals::Interval> BaseSumIntervals::joined(std::vector<Interval> intervals,
                                                                 std::int64_t most) {
  std::sort(intervals.begin(), intervals.end(),
            [](const Interval& a, const Interval& b) { return a.low < b.low; });
  std::vector<Interval> out;
  for (const Interval& v : intervals) {
    if (!out.empty() && v.low <= out.back().high + 1) {
      out.back().high = std::max(out.back().high, v.high);
    } else {
      out.push_back(v);
    }
  }
  if (static_cast<std::int64_t>(out.size()) <= most) return out;
  std::vector<std::int64_t> gaps;
  for (std::size_t i = 1; i < out.size(); ++i) gaps.push_back(out[i].low - out[i - 1].high);
  const std::size_t joins = out.size() - static_cast<std::size_t>(most);
  std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(joins - 1),
                   gaps.end());
  const std::int64_t widest_joined = gaps[joins - 1];
  // Every gap narrower than the cut is joined, and as many equal to it as the count needs.
  std::size_t equal_left = joins;
  for (std::size_t i = 1; i < out.size(); ++i) {
    if (out[i].low - out[i - 1].high < widest_joined) --equal_left;
  }
  std::vector<Interval> coarse{out.front()};
  for (std::size_t i = 1; i < out.size(); ++i) {
    const std::int64_t gap = out[i].low - coarse.back().high;
    const bool join = gap < widest_joined || (gap == widest_joined && equal_left > 0);
    if (gap == widest_joined && join) --equal_left;
    if (join) {
      coarse.back().high = out[i].high;
    } else {
      coarse.push_back(out[i]);
    }
  }
  return coarse;
}

std::int64_t BaseSumIntervals::largest_at_most(std::int64_t x) const {
  const auto after = std::upper_bound(intervals_.begin(), intervals_.end(), x,
                                      [](std::int64_t v, const Interval& i) { return v < i.low; });
  if (after == intervals_.begin()) return -1;
  return std::min(std::prev(after)->high, x);
}

}  // namespace permbb::knapsack
