#include "audit_bounds.hpp"

#include <algorithm>

namespace permbb::audit {

TextbookBounds::TextbookBounds(const Certificate& c)
    : jobs_(c.jobs),
      machines_(c.machines),
      times_(c.times),
      smallest_heads_(c.machines, kNoBound),
      smallest_tails_(c.machines, kNoBound),
      uses_lb2_(c.bound != "lb1"),
      branches_on_lb2_(c.bound == "lb2" || c.bound == "lb2-adjacent"),
      adjacent_pairs_only_(c.bound == "lb2-adjacent") {
  for (int j = 0; j < jobs_; ++j) {
    for (int k = 0; k < machines_; ++k) {
      Time head = 0;
      for (int i = 0; i < k; ++i) head += time(j, i);
      Time tail = 0;
      for (int i = k + 1; i < machines_; ++i) tail += time(j, i);
      smallest_heads_[k] = std::min(smallest_heads_[k], head);
      smallest_tails_[k] = std::min(smallest_tails_[k], tail);
    }
  }
}

Sides TextbookBounds::sides_of(const std::vector<int>& prefix,
                               const std::vector<int>& suffix) const {
  Sides s;
  s.heads = smallest_heads_;
  s.tails = smallest_tails_;
  std::vector<char> fixed(jobs_, 0);
  if (!prefix.empty()) {
    std::vector<Time> done(machines_, 0);
    for (const int job : prefix) {
      for (int k = 0; k < machines_; ++k) {
        done[k] = std::max(done[k], k > 0 ? done[k - 1] : 0) + time(job, k);
      }
      fixed[job] = 1;
    }
    s.heads = done;
  }
  if (!suffix.empty()) {
    std::vector<Time> done(machines_, 0);  // backwards: machines m-1..0, jobs last to first
    for (auto it = suffix.rbegin(); it != suffix.rend(); ++it) {
      for (int k = machines_ - 1; k >= 0; --k) {
        done[k] = std::max(done[k], k + 1 < machines_ ? done[k + 1] : 0) + time(*it, k);
      }
      fixed[*it] = 1;
    }
    s.tails = done;
  }
  for (int j = 0; j < jobs_; ++j) {
    if (!fixed[j]) s.free.push_back(j);
  }
  return s;
}

Sides TextbookBounds::child_front(const Sides& parent, int job) const {
  Sides child = parent;
  for (int k = 0; k < machines_; ++k) {
    child.heads[k] = std::max(parent.heads[k], k > 0 ? child.heads[k - 1] : 0) + time(job, k);
  }
  child.free.erase(std::find(child.free.begin(), child.free.end(), job));
  return child;
}

Sides TextbookBounds::child_back(const Sides& parent, int job) const {
  Sides child = parent;
  for (int k = machines_ - 1; k >= 0; --k) {
    const Time after = k + 1 < machines_ ? child.tails[k + 1] : 0;
    child.tails[k] = std::max(parent.tails[k], after) + time(job, k);
  }
  child.free.erase(std::find(child.free.begin(), child.free.end(), job));
  return child;
}

Time TextbookBounds::lb1(const Sides& s) const {
  Time bound = 0;
  for (int k = 0; k < machines_; ++k) {
    Time work = 0;
    for (const int job : s.free) work += time(job, k);
    bound = std::max(bound, s.heads[k] + work + s.tails[k]);
  }
  return bound;
}

Time TextbookBounds::johnson_pair(const Sides& s, int a, int b) const {
  const auto lag = [&](int job) {
    Time sum = 0;
    for (int k = a + 1; k < b; ++k) sum += time(job, k);
    return sum;
  };
  const auto first = [&](int job) { return time(job, a) + lag(job); };
  const auto second = [&](int job) { return lag(job) + time(job, b); };
  std::vector<int> order = s.free;
  std::sort(order.begin(), order.end(), [&](int x, int y) {
    const bool x_early = first(x) < second(x);
    const bool y_early = first(y) < second(y);
    if (x_early != y_early) return x_early;
    if (x_early && first(x) != first(y)) return first(x) < first(y);
    if (!x_early && second(x) != second(y)) return second(x) > second(y);
    return x < y;
  });
  Time done_a = s.heads[a];
  Time done_b = s.heads[b];
  for (const int job : order) {
    done_a += time(job, a);
    done_b = std::max(done_b, done_a + lag(job)) + time(job, b);
  }
  return std::max(done_a + s.tails[a], done_b + s.tails[b]);
}

Time TextbookBounds::lb2(const Sides& s) const {
  Time bound = lb1(s);
  for (int a = 0; a < machines_; ++a) {
    for (int b = a + 1; b < machines_; ++b) {
      if (adjacent_pairs_only_ && b != a + 1) continue;
      bound = std::max(bound, johnson_pair(s, a, b));
    }
  }
  return bound;
}

Time TextbookBounds::makespan(const std::vector<int>& schedule) const {
  std::vector<Time> done(machines_, 0);
  for (const int job : schedule) {
    for (int k = 0; k < machines_; ++k) {
      done[k] = std::max(done[k], k > 0 ? done[k - 1] : 0) + time(job, k);
    }
  }
  return done.empty() ? 0 : done.back();
}

}  // namespace permbb::audit
