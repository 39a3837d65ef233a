#include "work_unit.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <utility>

namespace permbb {

WorkUnit::WorkUnit(std::int64_t id, std::vector<Interval> intervals)
    : id_(id), intervals_(std::move(intervals)) {
  std::erase_if(intervals_, [](const Interval& x) { return x.empty(); });
  // Units usually arrive sorted (messages, checkpoints): check in O(K) before sorting, which
  // costs O(K log K) big-integer comparisons (the coordinator's hot path, §4.1.1).
  const auto by_begin = [](const Interval& x, const Interval& y) { return x.begin < y.begin; };
  if (!std::is_sorted(intervals_.begin(), intervals_.end(), by_begin)) {
    std::sort(intervals_.begin(), intervals_.end(), by_begin);
  }
  mpz_class length;
  for (std::size_t j = 0; j < intervals_.size(); ++j) {
    if (j > 0 && intervals_[j].begin < intervals_[j - 1].end) {
      throw std::invalid_argument("work unit #" + std::to_string(id) + ": intervals " +
                                  permbb::to_string(intervals_[j - 1]) + " and " +
                                  permbb::to_string(intervals_[j]) + " overlap");
    }
    mpz_sub(length.get_mpz_t(), intervals_[j].end.get_mpz_t(), intervals_[j].begin.get_mpz_t());
    mpz_add(size_.get_mpz_t(), size_.get_mpz_t(), length.get_mpz_t());
  }
}

WorkUnit WorkUnit::from_sorted(std::int64_t id, std::vector<Interval> intervals) {
  WorkUnit unit;
  unit.id_ = id;
  unit.intervals_ = std::move(intervals);
  mpz_class length;
  for (const Interval& x : unit.intervals_) {
    mpz_sub(length.get_mpz_t(), x.end.get_mpz_t(), x.begin.get_mpz_t());
    mpz_add(unit.size_.get_mpz_t(), unit.size_.get_mpz_t(), length.get_mpz_t());
  }
  return unit;
}

// The lengths are ranked as doubles (exact enough to rank, and ties go by position), which
// costs one subtraction per interval instead of a big-integer sort.
std::vector<bool> largest_intervals(const std::vector<Interval>& intervals, std::size_t count) {
  std::vector<bool> chosen(intervals.size(), count >= intervals.size());
  if (count == 0 || count >= intervals.size()) return chosen;
  std::vector<double> length(intervals.size());
  mpz_class difference;
  for (std::size_t j = 0; j < intervals.size(); ++j) {
    mpz_sub(difference.get_mpz_t(), intervals[j].end.get_mpz_t(), intervals[j].begin.get_mpz_t());
    length[j] = difference.get_d();
  }
  std::vector<std::size_t> order(intervals.size());
  for (std::size_t j = 0; j < order.size(); ++j) order[j] = j;
  const auto first = [&](std::size_t x, std::size_t y) {
    return length[x] != length[y] ? length[x] > length[y] : x < y;
  };
  std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count) - 1,
                   order.end(), first);
  for (std::size_t j = 0; j < count; ++j) chosen[order[j]] = true;
  return chosen;
}

WorkUnit WorkUnit::split(int k_new, std::int64_t new_id) {
  if (k_new < 0) {
    throw std::invalid_argument("work unit #" + std::to_string(id_) +
                                ": cannot split off a negative number of intervals (" +
                                std::to_string(k_new) + ")");
  }
  const std::size_t count = std::min(static_cast<std::size_t>(k_new), intervals_.size());
  const std::vector<bool> chosen = largest_intervals(intervals_, count);
  WorkUnit stolen;
  stolen.id_ = new_id;
  stolen.intervals_.reserve(count);
  for (std::size_t j = 0; j < intervals_.size(); ++j) {
    if (!chosen[j]) continue;
    Interval& x = intervals_[j];
    mpz_class mid = x.begin + x.end;
    mpz_fdiv_q_2exp(mid.get_mpz_t(), mid.get_mpz_t(), 1);
    stolen.size_ += x.end - mid;
    stolen.intervals_.push_back(Interval{mid, std::move(x.end)});
    x.end = std::move(mid);
  }
  // Length-1 intervals left an empty left half behind.
  std::erase_if(intervals_, [](const Interval& x) { return x.empty(); });
  size_ -= stolen.size_;
  return stolen;
}

// The common part is found by intersect_by_search; each of its pieces lies inside one interval
// of this unit, so one sweep from the first interval it meets cuts them out.
WorkUnit WorkUnit::take(const WorkUnit& part, std::int64_t new_id) {
  WorkUnit taken = intersect_by_search(part, *this);
  taken.id_ = new_id;
  if (taken.empty()) return taken;
  const std::vector<Interval>& pieces = taken.intervals_;
  const auto first = std::partition_point(
      intervals_.begin(), intervals_.end(),
      [&](const Interval& x) { return x.end <= pieces.front().begin; });
  std::vector<Interval> tail;
  tail.reserve(static_cast<std::size_t>(intervals_.end() - first) + pieces.size());
  std::size_t k = 0;
  for (auto it = first; it != intervals_.end(); ++it) {
    if (k == pieces.size() || it->end <= pieces[k].begin) {
      tail.push_back(std::move(*it));  // untouched
      continue;
    }
    mpz_class from = it->begin;
    for (; k < pieces.size() && pieces[k].begin < it->end; ++k) {
      if (from < pieces[k].begin) tail.push_back(Interval{from, pieces[k].begin});
      from = pieces[k].end;
    }
    if (from < it->end) tail.push_back(Interval{std::move(from), std::move(it->end)});
  }
  intervals_.erase(first, intervals_.end());
  std::move(tail.begin(), tail.end(), std::back_inserter(intervals_));
  size_ -= taken.size_;
  return taken;
}

std::string WorkUnit::to_string() const {
  std::string text = "#";
  text += std::to_string(id_);
  text += " {";
  for (std::size_t j = 0; j < intervals_.size(); ++j) {
    if (j > 0) text += ", ";
    text += permbb::to_string(intervals_[j]);
  }
  return text + "}";
}

bool operator==(const WorkUnit& a, const WorkUnit& b) {
  return a.id_ == b.id_ && a.intervals_ == b.intervals_;
}

WorkUnit intersect(const WorkUnit& a, const WorkUnit& b) {
  WorkUnit result;
  result.id_ = a.id_;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.intervals_.size() && j < b.intervals_.size()) {
    const Interval& x = a.intervals_[i];
    const Interval& y = b.intervals_[j];
    const mpz_class& lo = x.begin >= y.begin ? x.begin : y.begin;
    const int end_order = cmp(x.end, y.end);
    const mpz_class& hi = end_order <= 0 ? x.end : y.end;
    if (lo < hi) {
      result.size_ += hi - lo;
      result.intervals_.push_back(Interval{lo, hi});
    }
    if (end_order <= 0) ++i;
    if (end_order >= 0) ++j;
  }
  return result;
}

WorkUnit intersect_by_search(const WorkUnit& small, const WorkUnit& large) {
  WorkUnit result;
  result.id_ = small.id_;
  const std::vector<Interval>& big = large.intervals_;
  auto from = big.begin();
  for (const Interval& y : small.intervals_) {
    from = std::partition_point(from, big.end(), [&](const Interval& x) { return x.end <= y.begin; });
    for (auto it = from; it != big.end() && it->begin < y.end; ++it) {
      const mpz_class& lo = it->begin > y.begin ? it->begin : y.begin;
      const mpz_class& hi = it->end < y.end ? it->end : y.end;
      result.size_ += hi - lo;
      result.intervals_.push_back(Interval{lo, hi});
    }
  }
  return result;
}

}  // namespace permbb
