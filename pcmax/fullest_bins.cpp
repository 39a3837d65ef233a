#include "fullest_bins.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

namespace permbb::pcmax {
namespace {

// The subset of `jobs` (indices into times) with the largest total at most `room`:
// reachable[i][s] says whether the first i jobs reach s, read back from the best s.
std::vector<int> fullest_subset(const std::vector<Duration>& times, const std::vector<int>& jobs,
                                Duration room) {
  const std::size_t width = static_cast<std::size_t>(room) + 1;
  std::vector<std::vector<char>> reachable(jobs.size() + 1, std::vector<char>(width, 0));
  reachable[0][0] = 1;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const auto t = static_cast<std::size_t>(times[jobs[i]]);
    reachable[i + 1] = reachable[i];
    for (std::size_t s = width; s-- > t;) {
      if (reachable[i][s - t]) reachable[i + 1][s] = 1;
    }
  }
  std::size_t s = width - 1;
  while (!reachable[jobs.size()][s]) --s;
  std::vector<int> chosen;
  for (std::size_t i = jobs.size(); i-- > 0;) {
    if (reachable[i][s]) continue;  // reached without job i
    chosen.push_back(jobs[i]);
    s -= static_cast<std::size_t>(times[jobs[i]]);
  }
  return chosen;
}

}  // namespace

std::optional<PcmaxSchedule> pack_fullest_bins(const PcmaxInstance& instance, Duration capacity,
                                               std::int64_t max_cells) {
  const int n = instance.jobs();
  if (static_cast<std::int64_t>(n) * (capacity + 1) > max_cells) return std::nullopt;
  std::vector<int> unplaced(static_cast<std::size_t>(n));
  std::iota(unplaced.begin(), unplaced.end(), 0);
  std::stable_sort(unplaced.begin(), unplaced.end(),
                   [&](int a, int b) { return instance.times[a] > instance.times[b]; });
  PcmaxSchedule s;
  s.machine_of_job.assign(static_cast<std::size_t>(n), -1);
  s.loads.assign(static_cast<std::size_t>(instance.machines), 0);
  for (int machine = 0; machine < instance.machines && !unplaced.empty(); ++machine) {
    const int first = unplaced.front();
    if (instance.times[first] > capacity) return std::nullopt;
    const std::vector<int> rest(unplaced.begin() + 1, unplaced.end());
    std::vector<int> chosen = fullest_subset(instance.times, rest, capacity - instance.times[first]);
    chosen.push_back(first);
    for (const int j : chosen) {
      s.machine_of_job[j] = machine;
      s.loads[machine] += instance.times[j];
    }
    std::erase_if(unplaced, [&](int j) { return s.machine_of_job[j] == machine; });
  }
  if (!unplaced.empty()) return std::nullopt;
  s.makespan = *std::max_element(s.loads.begin(), s.loads.end());
  return s;
}

}  // namespace permbb::pcmax
