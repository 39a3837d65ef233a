#include "work_pool.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace permbb::cluster {
namespace {

// Splits a unit's interval list after its first `count` intervals: the front part gets
// `front_id`, the back part keeps the unit's id. No interval is cut.
std::pair<WorkUnit, WorkUnit> cut_after(const WorkUnit& unit, std::size_t count,
                                        std::int64_t front_id) {
  const auto& all = unit.intervals();
  const auto middle = all.begin() + static_cast<std::ptrdiff_t>(count);
  return {WorkUnit(front_id, std::vector<Interval>(all.begin(), middle)),
          WorkUnit(unit.id(), std::vector<Interval>(middle, all.end()))};
}

// Every interval of `inner` lies within one interval of `outer`, both sorted and disjoint:
// one sweep of comparisons, no arithmetic and no allocation.
bool contains(const WorkUnit& outer, const WorkUnit& inner) {
  const std::vector<Interval>& big = outer.intervals();
  std::size_t j = 0;
  for (const Interval& x : inner.intervals()) {
    while (j < big.size() && big[j].end <= x.begin) ++j;
    if (j == big.size() || x.begin < big[j].begin || big[j].end < x.end) return false;
  }
  return true;
}

// Whether a unit of few intervals meets a large one: a binary search per interval.
bool meets(const WorkUnit& small, const WorkUnit& large) {
  return !intersect_by_search(small, large).empty();
}

}  // namespace

WorkPool::WorkPool(int workers, std::vector<WorkUnit> unassigned, CoordinatorSettings settings)
    : copies_(static_cast<std::size_t>(workers)),
      handed_(static_cast<std::size_t>(workers)),
      settings_(std::move(settings)) {
  if (settings_.min_split_size < 1) settings_.min_split_size = 1;
  for (WorkUnit& unit : unassigned) {
    next_id_ = std::max(next_id_, unit.id() + 1);
    if (!unit.empty()) unassigned_.push_back(std::move(unit));
  }
}

// Algorithm 1, Lines 33-34 and 38 (§4.1.2): W_i^c <- W_i ∩ W_i^c, returning the size that
// left the copy, which the worker has explored. As copies are split only at their owner's
// checkpoint, a worker that keeps to the protocol always reports a part of its copy under
// the copy's id; the intersection is then the report itself, moved in after a sweep of
// comparisons (the shortcut of §4.1.2, without the "modified" flag: no copy is modified
// behind its owner's back). Anything else (a first request, a worker out of step) gets the
// full intersection, so that the copies stay disjoint whatever a worker sends.
Synchronized WorkPool::synchronize(int worker, WorkUnit reported) {
  WorkUnit& copy = copies_[worker];
  Synchronized result{copy_size(worker), false};
  const mpz_class reported_size = reported.size();
  const bool same_id = reported.id() == copy.id();
  if (same_id && contains(copy, reported) && !meets(handed_[worker], reported)) {
    copy = std::move(reported);
  } else {
    settle(worker);
    copy = intersect(copy, reported);
  }
  handed_[worker] = WorkUnit();
  result.explored -= copy.size();
  result.as_reported = copy.size() == reported_size && (same_id || copy.empty());
  return result;
}

// Algorithm 1, Line 36, first choice: the first unassigned unit goes whole when the worker
// can hold all its intervals; else the worker gets its first `max_intervals` intervals,
// under a new id, and the rest stays.
bool WorkPool::assign_unassigned(int worker, int max_intervals) {
  if (unassigned_.empty()) return false;
  WorkUnit& front = unassigned_.front();
  WorkUnit& copy = copies_[worker];
  if (front.interval_count() <= static_cast<std::size_t>(max_intervals)) {
    copy = std::move(front);
    unassigned_.erase(unassigned_.begin());
  } else {
    auto [taken, rest] = cut_after(front, static_cast<std::size_t>(max_intervals), next_id_++);
    copy = std::move(taken);
    front = std::move(rest);
  }
  return true;
}

bool WorkPool::splittable(int worker) const {
  return copy_size(worker) >= settings_.min_split_size;
}

// §4.1.3: the thief gets the right halves of the first min(K_max, K_v) intervals of the
// owner's copy W_v^c, which keeps the left halves and its other intervals.
void WorkPool::split(int owner, int thief, int max_intervals) {
  if (owner == thief || !copies_[thief].empty() || !splittable(owner)) {
    throw std::logic_error("work pool: cannot split worker " + std::to_string(owner) +
                           "'s copy for worker " + std::to_string(thief));
  }
  const int cap = std::min(max_intervals, std::max(1, settings_.max_handover_intervals));
  settle(owner);
  copies_[thief] = copies_[owner].split(cap, next_id_++);
}

// The part inside the copy and not handed over already (a worker that keeps to the protocol
// hands over only what it has, so all of `given`) joins handed_: binary searches and small
// merges, O(H log K); the copy's own intervals are not touched (see the header).
mpz_class WorkPool::hand_over(int worker, const WorkUnit& given) {
  WorkUnit moved = intersect_by_search(given, copies_[worker]);
  moved.take(handed_[worker], 0);
  if (moved.empty()) return 0;
  std::vector<Interval> all = handed_[worker].intervals();
  all.insert(all.end(), moved.intervals().begin(), moved.intervals().end());
  handed_[worker] = WorkUnit(0, std::move(all));
  moved.set_id(next_id_++);
  mpz_class size = moved.size();
  unassigned_.push_back(std::move(moved));
  return size;
}

void WorkPool::settle(int worker) const {
  if (handed_[worker].empty()) return;
  copies_[worker].take(handed_[worker], 0);
  handed_[worker] = WorkUnit();
}

const WorkUnit& WorkPool::copy(int worker) const {
  settle(worker);
  return copies_[worker];
}

const std::vector<WorkUnit>& WorkPool::copies() const {
  for (std::size_t w = 0; w < copies_.size(); ++w) settle(static_cast<int>(w));
  return copies_;
}

mpz_class WorkPool::copy_size(int worker) const {
  return copies_[worker].size() - handed_[worker].size();
}

// Keeps the first `max_intervals` intervals of a copy and returns the others to
// W_unassigned; returns whether it cut. A report never holds more than K_max intervals, and
// each reported interval meets at most one interval of the copy, so this only acts on a
// worker out of step.
bool WorkPool::trim(int worker, int max_intervals) {
  settle(worker);
  WorkUnit& copy = copies_[worker];
  if (copy.interval_count() <= static_cast<std::size_t>(max_intervals)) return false;
  auto [kept, rest] = cut_after(copy, static_cast<std::size_t>(max_intervals), copy.id());
  rest.set_id(next_id_++);
  copy = std::move(kept);
  unassigned_.push_back(std::move(rest));
  return true;
}

// The worker left: its copy goes back to W_unassigned, for the others or for a restart.
void WorkPool::release(int worker) {
  settle(worker);
  WorkUnit& copy = copies_[worker];
  if (!copy.empty()) unassigned_.push_back(std::move(copy));
  copy = WorkUnit();
}

bool WorkPool::empty() const {
  if (!unassigned_.empty()) return false;
  for (std::size_t w = 0; w < copies_.size(); ++w) {
    if (sgn(copy_size(static_cast<int>(w))) != 0) return false;
  }
  return true;
}

mpz_class WorkPool::remaining() const {
  mpz_class total = 0;
  for (const WorkUnit& unit : unassigned_) total += unit.size();
  for (std::size_t w = 0; w < copies_.size(); ++w) total += copy_size(static_cast<int>(w));
  return total;
}

}  // namespace permbb::cluster
