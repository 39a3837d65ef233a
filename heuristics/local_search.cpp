#include "local_search.hpp"

#include <algorithm>
#include <cstddef>

namespace permbb {

LocalSearchWorkspace::LocalSearchWorkspace(const Instance& instance)
    : insertion(instance),
      removal(instance),
      moved(static_cast<std::size_t>(instance.jobs()), 0) {
  order.reserve(static_cast<std::size_t>(instance.jobs()));
  backup.reserve(static_cast<std::size_t>(instance.jobs()));
}

// Heads e[i] (completion times of the first i jobs, row 0 zero) and tails q[i] (least time
// from the start of job i to the end, for jobs i..k-1; row k zero), as in best_insertion.
Removal best_removal(const Instance& instance, const std::vector<int>& permutation,
                     const std::vector<char>& skip, LocalSearchWorkspace& workspace) {
  const int m = instance.machines();
  const int k = static_cast<int>(permutation.size());
  fill_heads_and_tails(instance, permutation, workspace.removal);
  const Time* const e = workspace.removal.heads.data();
  const Time* const q = workspace.removal.tails.data();

  Removal best{-1, kInfiniteTime};
  for (int i = 0; i < k; ++i) {
    if (skip[permutation[i]]) continue;
    const Time* const head = e + static_cast<std::size_t>(i) * m;
    const Time* const tail = q + static_cast<std::size_t>(i + 1) * m;
    Time span = 0;
    for (int j = 0; j < m; ++j) span = std::max(span, head[j] + tail[j]);
    if (span < best.makespan) best = {i, span};
  }
  return best;
}

bool k_insert_move(const Instance& instance, Schedule& schedule, int position, int k_max,
                   LocalSearchWorkspace& workspace) {
  std::vector<int>& permutation = schedule.permutation;
  const Time before = schedule.makespan;
  const bool chain = k_max > 1;
  if (chain) workspace.backup.assign(permutation.begin(), permutation.end());

  int job = permutation[position];
  permutation.erase(permutation.begin() + position);
  bool improved = false;
  for (int step = 1;; ++step) {
    const Insertion at = best_insertion(instance, permutation, job, workspace.insertion);
    if (at.makespan < before) {
      permutation.insert(permutation.begin() + at.position, job);
      schedule.makespan = at.makespan;
      improved = true;
      break;
    }
    if (step >= k_max) {
      // The last insertion did not pay: undo. Without a chain the job goes back where it was.
      if (chain) {
        permutation.assign(workspace.backup.begin(), workspace.backup.end());
      } else {
        permutation.insert(permutation.begin() + position, job);
      }
      break;
    }
    permutation.insert(permutation.begin() + at.position, job);
    workspace.moved[job] = 1;
    const Removal out = best_removal(instance, permutation, workspace.moved, workspace);
    if (out.position < 0) {
      permutation.assign(workspace.backup.begin(), workspace.backup.end());
      break;
    }
    job = permutation[out.position];
    permutation.erase(permutation.begin() + out.position);
  }
  if (chain) {
    for (const int j : workspace.backup) workspace.moved[j] = 0;
  }
  return improved;
}

bool insertion_local_search(const Instance& instance, Schedule& schedule, int k_max,
                            std::mt19937_64& rng, LocalSearchWorkspace& workspace,
                            const Deadline& deadline) {
  std::vector<int>& permutation = schedule.permutation;
  if (permutation.size() < 2) return false;
  const Time start = schedule.makespan;
  std::vector<int>& order = workspace.order;
  bool pass_improved = true;
  while (pass_improved) {
    pass_improved = false;
    order.assign(permutation.begin(), permutation.end());
    std::shuffle(order.begin(), order.end(), rng);
    for (const int job : order) {
      if (deadline.expired()) return schedule.makespan < start;
      const auto at = std::find(permutation.begin(), permutation.end(), job);
      const int position = static_cast<int>(at - permutation.begin());
      if (k_insert_move(instance, schedule, position, k_max, workspace)) pass_improved = true;
    }
  }
  return schedule.makespan < start;
}

}  // namespace permbb
