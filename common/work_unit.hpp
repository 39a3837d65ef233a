#pragma once
// WorkUnit: the cluster-level unit of work of PBB@Cluster (Gmys et al. 2022, §4.1, Eq. 2), an
// identifier and a finite union of disjoint, non-empty half-open intervals of [0, n!].
//
// Intervals are kept sorted by begin. Touching intervals ([a, b[ and [b, c[) are disjoint and
// stay separate: a work unit mirrors the intervals of its worker's sub-workers, so merging
// them would change the interval count the worker has to match. The size ||W|| (the sum of
// the lengths) is kept up to date by every operation, as the coordinator asks for it often
// to pick the largest unit to split.
#include <gmpxx.h>

#include <cstdint>
#include <string>
#include <vector>

#include "interval.hpp"

namespace permbb {

// Which intervals a split halves (WorkUnit::split): the `count` largest, of equal lengths the
// first; all of them when count reaches their number.
std::vector<bool> largest_intervals(const std::vector<Interval>& intervals, std::size_t count);

class WorkUnit {
 public:
  // Id 0, no intervals.
  WorkUnit() = default;
  // Sorts the intervals by begin and drops empty ones. Throws std::invalid_argument, naming
  // the unit and both intervals, when two of them overlap.
  WorkUnit(std::int64_t id, std::vector<Interval> intervals);
  // For intervals already known sorted, non-empty and disjoint (a decoded message: the
  // protocol's decoder checked them): only the size is computed. The coordinator's hot path.
  static WorkUnit from_sorted(std::int64_t id, std::vector<Interval> intervals);

  std::int64_t id() const { return id_; }
  void set_id(std::int64_t id) { id_ = id; }
  const std::vector<Interval>& intervals() const { return intervals_; }
  std::size_t interval_count() const { return intervals_.size(); }
  // ||W||, the sum of the interval lengths.
  const mpz_class& size() const { return size_; }
  bool empty() const { return intervals_.empty(); }

  // Work unit division (§4.1.3). With K_new = min(k_new, interval_count()), moves the right
  // halves [floor((a+b)/2), b[ of the K_new largest intervals [a, b[ (of equal lengths, the
  // first) into a new unit with id new_id, which is returned; this unit keeps the left halves
  // [a, floor((a+b)/2)[ and its other intervals. The paper halves the first K_new intervals;
  // when k_new covers them all (a CPU worker's unit) both are the same. A GPU worker's unit
  // holds 16,384 intervals, and handing them all over costs rank 0 milliseconds
  // (docs/scale.md), so a handover is capped below that, and the largest intervals are the
  // ones whose halves carry most of the unit. The right half is the larger one, never empty,
  // so the new unit has exactly K_new intervals; an interval of length 1 has an empty left
  // half and therefore moves whole (this unit then has fewer intervals). Nothing is lost or
  // duplicated: the sizes add up to the old size. Throws std::invalid_argument when k_new < 0.
  WorkUnit split(int k_new, std::int64_t new_id);

  // Moves what `part` and this unit have in common out of this unit, into a new unit with id
  // new_id, which is returned: the coordinator's copy of a worker losing what the worker
  // handed over (a part of a split it made itself, so usually all inside). Each interval of
  // `part` is found by binary search, and only the intervals from the first one it cuts on
  // are moved in memory: O(K_part log K + the tail), no big-integer work for the others.
  WorkUnit take(const WorkUnit& part, std::int64_t new_id);

  // "#id {[a, b[, [c, d[}" for debugging and messages.
  std::string to_string() const;

  // Same id and the same intervals in the same order.
  friend bool operator==(const WorkUnit& a, const WorkUnit& b);

 private:
  friend WorkUnit intersect(const WorkUnit& a, const WorkUnit& b);
  friend WorkUnit intersect_by_search(const WorkUnit& small, const WorkUnit& large);

  std::int64_t id_ = 0;
  std::vector<Interval> intervals_;
  mpz_class size_;
};

// W_small ∩ W_large, keeping small's id, in O(K_small log K_large): each interval of small is
// found in large by binary search. Equal to intersect(small, large); for a handover (H
// intervals) checked against a copy of a GPU's 16,384.
WorkUnit intersect_by_search(const WorkUnit& small, const WorkUnit& large);

// W_a ∩ W_b (Eq. 4 of the 2022 paper) in O(K_a + K_b): a two-pointer sweep over both sorted
// lists that, after each elementary intersection (Eq. 3), advances the interval that ends
// first. An interval of a may meet several intervals of b and the other way round; the result
// is sorted, disjoint and keeps a's id. In particular intersect(w, w) == w.
WorkUnit intersect(const WorkUnit& a, const WorkUnit& b);

}  // namespace permbb
