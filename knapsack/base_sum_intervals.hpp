#pragma once
#include <cstdint>
#include <vector>

namespace permbb::knapsack {

// A cover of the sums k_1 b_1 + ... + k_m b_m (0 <= k_j <= most_j) that stay within a limit,
// as at most a given number of disjoint intervals: every such sum lies in one of them (the
// converse need not hold: past the interval count, the closest neighbours are joined). The
// group search (group_search.hpp) asks it for a bound on the largest base sum of the groups
// not yet decided that fits the room left; on Jooken et al.'s instances these sums leave wide
// gaps below the capacity, which no bound over single items sees.
class BaseSumIntervals {
 public:
  BaseSumIntervals() : intervals_{{0, 0}} {}  // the empty sum

  // The sums of `this` plus k * base, k = 0..most, up to `limit`, in at most `most_intervals`.
  BaseSumIntervals plus(std::int64_t base, int most, std::int64_t limit,
                        std::int64_t most_intervals) const;

  // An upper bound on the largest covered sum <= x (x >= 0: the empty sum is always there).
  std::int64_t largest_at_most(std::int64_t x) const;

  std::int64_t size() const { return static_cast<std::int64_t>(intervals_.size()); }

 private:
  struct Interval {
    std::int64_t low;
    std::int64_t high;
  };
  static std::vector<Interval> joined(std::vector<Interval> intervals, std::int64_t most);
  std::vector<Interval> intervals_;  // sorted, disjoint
};

}  // namespace permbb::knapsack
