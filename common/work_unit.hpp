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
  // halves [floor((a+b)/2), b[ of the first K_new intervals [a, b[ into a new unit with id
  // new_id, which is returned; this unit keeps the left halves [a, floor((a+b)/2)[ and its
  // other intervals. The right half is the larger one, never empty, so the new unit has
  // exactly K_new intervals; an interval of length 1 has an empty left half and therefore
  // moves whole (this unit then has fewer intervals). Nothing is lost or duplicated: the
  // sizes add up to the old size. Throws std::invalid_argument when k_new < 0.
  WorkUnit split(int k_new, std::int64_t new_id);

  // "#id {[a, b[, [c, d[}" for debugging and messages.
  std::string to_string() const;

  // Same id and the same intervals in the same order.
  friend bool operator==(const WorkUnit& a, const WorkUnit& b);

 private:
  friend WorkUnit intersect(const WorkUnit& a, const WorkUnit& b);

  std::int64_t id_ = 0;
  std::vector<Interval> intervals_;
  mpz_class size_;
};

// W_a ∩ W_b (Eq. 4 of the 2022 paper) in O(K_a + K_b): a two-pointer sweep over both sorted
// lists that, after each elementary intersection (Eq. 3), advances the interval that ends
// first. An interval of a may meet several intervals of b and the other way round; the result
// is sorted, disjoint and keeps a's id. In particular intersect(w, w) == w.
WorkUnit intersect(const WorkUnit& a, const WorkUnit& b);

}  // namespace permbb
