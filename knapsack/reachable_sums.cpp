#include "reachable_sums.hpp"

#include <algorithm>

namespace permbb::knapsack {
namespace {

using Interval = ReachableSums::Interval;

// Appends `next` to `out` (sorted by lo), joining it to the last interval when they overlap
// or touch.
void append(std::vector<Interval>& out, const Interval& next) {
  if (!out.empty() && next.lo <= out.back().hi + 1) {
    out.back().hi = std::max(out.back().hi, next.hi);
    out.back().excess = std::max(out.back().excess, next.excess);
  } else {
    out.push_back(next);
  }
}

}  // namespace

ReachableSums::ReachableSums(const std::vector<std::int64_t>& profits,
                             const std::vector<std::int64_t>& weights,
                             const std::vector<int>& chosen, const ItemRatio& ratio,
                             std::int64_t capacity, std::int64_t max_intervals)
    : ratio_(ratio), capacity_(capacity), max_intervals_(std::max<std::int64_t>(max_intervals, 2)) {
  std::vector<int> order = chosen;
  std::sort(order.begin(), order.end(), [&](int a, int b) { return weights[a] > weights[b]; });
  intervals_.push_back({0, 0, 0});
  std::vector<Interval> next;
  for (const int i : order) {
    const WideSigned excess =
        WideSigned{profits[i]} * ratio.weight - WideSigned{ratio.profit} * weights[i];
    add_item(weights[i], excess, next);
    intervals_.swap(next);
    if (intervals() > max_intervals_) coarsen();
  }
  WideSigned best = 0;
  for (std::size_t k = 0; k < intervals_.size(); ++k) {
    const WideSigned top = WideSigned{ratio_.profit} * intervals_[k].hi + intervals_[k].excess;
    best = k == 0 ? top : std::max(best, top);
    best_below_.push_back(best);
  }
}

// The set ∪ (the set + the item), both sorted, merged in one pass; sums above the capacity
// dropped (a sum above it stays above it with more items).
void ReachableSums::add_item(std::int64_t w, WideSigned excess, std::vector<Interval>& out) const {
  out.clear();
  const std::size_t n = intervals_.size();
  std::size_t a = 0, b = 0;
  while (a < n || b < n) {
    const bool shifted = a == n || (b < n && intervals_[b].lo + w < intervals_[a].lo);
    const Interval& from = shifted ? intervals_[b++] : intervals_[a++];
    const Interval next = shifted ? Interval{from.lo + w, from.hi + w, from.excess + excess} : from;
    if (next.lo > capacity_) {
      if (shifted) break;  // every later shifted interval starts higher still
      continue;
    }
    append(out, {next.lo, std::min(next.hi, capacity_), next.excess});
  }
}

// Joins across the smallest gaps until half of max_intervals remain, so that this runs once
// per many items.
void ReachableSums::coarsen() {
  std::vector<std::int64_t> gaps;
  gaps.reserve(intervals_.size());
  for (std::size_t i = 1; i < intervals_.size(); ++i) {
    gaps.push_back(intervals_[i].lo - intervals_[i - 1].hi);
  }
  const std::size_t joins = intervals_.size() - static_cast<std::size_t>(max_intervals_ / 2);
  std::nth_element(gaps.begin(), gaps.begin() + (joins - 1), gaps.end());
  const std::int64_t widest_joined = gaps[joins - 1];
  std::vector<Interval> joined;
  joined.reserve(static_cast<std::size_t>(max_intervals_ / 2) + 1);
  for (const Interval& next : intervals_) {
    if (!joined.empty() && next.lo - joined.back().hi <= widest_joined) {
      joined.back().hi = next.hi;
      joined.back().excess = std::max(joined.back().excess, next.excess);
    } else {
      joined.push_back(next);
    }
  }
  intervals_.swap(joined);
}

WideSigned ReachableSums::Walk::best_profit(std::int64_t room) {
  if (room < 0) return -1;
  room = std::min(room, sums_->capacity_);
  while (sums_->intervals_[at_].lo > room) --at_;  // the first interval starts at 0
  return sums_->view().profit_at(static_cast<std::int64_t>(at_), room);
}

}  // namespace permbb::knapsack
