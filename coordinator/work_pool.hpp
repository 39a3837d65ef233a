#pragma once
// WorkPool: the coordinator's two lists of work (2022 §4.1). W_unassigned holds the units no
// worker explores (the initial work, the units of a restart, the work of workers that left);
// W holds one active copy per worker, W_i^c, the coordinator's view of the unit worker i
// explores. Every unexplored permutation lies in exactly one of them, so the copies and the
// unassigned units are pairwise disjoint, and what leaves them has been explored.
//
// A copy changes while its owner's checkpoint is handled (the owner is then paused and its
// report is its exact state, see coordinator.hpp): it is synchronized with the report, and
// then possibly trimmed, refilled or split. Between two checkpoints it only loses what its
// owner hands over (GIVE), which the owner took from what it had left. So a copy always
// contains what its owner has left.
//
// A handover costs O(H log K), not O(K): the parts handed over are kept beside the copy as
// last set (`handed`), and the copy proper is that less them. The owner's next checkpoint
// replaces both without working the difference out; only a reader of the intervals
// themselves (copy(), copies(): the global checkpoint, a split, tests) settles it first.
#include <gmpxx.h>

#include <vector>

#include "coordinator_settings.hpp"
#include "work_unit.hpp"

namespace permbb::cluster {

// What a checkpoint did to a copy.
struct Synchronized {
  mpz_class explored;        // the size that left the copy: explored by the worker
  bool as_reported = false;  // the copy is now the reported unit (same id, same set)
};

class WorkPool {
 public:
  // Every worker starts with an empty copy (id 0). Units created later get ids above those
  // of `unassigned`.
  WorkPool(int workers, std::vector<WorkUnit> unassigned, CoordinatorSettings settings);

  // W_i^c <- W_i ∩ W_i^c (Algorithm 1, Lines 33-34, 38).
  Synchronized synchronize(int worker, WorkUnit reported);
  // Gives an empty copy work from W_unassigned, at most `max_intervals` intervals; false
  // when W_unassigned is empty.
  bool assign_unassigned(int worker, int max_intervals);
  // Whether the worker's copy is large enough to be split (min_split_size).
  bool splittable(int worker) const;
  // §4.1.3: the empty copy of `thief` gets the right halves of the
  // min(max_intervals, H, K) largest intervals of the copy of `owner` (WorkUnit::split),
  // under a new id. Only for a
  // splittable owner whose checkpoint is being handled.
  void split(int owner, int thief, int max_intervals);
  // A handover (GIVE): the part of `given` that lies in the worker's copy leaves it for
  // W_unassigned under a new id (the worker explores it no more; a part outside the copy is
  // not the worker's to give and is ignored). Returns the size moved.
  mpz_class hand_over(int worker, const WorkUnit& given);
  // Keeps at most `max_intervals` intervals in a copy, the rest goes to W_unassigned.
  bool trim(int worker, int max_intervals);
  // The worker left: its copy goes to W_unassigned.
  void release(int worker);

  const CoordinatorSettings& settings() const { return settings_; }
  const WorkUnit& copy(int worker) const;
  const std::vector<WorkUnit>& copies() const;
  // ||W_i^c||, without settling the copy.
  mpz_class copy_size(int worker) const;
  const std::vector<WorkUnit>& unassigned() const { return unassigned_; }
  // W and W_unassigned are both empty: the search is over (Algorithm 1, Line 11).
  bool empty() const;
  // The sum of the sizes of all copies and unassigned units.
  mpz_class remaining() const;

 private:
  // Works out copies_[worker] less handed_[worker] (O(K)) and clears handed_[worker]. The
  // copy proper does not change, so the readers above stay const.
  void settle(int worker) const;

  mutable std::vector<WorkUnit> copies_;  // as last set; the copy less handed_
  mutable std::vector<WorkUnit> handed_;  // handed over since, inside copies_
  std::vector<WorkUnit> unassigned_;
  std::int64_t next_id_ = 1;
  CoordinatorSettings settings_;
};

}  // namespace permbb::cluster
