#pragma once
// Random LB2 bounding problems for the warp LB2 tests (emulated lanes and device): a node
// (summary, fixed-job flags, free jobs as row cells) of a random instance, an upper bound
// near its children's bounds (so cutoffs and LB1 pruning both happen), and the expected
// results computed by the host functions one child at a time.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "flowshop_tables.hpp"
#include "johnson_tables.hpp"
#include "lb2.hpp"
#include "test_support.hpp"

namespace permbb::testing {

struct Lb2Case {
  int n = 0;
  int m = 0;
  int count = 0;  // free jobs
  int direction = kFront;  // the kept direction, for lb1+lb2
  Time upper_bound = 0;
  std::vector<Time> summary;              // front, back, remain (3m)
  std::vector<unsigned char> scheduled;   // n
  std::vector<std::int8_t> cells;         // count
  std::vector<Time> lb2;                  // [direction * n + i], cut off at upper_bound
  std::vector<Time> lb2_exact;            // [direction * n + i], no cutoff
  std::vector<Time> refined;              // lb1+lb2 of the kept direction, n entries
};

inline Lb2Case make_lb2_case(std::mt19937& rng, const FlowshopTables& tables,
                             const JohnsonTables& johnson) {
  const FlowshopView d = tables.view();
  Lb2Case c;
  c.n = d.jobs;
  c.m = d.machines;
  std::vector<int> jobs(c.n);
  for (int j = 0; j < c.n; ++j) jobs[j] = j;
  std::shuffle(jobs.begin(), jobs.end(), rng);
  const int fixed = static_cast<int>(rng() % c.n);
  c.count = c.n - fixed;
  c.summary.resize(3 * c.m);
  Time* f = c.summary.data();
  Time* b = f + c.m;
  Time* r = b + c.m;
  lb1_root(d, f, b, r);
  c.scheduled.assign(c.n, 1);
  for (int i = 0; i < fixed; ++i) {
    if (rng() % 2) lb1_append_front(d, f, jobs[i], f);
    else lb1_prepend_back(d, b, jobs[i], b);
    lb1_remove_job(d, r, jobs[i], r);
  }
  for (int i = fixed; i < c.n; ++i) {
    c.cells.push_back(static_cast<std::int8_t>(jobs[i]));
    c.scheduled[jobs[i]] = 0;
  }
  std::vector<Time> side(c.m);
  c.lb2_exact.assign(2 * c.n, -1);
  for (int direction : {kFront, kBack}) {
    for (int i = 0; i < c.count; ++i) {
      c.lb2_exact[direction * c.n + i] = lb2_child_bound(
          d, johnson.view(), f, b, r, c.scheduled.data(), c.cells[i], direction, kInfiniteTime,
          side.data());
    }
  }
  // An upper bound among the children's bounds: some below it, some above.
  c.upper_bound = c.lb2_exact[static_cast<int>(rng() % c.count)] + static_cast<Time>(rng() % 3);
  c.direction = static_cast<int>(rng() % 2);
  c.lb2.assign(2 * c.n, -1);
  c.refined.assign(c.n, -1);
  for (int direction : {kFront, kBack}) {
    for (int i = 0; i < c.count; ++i) {
      c.lb2[direction * c.n + i] =
          lb2_child_bound(d, johnson.view(), f, b, r, c.scheduled.data(), c.cells[i], direction,
                          c.upper_bound, side.data());
    }
  }
  for (int i = 0; i < c.count; ++i) {
    const Time lb1 = lb1_child_bound(d, f, b, r, c.cells[i], c.direction);
    c.refined[i] = lb1 < c.upper_bound
                       ? lb2_child_bound(d, johnson.view(), f, b, r, c.scheduled.data(),
                                         c.cells[i], c.direction, c.upper_bound, side.data())
                       : lb1;
  }
  return c;
}

}  // namespace permbb::testing
