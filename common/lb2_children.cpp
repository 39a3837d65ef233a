#include "lb2_children.hpp"

#include <algorithm>
#include <bit>

#include "lb1.hpp"

namespace permbb {

Lb2Children::Lb2Children(const FlowshopView& data, const JohnsonView& johnson)
    : data_(data),
      johnson_(johnson),
      words_((johnson.jobs + 63) / 64),
      order_(johnson.pairs),
      rank_(static_cast<size_t>(johnson.pairs) * johnson.jobs),
      terms_(static_cast<size_t>(johnson.pairs) * johnson.jobs),
      built_(johnson.pairs, 0),
      masks_(static_cast<size_t>(johnson.pairs) * words_),
      masked_(johnson.pairs, 0),
      open_(johnson.jobs),
      before_(johnson.jobs),
      w_(johnson.jobs),
      side_(data.machines) {
  open_jobs_.reserve(johnson.jobs);
  for (int pair = 0; pair < johnson.pairs; ++pair) {
    for (int rank = 0; rank < johnson.jobs; ++rank) {
      const int job = johnson.sequence[pair * johnson.stride + rank].job;
      rank_[pair * johnson.jobs + job] = rank;
    }
  }
}

void Lb2Children::set_node(const unsigned char* scheduled, int children) {
  open_jobs_.clear();
  for (int job = 0; job < johnson_.jobs; ++job) {
    if (!scheduled[job]) open_jobs_.push_back(job);
  }
  ++node_;  // every pair's terms and mask are now stale
  children_left_ = children;
}

// The ranks of the node's unscheduled jobs in `pair`'s Johnson order, as a bitmask, set once
// per node and pair. Marking them costs O(n-d) and reading them back in order a word per 64
// jobs, where filtering the whole sequence costs O(n): deep nodes, the most numerous, have
// few unscheduled jobs.
const std::uint64_t* Lb2Children::open_ranks(int pair) {
  std::uint64_t* mask = masks_.data() + pair * words_;
  if (masked_[pair] == node_) return mask;
  const int* rank_of = rank_.data() + pair * johnson_.jobs;
  if (words_ == 1) {  // up to 64 jobs: kept in a register, not or-ed into memory job by job
    std::uint64_t bits = 0;
    for (int job : open_jobs_) bits |= std::uint64_t{1} << rank_of[job];
    *mask = bits;
  } else {
    std::fill_n(mask, words_, 0);
    for (int job : open_jobs_) mask[rank_of[job] >> 6] |= std::uint64_t{1} << (rank_of[job] & 63);
  }
  masked_[pair] = node_;
  return mask;
}

// The node's unscheduled jobs in `pair`'s Johnson order, into open_; returns their count.
int Lb2Children::gather_open(int pair) {
  const std::uint64_t* mask = open_ranks(pair);
  const JohnsonEntry* sequence = johnson_.sequence + pair * johnson_.stride;
  int count = 0;
  for (int word = 0; word < words_; ++word) {
    for (std::uint64_t bits = mask[word]; bits != 0; bits &= bits - 1) {
      open_[count++] = sequence[word * 64 + std::countr_zero(bits)];
    }
  }
  return count;
}

// The terms of every unscheduled job for `pair`, in a forward and a backward pass over them
// in Johnson's order. With W_i = P_a(i) + lag_i - (p_b of the jobs before i), a term is
// W_i + B (B: the sum of p_b), so the child without e takes max(W before e) + B - p_b(e) and
// max(W after e) + B - p_a(e).
void Lb2Children::build_pair(int pair) {
  const int n = johnson_.jobs;
  const int count = gather_open(pair);
  Time sum_a = 0;
  Time sum_b = 0;
  Time best = kNone;  // the largest W so far
  for (int i = 0; i < count; ++i) {
    const JohnsonEntry& e = open_[i];
    before_[i] = best;
    sum_a += e.on_a;
    w_[i] = sum_a + e.lag - sum_b;
    best = time_max(best, w_[i]);
    sum_b += e.on_b;
  }
  Terms* terms = terms_.data() + pair * n;
  best = kNone;  // now the largest W after the job
  for (int i = count - 1; i >= 0; --i) {
    const JohnsonEntry& e = open_[i];
    const Time from_before = before_[i] == kNone ? kNone : before_[i] + sum_b - e.on_b;
    const Time from_after = best == kNone ? kNone : best + sum_b - e.on_a;
    terms[e.job] = {sum_a - e.on_a, sum_b - e.on_b, time_max(from_before, from_after)};
    best = time_max(best, w_[i]);
  }
  built_[pair] = node_;
}

// The sweep's end for the child adding `job`, in O(1) (see the header). a0 >= 0, so
// a0 + kNone does not overflow and stays below every real value.
Time Lb2Children::built_pair_bound(int pair, int job, const Time* child_front,
                                   const Time* child_back) {
  const Terms& t = terms_[pair * johnson_.jobs + job];
  const int a = johnson_.machine_a[pair];
  const int b = johnson_.machine_b[pair];
  const Time a0 = child_front[a];
  const Time done_a = a0 + t.rest_a;
  const Time done_b = time_max(child_front[b] + t.rest_b, a0 + t.lagged);
  return time_max(done_a + child_back[a], done_b + child_back[b]);
}

// The same value by one pass over the child's unscheduled jobs (the node's less `job`) in
// Johnson's order, the sums of p_a and p_b taken from `remain` (the node's): a term
// a0 + W_i + B + tail_b at or above `cutoff` ends it, returning `cutoff`, since the bound is
// the largest term. Nothing is stored, so the node's other children gain nothing from it.
Time Lb2Children::swept_pair_bound(int pair, int job, const Time* child_front,
                                   const Time* child_back, const Time* remain, Time cutoff) {
  const int a = johnson_.machine_a[pair];
  const int b = johnson_.machine_b[pair];
  const Time a0 = child_front[a];
  const Time rest_a = remain[a] - data_.time(job, a);
  const Time rest_b = remain[b] - data_.time(job, b);
  const Time reach = cutoff - (a0 + rest_b + child_back[b]);  // the W that cuts
  const std::uint64_t* mask = open_ranks(pair);
  const JohnsonEntry* sequence = johnson_.sequence + pair * johnson_.stride;
  const int skip = rank_[pair * johnson_.jobs + job];
  Time sum_a = 0;
  Time sum_b = 0;
  Time best = kNone;
  for (int word = 0; word < words_; ++word) {
    std::uint64_t bits = mask[word];
    if (word == skip >> 6) bits &= ~(std::uint64_t{1} << (skip & 63));
    for (; bits != 0; bits &= bits - 1) {
      const JohnsonEntry& e = sequence[word * 64 + std::countr_zero(bits)];
      sum_a += e.on_a;
      const Time w = sum_a + e.lag - sum_b;
      if (w >= reach) return cutoff;
      best = time_max(best, w);
      sum_b += e.on_b;
    }
  }
  const Time done_b = time_max(child_front[b] + rest_b, a0 + best + rest_b);
  return time_max(a0 + rest_a + child_back[a], done_b + child_back[b]);
}

// A pair's bound for one child, from the node's terms when they are built or enough children
// are still to come to share them (`shared`), else by a sweep.
Time Lb2Children::pair_bound(int pair, int job, const Time* child_front, const Time* child_back,
                             const Time* remain, Time cutoff, bool shared) {
  if (built_[pair] != node_) {
    if (!shared) return swept_pair_bound(pair, job, child_front, child_back, remain, cutoff);
    build_pair(pair);
  }
  return built_pair_bound(pair, job, child_front, child_back);
}

Time Lb2Children::child_bound(const Time* front, const Time* back, const Time* remain, int job,
                              int direction, Time cutoff) {
  const bool shared = children_left_-- >= kBuildFrom;
  const Time lb1 = lb1_child_bound(data_, front, back, remain, job, direction);
  if (lb1 >= cutoff) return cutoff;
  const ChildSides child = lb1_child_sides(data_, front, back, job, direction, side_.data());
  Time lb = lb1;
  for (int rank = 0; rank < order_.size(); ++rank) {
    lb = time_max(lb, pair_bound(order_.at(rank), job, child.front, child.back, remain, cutoff,
                                 shared));
    if (lb >= cutoff) {
      order_.credit(rank);
      return cutoff;
    }
  }
  return lb;
}

}  // namespace permbb
