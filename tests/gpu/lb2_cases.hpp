#pragma once
// Random LB2 bounding problems for the warp LB2 tests (emulated lanes and device): a node
// (summary, fixed-job flags, free jobs as row cells) of a random instance, an upper bound
// near its children's bounds (so cutoffs and LB1 pruning both happen), and the expected
// results computed by the host functions one child at a time; the ways of running the warp
// LB2 (mapping, screen) and how their results are compared.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "device_types.hpp"
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

// The LB1 bounds of the kept direction's children: what refine_with_lb2 starts from.
inline std::vector<Time> lb1_of_kept_direction(const Lb2Case& c, const FlowshopTables& tables) {
  std::vector<Time> kept(c.n, -1);
  const Time* f = c.summary.data();
  for (int i = 0; i < c.count; ++i) {
    kept[i] = lb1_child_bound(tables.view(), f, f + c.m, f + 2 * c.m, c.cells[i], c.direction);
  }
  return kept;
}

// What mark_fixed_jobs leaves for the case's node: its flags beyond kMaxFreeJobBits jobs
// (`scheduled` as given up to that), and its free jobs' bits up to it (0 beyond).
inline bool fixed_jobs_match(const Lb2Case& c, const std::vector<unsigned char>& scheduled,
                             unsigned long long bits) {
  if (c.n > kMaxFreeJobBits) return scheduled == c.scheduled && bits == 0;
  unsigned long long expected = 0;
  for (int j = 0; j < c.n; ++j) {
    if (!c.scheduled[j]) expected |= 1ull << j;
  }
  return bits == expected;
}

// Johnson's sequences laid out as the device holds them (device_johnson_stride), and a view
// of them.
struct PaddedJohnson {
  explicit PaddedJohnson(const JohnsonTables& johnson)
      : stride(gpu::device_johnson_stride(johnson.jobs())),
        sequence(johnson.sequence_with_stride(stride)),
        view(johnson.view()) {
    view.sequence = sequence.data();
    view.stride = stride;
  }
  int stride;
  std::vector<JohnsonEntry> sequence;
  JohnsonView view;
};

// The job counts of the warp LB2 tests: mostly small, one trial in eight beyond
// kMaxFreeJobBits (the flags path), all within int8 cells.
inline int lb2_case_jobs(int trial, int most) {
  return trial % 8 == 7 ? kMaxFreeJobBits + 1 + trial % 60 : 2 + trial % most;
}

using gpu::GpuMapping;
using gpu::kLb2ScreenOff;
using gpu::kLb2SharedOff;

// One way of running the warp LB2: the lane mapping, the screen and the shared terms
// (device_types.hpp).
struct Lb2Variant {
  GpuMapping mapping;
  int screen;
  int shared = kLb2SharedOff;
  std::string name() const {
    return std::string(mapping == GpuMapping::kRemap ? "remap" : "static") + ", screen " +
           std::to_string(screen) + ", shared from " + std::to_string(shared);
  }
  // One lane per child over every pair: the host's very values, cut-off ones included.
  bool lane_per_child() const { return screen == kLb2ScreenOff && shared == kLb2SharedOff; }
};

// Both mappings one lane per child, and the two phases with none, some, half, all and more
// than all of the `pairs` pairs screened.
inline std::vector<Lb2Variant> lb2_variants(int pairs) {
  std::vector<Lb2Variant> out = {{GpuMapping::kStatic, kLb2ScreenOff},
                                 {GpuMapping::kRemap, kLb2ScreenOff}};
  for (int screen : {0, 1, 3, pairs / 2, pairs, pairs + 5}) {
    out.push_back({GpuMapping::kRemap, screen});
  }
  return out;
}

// The shared pair terms while at least 1, 4 or 9 children are open: every pair shared, a
// switch to the warp's finish on the way, or the finish from the start for most nodes; the
// last beside a screen, which the shared terms take precedence over.
inline std::vector<Lb2Variant> lb2_shared_variants() {
  return {{GpuMapping::kRemap, kLb2ScreenOff, 1},
          {GpuMapping::kRemap, kLb2ScreenOff, 4},
          {GpuMapping::kRemap, 2, 9}};
}

inline std::vector<Lb2Variant> all_lb2_variants(int pairs) {
  std::vector<Lb2Variant> out = lb2_variants(pairs);
  for (const Lb2Variant& v : lb2_shared_variants()) out.push_back(v);
  return out;
}

inline std::vector<Time> capped(std::vector<Time> bounds, Time cap) {
  for (Time& b : bounds) b = std::min(b, cap);
  return bounds;
}

// The device's bounds against the case's: exact without a cutoff; with one, one lane per
// child gives the host's very values, the two phases the same below the cutoff and a value
// at or above it where the host's is (all that pruning and branching read).
inline void expect_lb2_results(const Lb2Case& c, const Lb2Variant& variant,
                               const std::vector<Time>& exact, const std::vector<Time>& cut,
                               const std::vector<Time>& kept, const std::string& where) {
  EXPECT_EQ(exact, c.lb2_exact) << where;
  if (variant.lane_per_child()) {
    EXPECT_EQ(cut, c.lb2) << where;
    EXPECT_EQ(kept, c.refined) << where;
  } else {
    EXPECT_EQ(capped(cut, c.upper_bound), capped(c.lb2, c.upper_bound)) << where;
    EXPECT_EQ(capped(kept, c.upper_bound), capped(c.refined, c.upper_bound)) << where;
  }
}

}  // namespace permbb::testing
