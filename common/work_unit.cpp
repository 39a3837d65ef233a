#include "work_unit.hpp"

#include <algorithm>
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

WorkUnit WorkUnit::split(int k_new, std::int64_t new_id) {
  if (k_new < 0) {
    throw std::invalid_argument("work unit #" + std::to_string(id_) +
                                ": cannot split off a negative number of intervals (" +
                                std::to_string(k_new) + ")");
  }
  const std::size_t count = std::min(static_cast<std::size_t>(k_new), intervals_.size());
  WorkUnit stolen;
  stolen.id_ = new_id;
  stolen.intervals_.reserve(count);
  for (std::size_t j = 0; j < count; ++j) {
    Interval& x = intervals_[j];
    mpz_class mid = x.begin + x.end;
    mpz_fdiv_q_2exp(mid.get_mpz_t(), mid.get_mpz_t(), 1);
    stolen.size_ += x.end - mid;
    stolen.intervals_.push_back(Interval{mid, std::move(x.end)});
    x.end = std::move(mid);
  }
  // Length-1 intervals left an empty left half behind.
  auto first_kept = intervals_.begin() + static_cast<std::ptrdiff_t>(count);
  intervals_.erase(
      std::remove_if(intervals_.begin(), first_kept, [](const Interval& x) { return x.empty(); }),
      first_kept);
  size_ -= stolen.size_;
  return stolen;
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

}  // namespace permbb
