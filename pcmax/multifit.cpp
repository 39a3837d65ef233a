#include "multifit.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

namespace permbb::pcmax {
namespace {

// The largest residual capacity of each subtree of bins, so that the first bin with room for
// t is found from the root in O(log m): left child first.
class FirstFitTree {
 public:
  FirstFitTree(int bins, Duration capacity) : leaves_(1) {
    while (leaves_ < bins) leaves_ *= 2;
    room_.assign(2 * static_cast<std::size_t>(leaves_), -1);  // padding leaves take nothing
    for (int b = 0; b < bins; ++b) room_[leaves_ + b] = capacity;
    for (int node = leaves_ - 1; node >= 1; --node) pull(node);
  }

  // The first bin with residual capacity >= t, or -1.
  int first_with_room(Duration t) const {
    if (room_[1] < t) return -1;
    int node = 1;
    while (node < leaves_) node = room_[2 * node] >= t ? 2 * node : 2 * node + 1;
    return node - leaves_;
  }

  void take(int bin, Duration t) {
    int node = leaves_ + bin;
    room_[node] -= t;
    for (node /= 2; node >= 1; node /= 2) pull(node);
  }

 private:
  void pull(int node) { room_[node] = std::max(room_[2 * node], room_[2 * node + 1]); }

  int leaves_;
  std::vector<Duration> room_;
};

std::vector<int> jobs_longest_first(const PcmaxInstance& instance) {
  std::vector<int> jobs(instance.times.size());
  std::iota(jobs.begin(), jobs.end(), 0);
  std::stable_sort(jobs.begin(), jobs.end(),
                   [&](int a, int b) { return instance.times[a] > instance.times[b]; });
  return jobs;
}

bool pack(const PcmaxInstance& instance, const std::vector<int>& order, Duration capacity,
          PcmaxSchedule& schedule) {
  FirstFitTree tree(instance.machines, capacity);
  schedule.machine_of_job.assign(instance.times.size(), -1);
  schedule.loads.assign(static_cast<std::size_t>(instance.machines), 0);
  for (const int job : order) {
    const int bin = tree.first_with_room(instance.times[job]);
    if (bin < 0) return false;
    tree.take(bin, instance.times[job]);
    schedule.machine_of_job[job] = bin;
    schedule.loads[bin] += instance.times[job];
  }
  schedule.makespan = *std::max_element(schedule.loads.begin(), schedule.loads.end());
  return true;
}

}  // namespace

bool first_fit_decreasing(const PcmaxInstance& instance, Duration capacity,
                          PcmaxSchedule& schedule) {
  return pack(instance, jobs_longest_first(instance), capacity, schedule);
}

PcmaxSchedule build_multifit_schedule(const PcmaxInstance& instance, int iterations) {
  const Duration total = std::accumulate(instance.times.begin(), instance.times.end(), Duration{0});
  const Duration longest = *std::max_element(instance.times.begin(), instance.times.end());
  const Duration m = instance.machines;
  Duration low = std::max((total + m - 1) / m, longest);
  Duration high = std::max((2 * total + m - 1) / m, longest);
  const std::vector<int> order = jobs_longest_first(instance);
  PcmaxSchedule best;
  PcmaxSchedule trial;
  pack(instance, order, high, best);  // succeeds (multifit.hpp)
  for (int i = 0; i < iterations && low < high; ++i) {
    const Duration capacity = low + (high - low) / 2;
    if (pack(instance, order, capacity, trial)) {
      high = capacity;
      if (trial.makespan < best.makespan) best = trial;
    } else {
      low = capacity + 1;
    }
  }
  return best;
}

}  // namespace permbb::pcmax
