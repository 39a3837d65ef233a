#pragma once
#include <cstddef>
#include <mutex>
#include <optional>
#include <vector>

#include "flowshop_types.hpp"
#include "neh.hpp"

namespace permbb {

// The solution pool of the hybridization (2022 §4.2.3): a fixed number of distinct complete
// schedules, the best ones offered so far, from which heuristic threads take their starting
// points. Fed with the IVMs' promoted subproblems and with the heuristics' own results.
// Thread-safe: every member takes the pool's lock.
class SolutionPool {
 public:
  // The paper's size is twice the number of heuristic threads. capacity >= 1.
  explicit SolutionPool(int capacity);

  int capacity() const { return capacity_; }
  int size() const;

  // Keeps the schedule if it is not already in the pool and the pool has room or it is
  // better than the worst one kept (which it then replaces). Returns whether it was kept.
  // The makespan is the caller's word (evaluate with makespan() first).
  bool insert(const std::vector<int>& permutation, Time makespan);
  bool insert(const Schedule& schedule) { return insert(schedule.permutation, schedule.makespan); }

  // A start solution: the kept schedules in turn (round robin over the pool, best first), so
  // that concurrent takers get different ones. Empty while the pool is empty.
  std::optional<Schedule> take();

  // The best schedule kept (ties: the one kept first); empty while the pool is empty.
  std::optional<Schedule> best() const;

  // Every kept schedule, best first.
  std::vector<Schedule> contents() const;

 private:
  const int capacity_;
  mutable std::mutex mutex_;
  std::vector<Schedule> entries_;  // sorted by makespan, stable
  std::size_t next_ = 0;           // round-robin cursor of take()
};

}  // namespace permbb
