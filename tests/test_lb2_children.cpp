// Lb2Children (the CPU's LB2 of a node's children: shared per-node terms or, for the last
// children, a direct sweep; learned pair order; cut at the upper bound) against a plain LB2
// written here: every pair, a full Johnson sweep of the child's unscheduled jobs, no cutoff.
// Its values, prune decisions and the node counts of whole searches must be the reference's.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "explorer_reference.hpp"
#include "flowshop_tables.hpp"
#include "johnson_tables.hpp"
#include "lb2_children.hpp"
#include "test_support.hpp"

namespace permbb {
namespace {

using testing::random_instance;

// ---- The reference: a partial schedule (prefix, suffix) bounded from scratch. ----

struct Partial {
  std::vector<int> prefix;
  std::vector<int> suffix;
  std::vector<int> free_jobs;
};

// Per machine: when the prefix ends (the smallest head of any job when it is empty).
std::vector<Time> reference_front(const Instance& inst, const std::vector<int>& prefix) {
  std::vector<Time> front(inst.machines(), INT32_MAX);
  if (prefix.empty()) {
    for (int j = 0; j < inst.jobs(); ++j) {
      Time head = 0;
      for (int k = 0; k < inst.machines(); ++k) {
        front[k] = std::min(front[k], head);
        head += inst.time(k, j);
      }
    }
    return front;
  }
  return testing::naive_completion(inst, prefix);
}

// Per machine: from the start of the suffix there to the end (the smallest tail when empty),
// by scheduling the suffix backwards on the reversed machines.
std::vector<Time> reference_back(const Instance& inst, const std::vector<int>& suffix) {
  const int m = inst.machines();
  std::vector<Time> back(m, suffix.empty() ? INT32_MAX : 0);
  for (int j = 0; suffix.empty() && j < inst.jobs(); ++j) {
    Time tail = 0;
    for (int k = m - 1; k >= 0; --k) {
      back[k] = std::min(back[k], tail);
      tail += inst.time(k, j);
    }
  }
  for (auto it = suffix.rbegin(); it != suffix.rend(); ++it) {
    Time done = 0;
    for (int k = m - 1; k >= 0; --k) {
      done = std::max(done, back[k]) + inst.time(k, *it);
      back[k] = done;
    }
  }
  return back;
}

// One pair's two-machine bound: Johnson's rule for (p_a + lag, lag + p_b), ties by job.
Time reference_pair(const Instance& inst, const Partial& p, const std::vector<Time>& front,
                    const std::vector<Time>& back, int a, int b) {
  auto lag = [&](int j) {
    Time sum = 0;
    for (int k = a + 1; k < b; ++k) sum += inst.time(k, j);
    return sum;
  };
  std::vector<int> order = p.free_jobs;
  std::sort(order.begin(), order.end());
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
    const Time fx = inst.time(a, x) + lag(x), sx = lag(x) + inst.time(b, x);
    const Time fy = inst.time(a, y) + lag(y), sy = lag(y) + inst.time(b, y);
    if ((fx < sx) != (fy < sy)) return fx < sx;
    return fx < sx ? fx < fy : sx > sy;
  });
  Time done_a = front[a];
  Time done_b = front[b];
  for (int j : order) {
    done_a += inst.time(a, j);
    done_b = std::max(done_b, done_a + lag(j)) + inst.time(b, j);
  }
  return std::max(done_a + back[a], done_b + back[b]);
}

// LB1: front + remaining work + back on one machine, the largest over machines.
Time reference_lb1(const Instance& inst, const Partial& p) {
  const std::vector<Time> front = reference_front(inst, p.prefix);
  const std::vector<Time> back = reference_back(inst, p.suffix);
  Time lb = 0;
  for (int k = 0; k < inst.machines(); ++k) {
    Time remain = 0;
    for (int j : p.free_jobs) remain += inst.time(k, j);
    lb = std::max(lb, front[k] + remain + back[k]);
  }
  return lb;
}

// LB2: the largest pair bound and LB1 (front + remaining work + back on one machine).
Time reference_lb2(const Instance& inst, const Partial& p, bool adjacent_only) {
  const std::vector<Time> front = reference_front(inst, p.prefix);
  const std::vector<Time> back = reference_back(inst, p.suffix);
  Time lb = reference_lb1(inst, p);
  for (int a = 0; a < inst.machines(); ++a) {
    for (int b = a + 1; b < inst.machines(); ++b) {
      if (!adjacent_only || b == a + 1) lb = std::max(lb, reference_pair(inst, p, front, back, a, b));
    }
  }
  return lb;
}

Partial child_of(Partial p, int job, int direction) {
  std::erase(p.free_jobs, job);
  if (direction == kFront) {
    p.prefix.push_back(job);
  } else {
    p.suffix.insert(p.suffix.begin(), job);
  }
  return p;
}

// ---- Lb2Children on the same partial schedules. ----

Partial random_partial(std::mt19937& rng, int n) {
  const std::vector<int> jobs = testing::random_permutation(rng, n);
  const int fixed = std::uniform_int_distribution<int>(0, n - 1)(rng);
  const int in_prefix = std::uniform_int_distribution<int>(0, fixed)(rng);
  return {{jobs.begin(), jobs.begin() + in_prefix},
          {jobs.begin() + in_prefix, jobs.begin() + fixed},
          {jobs.begin() + fixed, jobs.end()}};
}

// The summary (lb1.hpp) of a partial schedule, built with the explorer's own steps.
struct Summary {
  std::vector<Time> front, back, remain;
  std::vector<unsigned char> scheduled;
};

Summary summarise(const FlowshopView& d, const Partial& p) {
  Summary s{std::vector<Time>(d.machines), std::vector<Time>(d.machines),
            std::vector<Time>(d.machines), std::vector<unsigned char>(d.jobs, 1)};
  lb1_root(d, s.front.data(), s.back.data(), s.remain.data());
  for (int job : p.prefix) {
    lb1_append_front(d, s.front.data(), job, s.front.data());
    lb1_remove_job(d, s.remain.data(), job, s.remain.data());
  }
  for (auto it = p.suffix.rbegin(); it != p.suffix.rend(); ++it) {
    lb1_prepend_back(d, s.back.data(), *it, s.back.data());
    lb1_remove_job(d, s.remain.data(), *it, s.remain.data());
  }
  for (int job : p.free_jobs) s.scheduled[job] = 0;
  return s;
}

// `nodes` random nodes of `inst` through one Lb2Children, so the learned pair order moves (it
// is re-sorted every 1024 cuts) while being checked: each child's bound, with the cutoff
// below, at and above the reference and at no cutoff, is min(reference, cutoff). The count
// of children announced to set_node varies by node: 1 sweeps every pair, 3 builds the terms
// for the first child and sweeps for the rest, many build them all.
void expect_plain_bounds(std::mt19937& rng, const Instance& inst, bool adjacent, int nodes) {
  const int n = inst.jobs();
  const FlowshopTables tables(inst);
  const JohnsonTables johnson(inst, adjacent ? MachinePairs::kAdjacent : MachinePairs::kAll);
  Lb2Children lb2(tables.view(), johnson.view());
  for (int node = 0; node < nodes; ++node) {
    const Partial parent = random_partial(rng, n);
    const Summary s = summarise(tables.view(), parent);
    const int announced[] = {1, 3, 6 * n};
    lb2.set_node(s.scheduled.data(), announced[node % 3]);
    for (int job : parent.free_jobs) {
      for (const int direction : {kFront, kBack}) {
        const Time expected = reference_lb2(inst, child_of(parent, job, direction), adjacent);
        const Time near = expected - 1 + static_cast<Time>(rng() % 3);
        for (const Time cutoff : {kInfiniteTime, near, expected / 2 + 1}) {
          const Time got = lb2.child_bound(s.front.data(), s.back.data(), s.remain.data(), job,
                                           direction, cutoff);
          ASSERT_EQ(got, std::min(expected, cutoff))
              << "n " << n << " m " << inst.machines() << " announced " << announced[node % 3]
              << " job " << job << " dir " << direction << " cutoff " << cutoff;
          ASSERT_EQ(got >= cutoff, expected >= cutoff);  // the prune decision
        }
      }
    }
  }
}

TEST(Lb2Children, EqualsThePlainBoundCutAtTheCutoffInBothDirections) {
  std::mt19937 rng(23);
  for (const bool adjacent : {false, true}) {
    for (int trial = 0; trial < testing::scaled_trials(200); ++trial) {
      expect_plain_bounds(rng, random_instance(rng, 2 + trial % 11, 1 + trial % 8), adjacent, 60);
    }
  }
}

// Past 64 jobs the ranks of a node's unscheduled jobs span several words of the bitmask.
TEST(Lb2Children, EqualsThePlainBoundPastSixtyFourJobs) {
  std::mt19937 rng(31);
  for (int trial = 0; trial < testing::scaled_trials(6); ++trial) {
    expect_plain_bounds(rng, random_instance(rng, 63 + trial * 7, 2 + trial % 3), false, 6);
  }
}

// ---- Whole searches: the explorer's node counts against a plain search on the reference. ----

struct ReferenceSearch {
  const Instance& inst;
  SearchSettings settings;
  Time upper_bound;
  std::uint64_t decomposed = 0;

  Time lb1(const Partial& p) const {
    return reference_lb1(inst, p);
  }

  // The children's bounds in `direction`, in the order of `jobs`; with lb1+lb2 LB1's only.
  std::vector<Time> bounds(const Partial& p, int direction) const {
    std::vector<Time> out;
    for (int job : p.free_jobs) {
      const Partial c = child_of(p, job, direction);
      out.push_back(settings.bound == BoundKind::kLb1ThenLb2
                        ? lb1(c)
                        : reference_lb2(inst, c, settings.bound == BoundKind::kLb2Adjacent));
    }
    return out;
  }

  // Decomposes `p` (counted unless it is the root): the children of the direction the rule
  // keeps on exact bounds, those below the upper bound explored depth-first.
  void explore(const Partial& p, bool root) {
    if (!root) ++decomposed;
    if (p.free_jobs.size() <= 1) return;  // a leaf parent: no better leaf exists
    std::vector<Time> front = bounds(p, kFront);
    std::vector<Time> back = bounds(p, kBack);
    const int direction = choose_direction(settings.branching, front.data(), back.data(),
                                           static_cast<int>(front.size()));
    const std::vector<Time>& kept = direction == kFront ? front : back;
    for (size_t i = 0; i < kept.size(); ++i) {
      const Partial c = child_of(p, p.free_jobs[i], direction);
      const bool lb2_refines = settings.bound == BoundKind::kLb1ThenLb2 && kept[i] < upper_bound;
      const Time lb = lb2_refines ? reference_lb2(inst, c, false) : kept[i];
      if (lb < upper_bound) explore(c, false);
    }
  }
};

// At an upper bound no schedule beats (the optimum, and below it) nothing improves, so the
// tree depends only on the bounds' prune decisions and the directions: the explorer with
// Lb2Children must decompose exactly the reference's nodes.
TEST(Lb2Children, WholeSearchesDecomposeTheReferenceNodeCounts) {
  std::mt19937 rng(29);
  const BoundKind bounds[] = {BoundKind::kLb2, BoundKind::kLb2Adjacent, BoundKind::kLb1ThenLb2};
  const BranchingRule rules[] = {BranchingRule::kMinMin, BranchingRule::kMinMinForwardTies,
                                 BranchingRule::kMaxSum, BranchingRule::kForward,
                                 BranchingRule::kBackward};
  for (int trial = 0; trial < testing::scaled_trials(150); ++trial) {
    const Instance inst = random_instance(rng, 4 + trial % 5, 2 + trial % 5, 1 + trial % 3 * 20);
    const Time upper_bound = testing::brute_force_optimum(inst) - static_cast<Time>(trial % 3);
    for (const BoundKind bound : bounds) {
      const SearchSettings settings{bound, rules[trial % 5]};
      Partial root;
      root.free_jobs.resize(inst.jobs());
      std::iota(root.free_jobs.begin(), root.free_jobs.end(), 0);
      ReferenceSearch reference{inst, settings, upper_bound};
      reference.explore(root, true);
      const auto result = testing::sequential_search(inst, settings, upper_bound);
      ASSERT_EQ(result.nodes.decomposed, reference.decomposed)
          << "trial " << trial << " " << to_string(bound) << " " << to_string(settings.branching);
    }
  }
}

}  // namespace
}  // namespace permbb
