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

// Heads e[j][i] (completion times of the first i jobs on machine j, position 0 zero) and tails
// q[j][i] (least time from the start of job i on machine j to the end, for jobs i..k-1;
// position k zero), as in best_insertion. Removing position i joins e[.][i] to q[.][i + 1].
Removal best_removal(const Instance& instance, const std::vector<int>& permutation,
                     const std::vector<char>& skip, LocalSearchWorkspace& workspace) {
  const int m = instance.machines();
  const int k = static_cast<int>(permutation.size());
  const auto stride = static_cast<std::size_t>(k + 1);
  InsertionWorkspace& tables = workspace.removal;
  fill_heads_and_tails(instance, permutation, tables);
  if (tables.spans.size() < stride) tables.spans.resize(stride);
  Time* const span = tables.spans.data();
  std::fill(span, span + k, 0);
  // Machine by machine, all positions at once (contiguous rows: vectorized).
  for (int j = 0; j < m; ++j) {
    const Time* const head = tables.heads.data() + j * stride;
    const Time* const tail = tables.tails.data() + j * stride + 1;
    for (int i = 0; i < k; ++i) span[i] = std::max(span[i], head[i] + tail[i]);
  }
  Removal best{-1, kInfiniteTime};
  for (int i = 0; i < k; ++i) {
    if (!skip[permutation[i]] && span[i] < best.makespan) best = {i, span[i]};
  }
  return best;
}

namespace {

// The plain insertion move (k = 1) from `position`: best_reinsertion on the whole schedule's
// heads and tails, kept in the workspace while the schedule does not change.
bool insert_move(const Instance& instance, Schedule& schedule, int position,
                 const LocalSearchRules& rules, LocalSearchWorkspace& workspace) {
  std::vector<int>& permutation = schedule.permutation;
  if (workspace.whole_of != permutation) {
    fill_heads_and_tails(instance, permutation, workspace.whole);
    workspace.whole_of.assign(permutation.begin(), permutation.end());
  }
  const Insertion at = best_reinsertion(instance, permutation, position, workspace.whole,
                                        workspace.insertion, rules.ties);
  const bool improved = at.makespan < schedule.makespan;
  if (!improved && !(rules.sideways && at.makespan == schedule.makespan)) return false;
  if (at.position == position) return improved;  // back where it was: the same schedule
  const int job = permutation[position];
  permutation.erase(permutation.begin() + position);
  permutation.insert(permutation.begin() + at.position, job);
  schedule.makespan = at.makespan;
  // The next move's tables, from those of the schedule without the job.
  fill_heads_and_tails_after_insertion(instance, permutation, at.position, workspace.insertion,
                                       workspace.whole);
  workspace.whole_of.assign(permutation.begin(), permutation.end());
  return improved;
}

}  // namespace

bool k_insert_move(const Instance& instance, Schedule& schedule, int position,
                   const LocalSearchRules& rules, LocalSearchWorkspace& workspace) {
  if (rules.k_max <= 1) return insert_move(instance, schedule, position, rules, workspace);
  // A chain: take the job out, insert it at its best position; while that does not pay,
  // move the best job to remove among those not yet moved, up to k_max insertions.
  std::vector<int>& permutation = schedule.permutation;
  const Time before = schedule.makespan;
  workspace.backup.assign(permutation.begin(), permutation.end());
  int job = permutation[position];
  permutation.erase(permutation.begin() + position);
  bool improved = false;
  for (int step = 1;; ++step) {
    const Insertion at =
        best_insertion(instance, permutation, job, workspace.insertion, rules.ties);
    if (at.makespan < before) {
      permutation.insert(permutation.begin() + at.position, job);
      schedule.makespan = at.makespan;
      improved = true;
      break;
    }
    if (step >= rules.k_max) {
      permutation.assign(workspace.backup.begin(), workspace.backup.end());
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
  for (const int j : workspace.backup) workspace.moved[j] = 0;
  return improved;
}

bool insertion_local_search(const Instance& instance, Schedule& schedule,
                            const LocalSearchRules& rules,
                            std::mt19937_64& rng, LocalSearchWorkspace& workspace,
                            const Deadline& deadline) {
  std::vector<int>& permutation = schedule.permutation;
  if (permutation.size() < 2) return false;
  const Time start = schedule.makespan;
  std::vector<int>& order = workspace.order;
  bool pass_improved = true;
  for (int pass = 0; pass_improved && (rules.max_passes <= 0 || pass < rules.max_passes);
       ++pass) {
    pass_improved = false;
    order.assign(permutation.begin(), permutation.end());
    std::shuffle(order.begin(), order.end(), rng);
    for (const int job : order) {
      if (deadline.expired()) return schedule.makespan < start;
      const auto at = std::find(permutation.begin(), permutation.end(), job);
      const int position = static_cast<int>(at - permutation.begin());
      if (k_insert_move(instance, schedule, position, rules, workspace)) pass_improved = true;
    }
  }
  return schedule.makespan < start;
}

}  // namespace permbb
