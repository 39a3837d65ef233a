#include "audit_bounds.hpp"

#include <algorithm>
#include <span>

namespace permbb::audit {

TextbookBounds::TextbookBounds(const Certificate& c)
    : jobs_(c.jobs),
      machines_(c.machines),
      times_(static_cast<std::size_t>(c.jobs) * c.machines),
      smallest_heads_(c.machines, kNoBound),
      smallest_tails_(c.machines, kNoBound),
      uses_lb2_(c.bound != "lb1"),
      branches_on_lb2_(c.bound == "lb2" || c.bound == "lb2-adjacent") {
  for (int j = 0; j < jobs_; ++j) {
    for (int k = 0; k < machines_; ++k) times_[j * machines_ + k] = c.times[k][j];
    for (int k = 0; k < machines_; ++k) {
      Time head = 0;
      for (int i = 0; i < k; ++i) head += time(j, i);
      Time tail = 0;
      for (int i = k + 1; i < machines_; ++i) tail += time(j, i);
      smallest_heads_[k] = std::min(smallest_heads_[k], head);
      smallest_tails_[k] = std::min(smallest_tails_[k], tail);
    }
  }
  const bool adjacent_pairs_only = c.bound == "lb2-adjacent";
  for (int a = 0; uses_lb2_ && a < machines_; ++a) {
    for (int b = a + 1; b < machines_; ++b) {
      if (adjacent_pairs_only && b != a + 1) continue;
      pairs_.push_back(johnson_pair_of(a, b));
    }
  }
}

// Johnson's order of all jobs for the pair (a, b), with the jobs' lags.
TextbookBounds::JohnsonPair TextbookBounds::johnson_pair_of(int a, int b) const {
  JohnsonPair pair{a, b, {}, std::vector<Time>(jobs_, 0)};
  for (int job = 0; job < jobs_; ++job) {
    for (int k = a + 1; k < b; ++k) pair.lag[job] += time(job, k);
    pair.order.push_back(job);
  }
  const auto first = [&](int job) { return time(job, a) + pair.lag[job]; };
  const auto second = [&](int job) { return pair.lag[job] + time(job, b); };
  std::sort(pair.order.begin(), pair.order.end(), [&](int x, int y) {
    const bool x_early = first(x) < second(x);
    const bool y_early = first(y) < second(y);
    if (x_early != y_early) return x_early;
    if (x_early && first(x) != first(y)) return first(x) < first(y);
    if (!x_early && second(x) != second(y)) return second(x) > second(y);
    return x < y;
  });
  return pair;
}

// Adds `job` on `side` of `parent`: `out` (which may be the parent's heads or tails, updated
// in place) gets the child's heads (front) or tails (back), and the child's LB1 is returned.
// On the front the job starts on machine k when both the machine (heads[k]) and the job's
// operation on k-1 are done; the back mirrors it, machines last to first. The job's time on
// k moves from the free jobs' work to that side, so the child's heads[k] + work[k] +
// tails[k] is its start on k plus the parent's work[k] and other side.
Time TextbookBounds::add_job(const Sides& parent, Side side, int job,
                             std::vector<Time>& out) const {
  const bool front = side == Side::kFront;
  const std::vector<Time>& before = front ? parent.heads : parent.tails;
  const std::vector<Time>& other = front ? parent.tails : parent.heads;
  out.resize(machines_);
  Time bound = 0;
  Time done = 0;  // the job's operation on the machine before
  for (int step = 0; step < machines_; ++step) {
    const int k = front ? step : machines_ - 1 - step;
    const Time start = std::max(before[k], done);
    bound = std::max(bound, start + parent.work[k] + other[k]);
    done = start + time(job, k);
    out[k] = done;
  }
  return bound;
}

Sides TextbookBounds::sides_of(const std::vector<int>& prefix,
                               const std::vector<int>& suffix) const {
  Sides s;
  s.heads = prefix.empty() ? smallest_heads_ : std::vector<Time>(machines_, 0);
  s.tails = suffix.empty() ? smallest_tails_ : std::vector<Time>(machines_, 0);
  s.work.assign(machines_, 0);  // set at the end: add_job's bound is not wanted here
  std::vector<char> fixed(jobs_, 0);
  for (const int job : prefix) {
    add_job(s, Side::kFront, job, s.heads);
    fixed[job] = 1;
  }
  for (auto it = suffix.rbegin(); it != suffix.rend(); ++it) {  // backwards: last job first
    add_job(s, Side::kBack, *it, s.tails);
    fixed[*it] = 1;
  }
  for (int j = 0; j < jobs_; ++j) {
    if (fixed[j]) continue;
    s.free.push_back(j);
    for (int k = 0; k < machines_; ++k) s.work[k] += time(j, k);
  }
  for (const JohnsonPair& pair : pairs_) {
    for (const int j : pair.order) {
      if (!fixed[j]) s.johnson.push_back(j);
    }
  }
  return s;
}

namespace {

// `out` = `jobs` less `job`, in the same order.
void without(const std::vector<int>& jobs, int job, std::vector<int>& out) {
  out.clear();
  for (const int j : jobs) {
    if (j != job) out.push_back(j);
  }
}

}  // namespace

void TextbookBounds::child(const Sides& parent, Side side, int job, Sides& child) const {
  if (side == Side::kFront) {
    add_job(parent, side, job, child.heads);
    child.tails = parent.tails;
  } else {
    child.heads = parent.heads;
    add_job(parent, side, job, child.tails);
  }
  child.work = parent.work;
  for (int k = 0; k < machines_; ++k) child.work[k] -= time(job, k);
  without(parent.free, job, child.free);
  without(parent.johnson, job, child.johnson);
}

Time TextbookBounds::child_bound(const Sides& parent, Side side, int job, bool lb2,
                                 std::vector<Time>& scratch) const {
  const Time lb1 = add_job(parent, side, job, scratch);
  if (!lb2) return lb1;
  const bool front = side == Side::kFront;
  const View child{front ? scratch : parent.heads, front ? parent.tails : scratch, parent, job};
  return std::max(lb1, johnson_pairs(child));
}

Time TextbookBounds::pruning_bound(const Sides& s) const {
  const Time bound = lb1(s);
  return uses_lb2_ ? std::max(bound, johnson_pairs(View{s.heads, s.tails, s, -1})) : bound;
}

Time TextbookBounds::lb1(const Sides& s) const {
  Time bound = 0;
  for (int k = 0; k < machines_; ++k) {
    bound = std::max(bound, s.heads[k] + s.work[k] + s.tails[k]);
  }
  return bound;
}

Time TextbookBounds::johnson_pair(const View& s, std::size_t pair) const {
  const int a = pairs_[pair].a;
  const int b = pairs_[pair].b;
  const std::size_t free_jobs = s.free_of.free.size();
  const std::span<const int> order(s.free_of.johnson.data() + pair * free_jobs, free_jobs);
  Time done_a = s.heads[a];
  Time done_b = s.heads[b];
  for (const int job : order) {
    if (job == s.taken) continue;
    done_a += time(job, a);
    done_b = std::max(done_b, done_a + pairs_[pair].lag[job]) + time(job, b);
  }
  return std::max(done_a + s.tails[a], done_b + s.tails[b]);
}

Time TextbookBounds::johnson_pairs(const View& s) const {
  Time bound = 0;
  for (std::size_t pair = 0; pair < pairs_.size(); ++pair) {
    bound = std::max(bound, johnson_pair(s, pair));
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
