#include "neh.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>

namespace permbb {

InsertionWorkspace::InsertionWorkspace(const Instance& instance) {
  const auto size = static_cast<std::size_t>(instance.jobs()) * instance.machines();
  heads.resize(size);
  tails.resize(size);
}

// Taillard's acceleration (1990). For the partial schedule pi_1..pi_k:
//   head e[i][j]: earliest completion of pi_i on machine j, rows i = 0..k (row 0 is zero);
//   tail q[i][j]: least time from the start of pi_{i+1} on machine j to the end of the
//                 schedule, for the jobs pi_{i+1}..pi_k, rows i = 0..k (row k is zero);
//   f[i][j]:      completion on machine j of the new job placed after pi_i,
//                 f[i][j] = max(f[i][j-1], e[i][j]) + p[j][job].
// Inserting the job at position i (after the first i jobs) gives makespan
// max_j f[i][j] + q[i][j]. Each row of f is used once, so it is a running value. The
// whole is O(k m) instead of O(k^2 m) for evaluating each position from scratch.
void fill_heads_and_tails(const Instance& instance, const std::vector<int>& sequence,
                          InsertionWorkspace& workspace) {
  const int m = instance.machines();
  const int k = static_cast<int>(sequence.size());
  const auto rows = static_cast<std::size_t>(k + 1) * m;
  if (workspace.heads.size() < rows) workspace.heads.resize(rows);
  if (workspace.tails.size() < rows) workspace.tails.resize(rows);
  Time* const e = workspace.heads.data();
  Time* const q = workspace.tails.data();
  std::fill(e, e + m, 0);
  for (int i = 1; i <= k; ++i) {
    const int placed = sequence[i - 1];
    Time* const row = e + static_cast<std::size_t>(i) * m;
    const Time* const above = row - m;
    Time left = 0;
    for (int j = 0; j < m; ++j) {
      left = std::max(above[j], left) + instance.time(j, placed);
      row[j] = left;
    }
  }
  std::fill(q + static_cast<std::size_t>(k) * m, q + rows, 0);
  for (int i = k - 1; i >= 0; --i) {
    const int placed = sequence[i];
    Time* const row = q + static_cast<std::size_t>(i) * m;
    const Time* const below = row + m;
    Time right = 0;
    for (int j = m - 1; j >= 0; --j) {
      right = std::max(below[j], right) + instance.time(j, placed);
      row[j] = right;
    }
  }
}

Insertion best_insertion(const Instance& instance, const std::vector<int>& partial, int job,
                         InsertionWorkspace& workspace) {
  const int m = instance.machines();
  const int k = static_cast<int>(partial.size());
  fill_heads_and_tails(instance, partial, workspace);
  const Time* const e = workspace.heads.data();
  const Time* const q = workspace.tails.data();

  Insertion best{0, kInfiniteTime};
  for (int i = 0; i <= k; ++i) {
    const Time* const head = e + static_cast<std::size_t>(i) * m;
    const Time* const tail = q + static_cast<std::size_t>(i) * m;
    Time f = 0;
    Time span = 0;
    for (int j = 0; j < m; ++j) {
      f = std::max(f, head[j]) + instance.time(j, job);
      span = std::max(span, f + tail[j]);
    }
    if (span < best.makespan) best = {i, span};  // strict: the leftmost best wins
  }
  return best;
}

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
  Schedule schedule;
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
