#include "lower_bounds.hpp"

#include <algorithm>
#include <functional>
#include <numeric>

namespace permbb::pcmax {
namespace {

// The sorted times with their prefix sums: how many exceed x, and sums of runs.
struct SortedTimes {
  const std::vector<Duration>& t;                 // longest first
  std::vector<Duration> prefix;                   // prefix[i] = t[0] + ... + t[i-1]

  explicit SortedTimes(const std::vector<Duration>& times) : t(times), prefix(times.size() + 1, 0) {
    for (std::size_t i = 0; i < t.size(); ++i) prefix[i + 1] = prefix[i] + t[i];
  }
  // Jobs with time > x: a prefix of the sorted times (longest first, so lower_bound under
  // greater<> finds the first time <= x).
  std::int64_t count_above(Duration x) const {
    return std::lower_bound(t.begin(), t.end(), x, std::greater<>()) - t.begin();
  }
  // Jobs with time >= x.
  std::int64_t count_at_least(Duration x) const {
    return std::upper_bound(t.begin(), t.end(), x, std::greater<>()) - t.begin();
  }
};

Duration counting_bound(const SortedTimes& s, std::int64_t machines) {
  const auto n = static_cast<std::int64_t>(s.t.size());
  Duration best = 0;
  for (std::int64_t k = 1; k * machines + 1 <= n; ++k) {
    // t_{km+1} and the k before it (1-based), longest first: the k + 1 shortest of the
    // k m + 1 longest jobs, 0-based indices km - k .. km.
    const std::int64_t last = k * machines;
    best = std::max(best, s.prefix[last + 1] - s.prefix[last - k]);
  }
  return best;
}

}  // namespace

Duration LowerBounds::best() const { return std::max({simple, counting, bin_packing}); }

std::vector<Duration> times_longest_first(const PcmaxInstance& instance) {
  std::vector<Duration> t = instance.times;
  std::sort(t.begin(), t.end(), std::greater<>());
  return t;
}

std::int64_t bin_packing_bound(const std::vector<Duration>& longest_first, Duration capacity) {
  const auto n = static_cast<std::int64_t>(longest_first.size());
  if (n == 0) return 0;
  if (longest_first.front() > capacity) return n + 1;
  const SortedTimes s(longest_first);
  const Duration half = capacity / 2;  // t <= C/2 exactly when t <= floor(C/2)
  const std::int64_t above_half = s.count_above(half);
  std::int64_t best = above_half;
  // K = 0 and every distinct time <= C/2, increasing; K = 0 puts all jobs <= C/2 in J3.
  std::vector<Duration> ks{0};
  for (std::int64_t i = n - 1; i >= above_half; --i) {
    if (ks.back() != longest_first[i]) ks.push_back(longest_first[i]);
  }
  for (const Duration k : ks) {
    const std::int64_t j1 = s.count_above(capacity - k);            // t > C - K
    const std::int64_t j12 = above_half;                            // t > C/2 (K <= C/2)
    const Duration sum_j2 = s.prefix[j12] - s.prefix[j1];
    const std::int64_t j2 = j12 - j1;
    const std::int64_t j123 = k == 0 ? n : s.count_at_least(k);    // t >= K
    const Duration sum_j3 = s.prefix[j123] - s.prefix[j12];
    const Duration excess = sum_j3 - (j2 * capacity - sum_j2);
    const std::int64_t extra = excess > 0 ? (excess + capacity - 1) / capacity : 0;
    best = std::max(best, j12 + extra);
  }
  return best;
}

LowerBounds compute_lower_bounds(const PcmaxInstance& instance, std::int64_t max_ascent_steps) {
  LowerBounds bounds;
  bounds.simple = simple_lower_bound(instance);
  const std::vector<Duration> t = times_longest_first(instance);
  bounds.counting = counting_bound(SortedTimes(t), instance.machines);
  Duration capacity = std::max(bounds.simple, bounds.counting);
  // Each step costs O(n log n) at most: on huge instances the ascent stops early (the bound
  // reached is still valid).
  const std::int64_t affordable = std::int64_t{1} << 26;
  const std::int64_t step_limit =
      std::min(max_ascent_steps, affordable / static_cast<std::int64_t>(t.size()) + 1);
  std::int64_t steps = 0;
  while (bin_packing_bound(t, capacity) > instance.machines) {
    if (++steps > step_limit) {
      bounds.bin_packing_ascent_finished = false;
      break;
    }
    ++capacity;  // capacity was shown infeasible
  }
  bounds.bin_packing = capacity;
  return bounds;
}

}  // namespace permbb::pcmax
