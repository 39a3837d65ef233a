// Device building blocks against their host references (style.md: every kernel test compares
// the device result with a host reference on many inputs): the warp LB1 (summaries, children
// bounds, complete makespan), the warp LB2 (fixed jobs as bits or flags, the device's Johnson
// stride, both mappings, both pair sets, lb1+lb2, with and without the LB2 screen), the warp
// branching decision, the warp row operations and the factoradic arithmetic of work stealing.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "device_buffer.hpp"
#include "factoradic.hpp"
#include "flowshop_tables.hpp"
#include "lb1.hpp"
#include "test_support.hpp"
#include "warp_branching.cuh"
#include "warp_ivm.cuh"
#include "warp_lb1.cuh"
#include "warp_lb2.cuh"
#include "johnson_tables.hpp"
#include "lb2_cases.hpp"

namespace permbb::gpu {
namespace {

// The team widths of the LB1 kernel (device_types.hpp): every team test runs each, teams of
// one warp side by side on different cases, so that their collectives name only their lanes.
template <class Body>
void for_each_team_width(const Body& body) {
  body(std::integral_constant<int, 32>{});
  body(std::integral_constant<int, 16>{});
  body(std::integral_constant<int, 8>{});
}

// Blocks of 128 threads, one team of W lanes per case.
int team_blocks(int cases, int width) { return (cases * width + 127) / 128; }

// One subproblem per team: a parent summary (3m), a job list (count jobs) and a job to add.
struct Case {
  int count = 0;
  int job = 0;
  int direction = 0;
  bool suffix_empty = false;
};

// Per case: child summary (3m), children bounds (2 x count, max n: the wanted directions),
// complete makespan; 2m times of scratch for the children's tails.
template <int W>
__global__ void lb1_kernel(FlowshopView d, const Case* cases, const Time* summaries,
                           const std::int8_t* cells, int n, bool want_front, bool want_back,
                           Time* child_summaries, Time* bounds, Time* makespans,
                           Time* tails, int total) {
  const int c = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / W);
  if (c >= total) return;
  const int m = d.machines;
  const Time* f = summaries + 3LL * m * c;
  Time* out = child_summaries + 3LL * m * c;
  warp::child_summary<W>(d, f, f + m, f + 2 * m, cases[c].job, cases[c].direction, out,
                         out + m, out + 2 * m);
  warp::bound_children<W>(d, f, f + m, f + 2 * m, cells + static_cast<long long>(n) * c,
                          cases[c].count, want_front, want_back, bounds + 2LL * n * c,
                          bounds + 2LL * n * c + n, tails + 2LL * m * c);
  const Time cmax =
      warp::complete_makespan<W>(d, f, f + m, cases[c].suffix_empty, cases[c].job);
  if (warp::lane<W>() == 0) makespans[c] = cmax;
}

struct DeviceTables {
  explicit DeviceTables(const FlowshopTables& t)
      : times(t.times_by_job().size()), heads(t.min_heads().size()),
        tails(t.min_tails().size()), totals(t.total_times().size()) {
    times.upload(t.times_by_job());
    heads.upload(t.min_heads());
    tails.upload(t.min_tails());
    totals.upload(t.total_times());
  }
  FlowshopView view(const FlowshopTables& t) const {
    return {t.jobs(), t.machines(), times.data(), heads.data(), tails.data(), totals.data()};
  }
  DeviceBuffer<Time> times, heads, tails, totals;
};

TEST(GpuWarpLb1, SummariesBoundsAndMakespansEqualTheHostForEveryTeamWidth) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 60; ++trial) {
    const int width = warp::kSize >> (trial % 3);  // 32, 16, 8
    const bool want_front = trial % 5 != 3;
    const bool want_back = trial % 5 != 4;
    const int n = 2 + trial % 39;
    const int m = 1 + static_cast<int>(rng() % 80);  // > 32 machines: chunked scans
    const Instance inst = testing::random_instance(rng, n, m, trial % 2 ? 99 : 5);
    const FlowshopTables tables(inst);
    const FlowshopView h = tables.view();
    const int total = 61;  // not a multiple of the teams per warp: some teams leave at once
    std::vector<Case> cases(total);
    std::vector<Time> summaries(3LL * m * total);
    std::vector<std::int8_t> cells(static_cast<size_t>(n) * total);
    for (int c = 0; c < total; ++c) {
      std::vector<int> jobs(n);
      for (int j = 0; j < n; ++j) jobs[j] = j;
      std::shuffle(jobs.begin(), jobs.end(), rng);
      const int fixed = static_cast<int>(rng() % n);  // jobs[0..fixed) scheduled
      Time* f = summaries.data() + 3LL * m * c;
      lb1_root(h, f, f + m, f + 2 * m);
      int suffix = 0;
      for (int i = 0; i < fixed; ++i) {
        if (rng() % 2) {
          lb1_append_front(h, f, jobs[i], f);
        } else {
          lb1_prepend_back(h, f + m, jobs[i], f + m);
          ++suffix;
        }
        lb1_remove_job(h, f + 2 * m, jobs[i], f + 2 * m);
      }
      cases[c] = {n - fixed, jobs[fixed], static_cast<int>(rng() % 2), suffix == 0};
      for (int i = fixed; i < n; ++i) {
        const int job = jobs[i];
        cells[static_cast<size_t>(n) * c + i - fixed] =
            static_cast<std::int8_t>(rng() % 3 == 0 ? ~job : job);  // some pruned flags
      }
    }
    DeviceTables dt(tables);
    DeviceBuffer<Case> d_cases(total);
    DeviceBuffer<Time> d_summaries(summaries.size()), d_children(summaries.size());
    DeviceBuffer<std::int8_t> d_cells(cells.size());
    DeviceBuffer<Time> d_bounds(2LL * n * total), d_makespans(total), d_tails(2LL * m * total);
    d_cases.upload(cases);
    d_summaries.upload(summaries);
    d_cells.upload(cells);
    for_each_team_width([&](auto w) {
      if (w != width) return;
      lb1_kernel<w><<<team_blocks(total, w), 128>>>(
          dt.view(tables), d_cases.data(), d_summaries.data(), d_cells.data(), n, want_front,
          want_back, d_children.data(), d_bounds.data(), d_makespans.data(), d_tails.data(),
          total);
    });
    PERMBB_CUDA_CHECK(cudaGetLastError());
    PERMBB_CUDA_CHECK(cudaDeviceSynchronize());
    const auto children = d_children.download();
    const auto bounds = d_bounds.download();
    const auto makespans = d_makespans.download();
    for (int c = 0; c < total; ++c) {
      const Time* f = summaries.data() + 3LL * m * c;
      std::vector<Time> want(3LL * m);
      const Case& k = cases[c];
      std::copy(f, f + 3 * m, want.begin());
      if (k.direction == kFront) lb1_append_front(h, f, k.job, want.data());
      else lb1_prepend_back(h, f + m, k.job, want.data() + m);
      lb1_remove_job(h, f + 2 * m, k.job, want.data() + 2 * m);
      for (int i = 0; i < 3 * m; ++i) ASSERT_EQ(children[3LL * m * c + i], want[i]) << "summary";
      for (int i = 0; i < k.count; ++i) {
        const int job = ivm::job_of(cells[static_cast<size_t>(n) * c + i]);
        if (want_front) {
          ASSERT_EQ(bounds[2LL * n * c + i], lb1_child_front_bound(h, f, f + m, f + 2 * m, job))
              << "trial " << trial << " team " << width;
        }
        if (want_back) {
          ASSERT_EQ(bounds[2LL * n * c + n + i],
                    lb1_child_back_bound(h, f, f + m, f + 2 * m, job))
              << "trial " << trial << " team " << width;
        }
      }
      ASSERT_EQ(makespans[c], complete_makespan(h, f, f + m, k.suffix_empty, k.job))
          << "trial " << trial << " case " << c << " team " << width;
    }
  }
}

template <int W>
__global__ void direction_kernel(BranchingRule rule, const Time* front, const Time* back,
                                 const int* counts, int stride, int* out, int total) {
  const int c = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / W);
  if (c >= total) return;
  const int d = warp::choose_direction<W>(rule, front + stride * c, back + stride * c, counts[c]);
  if (warp::lane<W>() == 0) out[c] = d;
}

TEST(GpuWarpBranching, ChooseDirectionEqualsTheHostIncludingTiesForEveryTeamWidth) {
  std::mt19937 rng(5);
  const int total = 4000;
  const int stride = 80;
  std::vector<Time> front(static_cast<size_t>(stride) * total), back(front.size());
  std::vector<int> counts(total);
  for (int c = 0; c < total; ++c) {
    counts[c] = 1 + static_cast<int>(rng() % stride);
    const int spread = 1 + static_cast<int>(rng() % 4);  // small ranges: many ties
    const Time base = static_cast<Time>(rng() % 3 == 0 ? 2000000000 : 100);  // big sums too
    for (int i = 0; i < counts[c]; ++i) {
      front[static_cast<size_t>(stride) * c + i] = base + static_cast<Time>(rng() % spread);
      back[static_cast<size_t>(stride) * c + i] = base + static_cast<Time>(rng() % spread);
    }
  }
  DeviceBuffer<Time> d_front(front.size()), d_back(back.size());
  DeviceBuffer<int> d_counts(total), d_out(total);
  d_front.upload(front);
  d_back.upload(back);
  d_counts.upload(counts);
  int fronts = 0;
  for (BranchingRule rule : {BranchingRule::kMinMin, BranchingRule::kMinMinForwardTies,
                             BranchingRule::kMaxSum, BranchingRule::kForward,
                             BranchingRule::kBackward})
  for_each_team_width([&](auto w) {
    direction_kernel<w><<<team_blocks(total, w), 128>>>(rule, d_front.data(), d_back.data(),
                                                        d_counts.data(), stride, d_out.data(),
                                                        total);
    PERMBB_CUDA_CHECK(cudaGetLastError());
    const auto out = d_out.download();
    for (int c = 0; c < total; ++c) {
      const int want = choose_direction(rule, front.data() + static_cast<size_t>(stride) * c,
                                        back.data() + static_cast<size_t>(stride) * c, counts[c]);
      ASSERT_EQ(out[c], want) << "case " << c << " rule " << static_cast<int>(rule)
                              << " team " << w;
      fronts += want == kFront;
    }
  });
  EXPECT_GT(fronts, 3 * total);  // both decisions occur (5 rules x 3 widths)
  EXPECT_LT(fronts, 15 * total);
}

// One team (the first of a warp's): generate row r+1 from row r, then prune it with the given
// bounds.
template <int W>
__global__ void rows_kernel(int n, int* line, int* pos, int* end, int* dir, std::int16_t* matrix,
                            int r, const Time* bounds, Time ub) {
  if (static_cast<int>(threadIdx.x) >= W) return;
  const ivm::View<std::int16_t> v{n, line, pos, end, dir, matrix};
  warp::generate_row<W>(v, r);
  warp::prune_row<W>(v, r + 1, bounds, ub);
}

TEST(GpuWarpIvm, GenerateAndPruneRowsEqualTheHost) {
  std::mt19937 rng(9);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 3 + trial % 150;
    const int r = static_cast<int>(rng() % (n - 2));
    std::vector<std::int16_t> matrix(ivm::matrix_cells(n));
    std::vector<int> pos(n, 0), end(n, 0), dir(n, 0);
    int line = r;
    const int length = ivm::row_length(r, n);
    std::int16_t* row = matrix.data() + ivm::row_offset(r, n);
    for (int i = 0; i < length; ++i) row[i] = static_cast<std::int16_t>(rng() % 2 ? i : ~i);
    pos[r] = static_cast<int>(rng() % length);
    std::vector<Time> bounds(n);
    for (auto& b : bounds) b = static_cast<Time>(rng() % 10);
    const Time ub = 5;
    DeviceBuffer<int> d_line(1), d_pos(n), d_end(n), d_dir(n);
    DeviceBuffer<std::int16_t> d_matrix(matrix.size());
    DeviceBuffer<Time> d_bounds(n);
    d_line.upload(&line, 1);
    d_pos.upload(pos);
    d_matrix.upload(matrix);
    d_bounds.upload(bounds);
    for_each_team_width([&](auto w) {
      if (w != (warp::kSize >> (trial % 3))) return;
      rows_kernel<w><<<1, 32>>>(n, d_line.data(), d_pos.data(), d_end.data(), d_dir.data(),
                                d_matrix.data(), r, d_bounds.data(), ub);
    });
    PERMBB_CUDA_CHECK(cudaGetLastError());
    const auto got = d_matrix.download();
    const ivm::View<std::int16_t> v{n, &line, pos.data(), end.data(), dir.data(), matrix.data()};
    ivm::generate_row(v, r);
    ivm::prune_row(v, r + 1, bounds.data(), ub);
    const int offset = ivm::row_offset(r + 1, n);
    for (int i = 0; i < ivm::row_length(r + 1, n); ++i) ASSERT_EQ(got[offset + i], matrix[offset + i]);
  }
}

// Thread per case: split_point(a, b, T), midpoint(a, b), subtract(b, a).
__global__ void factoradic_kernel(int n, const int* a, const int* b, long long divisor, int* split,
                                  int* mid, int* diff, int total) {
  const int c = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (c >= total) return;
  const int* x = a + static_cast<long long>(n) * c;
  const int* y = b + static_cast<long long>(n) * c;
  factoradic::split_point(x, y, divisor, split + static_cast<long long>(n) * c, n);
  factoradic::midpoint(x, y, mid + static_cast<long long>(n) * c, n);
  factoradic::subtract(y, x, diff + static_cast<long long>(n) * c, n);
}

TEST(GpuFactoradic, SplitPointMidpointAndSubtractEqualTheHost) {
  std::mt19937_64 rng(13);
  for (int n : {2, 5, 12, 20}) {
    const int total = 3000;
    std::vector<int> a(static_cast<size_t>(n) * total), b(a.size());
    const std::uint64_t space = testing::factorial(n);
    for (int c = 0; c < total; ++c) {
      std::uint64_t x = rng() % (space + 1);
      std::uint64_t y = rng() % (space + 1);
      if (x > y) std::swap(x, y);
      const auto dx = testing::digits_of(x, n);
      const auto dy = testing::digits_of(y, n);
      std::copy(dx.begin(), dx.end(), a.begin() + static_cast<long>(n) * c);
      std::copy(dy.begin(), dy.end(), b.begin() + static_cast<long>(n) * c);
    }
    DeviceBuffer<int> d_a(a.size()), d_b(b.size()), d_split(a.size()), d_mid(a.size()),
        d_diff(a.size());
    d_a.upload(a);
    d_b.upload(b);
    const long long divisor = 7;
    factoradic_kernel<<<(total + 127) / 128, 128>>>(n, d_a.data(), d_b.data(), divisor,
                                                    d_split.data(), d_mid.data(), d_diff.data(),
                                                    total);
    PERMBB_CUDA_CHECK(cudaGetLastError());
    const auto split = d_split.download();
    const auto mid = d_mid.download();
    const auto diff = d_diff.download();
    std::vector<int> want(n);
    for (int c = 0; c < total; ++c) {
      const int* x = a.data() + static_cast<size_t>(n) * c;
      const int* y = b.data() + static_cast<size_t>(n) * c;
      factoradic::split_point(x, y, divisor, want.data(), n);
      ASSERT_TRUE(std::equal(want.begin(), want.end(), split.begin() + static_cast<long>(n) * c));
      factoradic::midpoint(x, y, want.data(), n);
      ASSERT_TRUE(std::equal(want.begin(), want.end(), mid.begin() + static_cast<long>(n) * c));
      factoradic::subtract(y, x, want.data(), n);
      ASSERT_TRUE(std::equal(want.begin(), want.end(), diff.begin() + static_cast<long>(n) * c));
    }
  }
}


// One LB2 case per warp (tests/gpu/lb2_cases.hpp): flags, LB2 without and with cutoff, the
// cut-off bounds redone without cutoff (MinMin's exact sums), and the lb1+lb2 refinement of
// `kept` (LB1 bounds on entry), with the given LB2 screen and shared terms (bound_items_lb2):
// screened or shared bounds at or above the cutoff may differ from the host's, never their
// side of it.
__global__ void lb2_kernel(FlowshopView d, JohnsonView johnson, const Time* summary,
                           const std::int8_t* cells, int count, int direction, Time upper_bound,
                           GpuMapping mapping, unsigned char* scheduled, Time* exact, Time* cut,
                           Time* kept, int* todo, int screen, unsigned long long* lane_bits,
                           Time* redone, int shared, Time* scratch) {
  const int m = d.machines;
  const int n = d.jobs;
  const FreeJobBits free_jobs = warp::mark_fixed_jobs(cells, count, n, scheduled);
  lane_bits[warp::lane()] = free_jobs.bits;
  const warp::Lb2Node node{d,         johnson,   summary, summary + m,
                           summary + 2 * m, scheduled, free_jobs,
                           warp::lb2_scratch_at(scratch, n, m), shared};
  warp::bound_children_lb2(node, cells, count, true, true, kInfiniteTime, mapping, exact, n,
                           screen);
  warp::bound_children_lb2(node, cells, count, true, true, upper_bound, mapping, cut, n, screen);
  for (int i = warp::lane(); i < 2 * n; i += warp::kSize) redone[i] = cut[i];
  __syncwarp();
  warp::bound_children_lb2(node, cells, count, true, true, kInfiniteTime, mapping, redone, n,
                           screen, upper_bound);
  warp::refine_with_lb2(node, cells, count, direction, upper_bound, mapping, kept, todo, screen);
}

TEST(GpuWarpLb2, BoundsEqualTheHostForEveryMappingPairSetScreenAndSharing) {
  std::mt19937 rng(64);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = testing::lb2_case_jobs(trial, 60);
    const int m = 1 + static_cast<int>(rng() % kMaxGpuLb2Machines);
    const Instance inst = testing::random_instance(rng, n, m, trial % 2 ? 99 : 5);
    const FlowshopTables tables(inst);
    const JohnsonTables johnson(inst, trial % 3 ? MachinePairs::kAll : MachinePairs::kAdjacent);
    const testing::Lb2Case c = testing::make_lb2_case(rng, tables, johnson);
    DeviceTables dt(tables);
    DeviceBuffer<int> ma(johnson.machine_a().size() + 1), mb(johnson.machine_b().size() + 1);
    const testing::PaddedJohnson padded(johnson);
    DeviceBuffer<JohnsonEntry> seq(padded.sequence.size() + 1);
    ma.upload(johnson.machine_a());
    mb.upload(johnson.machine_b());
    seq.upload(padded.sequence);
    const JohnsonView jv{johnson.pair_count(), n, ma.data(), mb.data(), seq.data(),
                         padded.stride};
    DeviceBuffer<Time> summary(c.summary.size());
    summary.upload(c.summary);
    DeviceBuffer<std::int8_t> cells(c.cells.size());
    cells.upload(c.cells);
    for (const testing::Lb2Variant& variant : testing::all_lb2_variants(johnson.pair_count())) {
      const std::string where = "trial " + std::to_string(trial) + ", " + variant.name();
      DeviceBuffer<unsigned char> scheduled(n);
      DeviceBuffer<Time> exact(2 * n), cut(2 * n), kept(n), redone(2 * n);
      DeviceBuffer<int> todo(n);
      DeviceBuffer<Time> scratch(lb2_scratch_times(n, m));
      DeviceBuffer<unsigned long long> lane_bits(warp::kSize);
      const std::vector<Time> unset(2 * n, -1);
      exact.upload(unset);
      cut.upload(unset);
      kept.upload(testing::lb1_of_kept_direction(c, tables));
      lb2_kernel<<<1, 32>>>(dt.view(tables), jv, summary.data(), cells.data(), c.count,
                            c.direction, c.upper_bound, variant.mapping, scheduled.data(),
                            exact.data(), cut.data(), kept.data(), todo.data(), variant.screen,
                            lane_bits.data(), redone.data(), variant.shared, scratch.data());
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      const std::vector<unsigned long long> bits = lane_bits.download();
      ASSERT_EQ(bits, std::vector<unsigned long long>(warp::kSize, bits[0])) << where;
      ASSERT_TRUE(testing::fixed_jobs_match(c, scheduled.download(), bits[0])) << where;
      testing::expect_lb2_results(c, variant, exact.download(), cut.download(), kept.download(),
                                  where);
      EXPECT_EQ(redone.download(), c.lb2_exact) << where << ": cut-off bounds redone";
    }
  }
}

}  // namespace
}  // namespace permbb::gpu
