#include "neh.hpp"

#include <algorithm>
#include <numeric>

namespace permbb {

std::vector<int> neh_order(const Instance& instance) {
  const int n = instance.jobs();
  std::vector<Time> total(static_cast<std::size_t>(n), 0);
  for (int k = 0; k < instance.machines(); ++k) {
    for (int job = 0; job < n; ++job) total[job] += instance.time(k, job);
  }
  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&total](int a, int b) { return total[a] != total[b] ? total[a] > total[b] : a < b; });
  return order;
}

Schedule insert_all(const Instance& instance, const std::vector<int>& order,
                    const StopCheck& stop) {
  Schedule schedule{{}, 0};  // no job yet: the empty schedule ends at 0
  schedule.permutation.reserve(order.size());
  InsertionWorkspace workspace(instance);
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (stop && stop()) {
      schedule.permutation.insert(schedule.permutation.end(), order.begin() + k, order.end());
      schedule.makespan = makespan(instance, schedule.permutation);
      return schedule;
    }
    const Insertion at = best_insertion(instance, schedule.permutation, order[k], workspace);
    schedule.permutation.insert(schedule.permutation.begin() + at.position, order[k]);
    schedule.makespan = at.makespan;
  }
  return schedule;
}

Schedule neh(const Instance& instance, const StopCheck& stop) {
  return insert_all(instance, neh_order(instance), stop);
}

}  // namespace permbb
