#pragma once
// Independent reference code for the P||Cmax tests, written without any of the PTAS's code:
// an exact branch-and-bound for the optimal makespan, a schedule checker, LPT's makespan, a
// memoized recursion for the configuration DP, and random problems.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <numeric>
#include <random>
#include <vector>

#include "pcmax_instance.hpp"

namespace permbb::pcmax::testing {

// Optimal makespan of `times` on `machines` machines: jobs longest first, each onto every
// machine whose load differs from the machines before it (equal loads are symmetric),
// pruned by the best makespan so far. For small n.
inline std::int64_t exact_makespan(std::vector<std::int64_t> times, int machines) {
  std::sort(times.rbegin(), times.rend());
  const std::int64_t total = std::accumulate(times.begin(), times.end(), std::int64_t{0});
  const std::int64_t bound = std::max(times.front(), (total + machines - 1) / machines);
  std::int64_t best = total;  // everything on one machine
  std::vector<std::int64_t> loads(machines, 0);
  std::function<void(std::size_t, std::int64_t)> place = [&](std::size_t job,
                                                             std::int64_t makespan) {
    if (best == bound) return;
    if (job == times.size()) {
      best = std::min(best, makespan);
      return;
    }
    for (int i = 0; i < machines; ++i) {
      bool seen = false;
      for (int j = 0; j < i; ++j) seen = seen || loads[j] == loads[i];
      if (seen || loads[i] + times[job] >= best) continue;
      loads[i] += times[job];
      place(job + 1, std::max(makespan, loads[i]));
      loads[i] -= times[job];
    }
  };
  place(0, 0);
  return best;
}

// Every job on exactly one machine in [0, machines); the makespan is the largest load.
// Returns the recomputed makespan, or -1 when the schedule is not valid.
inline std::int64_t checked_makespan(const std::vector<std::int64_t>& times, int machines,
                                     const std::vector<int>& machine_of_job) {
  if (machine_of_job.size() != times.size()) return -1;
  std::vector<std::int64_t> loads(machines, 0);
  for (std::size_t j = 0; j < times.size(); ++j) {
    if (machine_of_job[j] < 0 || machine_of_job[j] >= machines) return -1;
    loads[machine_of_job[j]] += times[j];
  }
  return *std::max_element(loads.begin(), loads.end());
}

// The makespan of LPT (Graham): jobs longest first, each onto a machine of least load.
inline std::int64_t lpt_makespan(std::vector<std::int64_t> times, int machines) {
  std::sort(times.rbegin(), times.rend());
  std::vector<std::int64_t> loads(machines, 0);
  for (const std::int64_t t : times) *std::min_element(loads.begin(), loads.end()) += t;
  return *std::max_element(loads.begin(), loads.end());
}

// The DP of Li et al. Eq. 1 by memoized recursion over count vectors, the configurations
// enumerated per state: OPT(v) = 1 + min over nonzero s <= v with sum s_i u_i <= capacity
// of OPT(v - s); OPT(0) = 0; kInfinite when no configuration fits.
class ReferenceDp {
 public:
  static constexpr int kInfinite = 1 << 30;

  ReferenceDp(std::vector<std::uint32_t> units, std::uint64_t capacity)
      : units_(std::move(units)), capacity_(capacity) {}

  int opt(const std::vector<std::uint32_t>& v) {
    if (std::all_of(v.begin(), v.end(), [](std::uint32_t x) { return x == 0; })) return 0;
    if (const auto it = memo_.find(v); it != memo_.end()) return it->second;
    int best = kInfinite;
    std::vector<std::uint32_t> s(v.size(), 0);
    subtract_all(v, s, 0, 0, best);
    const int value = best == kInfinite ? kInfinite : best + 1;
    memo_[v] = value;
    return value;
  }

 private:
  void subtract_all(const std::vector<std::uint32_t>& v, std::vector<std::uint32_t>& s,
                    std::size_t i, std::uint64_t load, int& best) {
    if (i == v.size()) {
      if (load == 0) return;
      std::vector<std::uint32_t> rest(v.size());
      for (std::size_t d = 0; d < v.size(); ++d) rest[d] = v[d] - s[d];
      best = std::min(best, opt(rest));
      return;
    }
    for (std::uint32_t c = 0; c <= v[i] && load + c * units_[i] <= capacity_; ++c) {
      s[i] = c;
      subtract_all(v, s, i + 1, load + c * units_[i], best);
    }
    s[i] = 0;
  }

  std::vector<std::uint32_t> units_;
  std::uint64_t capacity_;
  std::map<std::vector<std::uint32_t>, int> memo_;
};

// Every count vector 0 <= v <= counts, in any order.
inline void for_each_vector(const std::vector<std::uint32_t>& counts,
                            const std::function<void(const std::vector<std::uint32_t>&)>& visit) {
  std::vector<std::uint32_t> v(counts.size(), 0);
  while (true) {
    visit(v);
    std::size_t d = 0;
    while (d < v.size() && v[d] == counts[d]) v[d++] = 0;
    if (d == v.size()) return;
    ++v[d];
  }
}

// A random small configuration space: classes with units in [1, max_units], counts in
// [1, max_count], a capacity of at least the largest unit (every job fits alone, as in the
// PTAS) unless `tight` allows smaller.
struct RandomSpace {
  std::vector<std::uint32_t> units;
  std::vector<std::uint32_t> counts;
  std::uint64_t capacity = 1;
};

inline RandomSpace random_space(std::mt19937_64& rng, int classes, std::uint32_t max_units,
                                std::uint32_t max_count, bool tight = false) {
  RandomSpace space;
  std::uint32_t largest = 1;
  for (int c = 0; c < classes; ++c) {
    space.units.push_back(1 + static_cast<std::uint32_t>(rng() % max_units));
    space.counts.push_back(1 + static_cast<std::uint32_t>(rng() % max_count));
    largest = std::max(largest, space.units.back());
  }
  const std::uint64_t low = tight ? 1 : largest;
  space.capacity = low + rng() % (3 * static_cast<std::uint64_t>(max_units));
  return space;
}

// `jobs` times uniform in [1, max_time] on `machines` machines.
inline PcmaxInstance random_instance(std::mt19937_64& rng, int jobs, int machines,
                                     std::int64_t max_time) {
  PcmaxInstance instance{"random", machines, {}};
  for (int j = 0; j < jobs; ++j) {
    instance.times.push_back(1 + static_cast<std::int64_t>(rng() % max_time));
  }
  return instance;
}

}  // namespace permbb::pcmax::testing
