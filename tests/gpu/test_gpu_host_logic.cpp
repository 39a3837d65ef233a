// Host-side logic of the GPU explorer, run without a GPU: the hypercube neighbourhood, the
// stealing steps (the very PERMBB_HD functions the kernels call, here in host loops), the
// initial partition and the shared-memory layout.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "device_types.hpp"
#include "factoradic.hpp"
#include "factoradic_mpz.hpp"
#include "steal_logic.hpp"
#include "test_support.hpp"
#include "work_split.hpp"
#include "work_queue.hpp"

namespace permbb::gpu {
namespace {

using testing::digits_of;
using testing::factorial;
using testing::value_of;

TEST(GpuHypercube, EachShiftOfEachDigitIsABijectionChangingOneDigit) {
  EXPECT_EQ(hypercube_digits(1), 0);
  EXPECT_EQ(hypercube_digits(4), 1);
  EXPECT_EQ(hypercube_digits(5), 2);
  EXPECT_EQ(hypercube_digits(16384), 7);  // the 4-ary 7-cube of 2022 §3.4
  const int count = 256;
  for (int digit = 0; digit < 4; ++digit) {
    for (int shift = 1; shift <= 3; ++shift) {
      std::set<int> images;
      for (int i = 0; i < count; ++i) {
        const int v = hypercube_neighbour(i, digit, shift);
        ASSERT_GE(v, 0);
        ASSERT_LT(v, count);
        ASSERT_NE(v, i);
        ASSERT_EQ(v & ~(3 << (2 * digit)), i & ~(3 << (2 * digit)));
        images.insert(v);
      }
      EXPECT_EQ(static_cast<int>(images.size()), count);
    }
  }
}

// A PoolView over host vectors: the fields the stealing functions use.
struct HostPool {
  HostPool(int count, int n, std::vector<int> min_steal)
      : pos(count * n), end(count * n), state(count), claimed(count), scratch(count * n),
        length(count), min(std::move(min_steal)) {
    view.count = count;
    view.n = n;
    view.pos = pos.data();
    view.end = end.data();
    view.state = state.data();
    view.claimed = claimed.data();
    view.scratch = scratch.data();
    view.length = length.data();
    view.min_steal = min.data();
  }
  std::uint64_t begin_of(int i) const {
    return value_of(std::vector<int>(pos.begin() + i * view.n, pos.begin() + (i + 1) * view.n));
  }
  std::uint64_t end_of(int i) const {
    return value_of(std::vector<int>(end.begin() + i * view.n, end.begin() + (i + 1) * view.n));
  }
  std::vector<int> pos, end, state, claimed, scratch;
  std::vector<double> length;
  std::vector<int> min;
  PoolView view;
};

// The union of the non-empty intervals of exploring and initializing IVMs, as sorted pairs.
std::vector<std::pair<std::uint64_t, std::uint64_t>> owned(const HostPool& p) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  for (int i = 0; i < p.view.count; ++i) {
    if (p.state[i] == kEmpty || p.begin_of(i) >= p.end_of(i)) continue;
    out.push_back({p.begin_of(i), p.end_of(i)});
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::uint64_t covered(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& parts) {
  std::uint64_t total = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) {
      EXPECT_LE(parts[i - 1].second, parts[i].first) << "intervals overlap";
    }
    total += parts[i].second - parts[i].first;
  }
  return total;
}

constexpr StealRule kStealRules[] = {StealRule::kMean, StealRule::kLargestNeighbour};

// Puts [begin, end) on IVM i, exploring when not empty.
void place(HostPool& p, int i, std::uint64_t begin, std::uint64_t end) {
  const int n = p.view.n;
  p.state[i] = end > begin ? kExploring : kEmpty;
  const auto b = digits_of(begin, n);
  const auto e = digits_of(end, n);
  std::copy(b.begin(), b.end(), p.pos.begin() + i * n);
  std::copy(e.begin(), e.end(), p.end.begin() + i * n);
}

TEST(GpuStealing, APhaseSplitsVictimsOnceAndKeepsEveryLeafOwnedOnce) {
  std::mt19937 rng(7);
  const int n = 10;
  for (const StealRule rule : kStealRules) {
    for (int trial = 0; trial < 40; ++trial) {
      const int count = 1 + static_cast<int>(rng() % 70);
      HostPool p(count, n, min_steal_digits(n, 0));
      // Random disjoint intervals for exploring IVMs, in a random order over the IVMs.
      std::vector<std::uint64_t> cuts{0, factorial(n)};
      for (int c = 0; c < count; ++c) cuts.push_back(rng() % factorial(n));
      std::sort(cuts.begin(), cuts.end());
      for (int i = 0; i < count; ++i) place(p, i, cuts[i], rng() % 3 == 0 ? cuts[i + 1] : cuts[i]);
      const auto before = owned(p);
      std::vector<std::uint64_t> ends_before(count);
      for (int i = 0; i < count; ++i) ends_before[i] = p.end_of(i);
      const int steals = steal_phase_on_host(p.view, rule);
      const std::string where = "rule " + std::to_string(static_cast<int>(rule)) + " trial " +
                                std::to_string(trial);
      EXPECT_EQ(covered(before), covered(owned(p))) << where;
      // A victim keeps the left half: its end moved. Each is split once, by one thief.
      int victims = 0;
      int thieves = 0;
      for (int i = 0; i < count; ++i) {
        if (p.state[i] == kExploring && p.end_of(i) != ends_before[i]) ++victims;
        if (p.state[i] != kInitializing) continue;
        ++thieves;
        EXPECT_LT(p.begin_of(i), p.end_of(i)) << where;
      }
      EXPECT_EQ(victims, steals) << where;
      EXPECT_EQ(thieves, steals) << where;
    }
  }
}

// The thin GPU of docs/scale.md in four IVMs: IVM 0 holds a huge interval, IVM 1 a short one
// (far below the mean of the two), IVMs 2 and 3 are empty. By the mean only the huge one is
// split; taking the longest neighbour splits the short one too.
TEST(GpuStealing, AnOutlierHoldsOffTheOtherVictimsOnlyUnderTheMeanRule) {
  const int n = 10;
  for (const StealRule rule : kStealRules) {
    HostPool p(4, n, min_steal_digits(n, 0));
    place(p, 0, 0, 3000000);
    place(p, 1, 3000000, 3001000);
    place(p, 2, 3001000, 3001000);
    place(p, 3, 3001000, 3001000);
    const int steals = steal_phase_on_host(p.view, rule);
    EXPECT_EQ(steals, rule == StealRule::kMean ? 1 : 2) << static_cast<int>(rule);
    EXPECT_EQ(covered(owned(p)), 3001000u);
    EXPECT_EQ(owned(p).size(), static_cast<size_t>(2 + steals));
  }
}

TEST(GpuStealing, FromOneIntervalEveryThiefGetsWorkAfterEnoughPhases) {
  const int n = 9;
  const int count = 64;
  for (const StealRule rule : kStealRules) {
    HostPool p(count, n, min_steal_digits(n, 0));
    place(p, 0, 0, factorial(n));
    for (int phase = 0; phase < 12; ++phase) {
      steal_phase_on_host(p.view, rule);
      for (int i = 0; i < count; ++i) {
        if (p.state[i] == kInitializing) p.state[i] = kExploring;
      }
    }
    EXPECT_EQ(covered(owned(p)), factorial(n)) << static_cast<int>(rule);
    EXPECT_EQ(static_cast<int>(owned(p).size()), count) << static_cast<int>(rule);
  }
}

TEST(GpuWorkSplit, PiecesCoverTheIntervalsExactly) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 50; ++trial) {
    const int pieces = 1 + static_cast<int>(rng() % 300);
    std::vector<Interval> intervals;
    mpz_class at = 0;
    const int q = 1 + static_cast<int>(rng() % 5);
    mpz_class total = 0;
    for (int i = 0; i < q; ++i) {
      at += static_cast<unsigned long>(rng() % 100);
      const mpz_class end = at + static_cast<unsigned long>(rng() % 1000);
      intervals.push_back({at, end});
      if (end > at) total += end - at;
      at = end;
    }
    const auto out = split_intervals(intervals, pieces);
    mpz_class sum = 0;
    for (size_t i = 0; i < out.size(); ++i) {
      ASSERT_FALSE(out[i].empty());
      if (i > 0) {
        ASSERT_LE(out[i - 1].end, out[i].begin);
      }
      sum += out[i].length();
    }
    EXPECT_EQ(sum, total);
    EXPECT_LE(static_cast<int>(out.size()), std::max(pieces, q));
  }
  const auto whole = split_intervals({{0, factorial(20)}}, 16384);
  EXPECT_EQ(whole.size(), 16384u);
  EXPECT_EQ(whole.back().end, factorial(20));
}

// The documented cut (work_split.hpp), written out here: each of the q non-empty intervals
// in 1 + floor((pieces - q) * length / total) parts, at most its length, at
// begin + length * j / parts. A unit as a handover brings it (nearly as many intervals as
// IVMs, most taking one part) and a few long ones among many short.
TEST(GpuWorkSplit, PiecesAreTheDocumentedCut) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    const int pieces = 64 + static_cast<int>(rng() % 2000);
    const int q = 1 + static_cast<int>(rng() % static_cast<unsigned>(pieces));
    std::vector<Interval> intervals;
    mpz_class at = 0;
    for (int i = 0; i < q; ++i) {
      at += static_cast<unsigned long>(rng() % 3);
      const unsigned long length = rng() % 7 == 0 ? 1 + rng() % 1000000 : rng() % 50;
      intervals.push_back({at, at + length});
      at += length;
    }
    std::vector<Interval> open;
    mpz_class total = 0;
    for (const Interval& x : intervals) {
      if (x.empty()) continue;
      open.push_back(x);
      total += x.end - x.begin;
    }
    std::vector<Interval> expected;
    for (const Interval& x : open) {
      const mpz_class length = x.end - x.begin;
      mpz_class parts = 1 + (static_cast<long>(pieces) - static_cast<long>(open.size())) *
                                length / total;
      if (static_cast<long>(open.size()) >= pieces) parts = 1;
      if (parts > length) parts = length;
      for (mpz_class j = 0; j < parts; ++j) {
        expected.push_back({x.begin + length * j / parts, x.begin + length * (j + 1) / parts});
      }
    }
    ASSERT_EQ(split_intervals(intervals, pieces), expected) << "trial " << trial;
  }
}

TEST(GpuWorkSplit, SpreadAndMinimumStealLength) {
  EXPECT_EQ(spread_indices(4, 16), (std::vector<int>{0, 4, 8, 12}));
  EXPECT_EQ(spread_indices(3, 3), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(to_mpz(min_steal_digits(12, 0).data(), 12), factorial(7));
  EXPECT_EQ(to_mpz(min_steal_digits(30, 0).data(), 30), factorial(8));
  EXPECT_EQ(to_mpz(min_steal_digits(5, 0).data(), 5), 2);
  EXPECT_EQ(to_mpz(min_steal_digits(2, 0).data(), 2), 2);
  EXPECT_EQ(to_mpz(min_steal_digits(10, 1000).data(), 10), 1000);
}

TEST(GpuLayout, WorkspaceFieldsAreAlignedAndDisjoint) {
  for (int n : {2, 7, 20, 50, 127, 128, 200}) {
    for (int m : {1, 5, 20, 33}) {
      for (bool lb2 : {false, true}) {
      const int cell_bytes = n < 128 ? 1 : 2;
      const WarpLayout a = make_warp_layout(n, m, cell_bytes, Placement::kShared, lb2, false);
      EXPECT_EQ(a.bytes % 16, 0);
      EXPECT_EQ(a.lb_front % 16, 0);
      EXPECT_EQ(a.lb_back, a.lb_front + 4 * n);  // lb[direction * n + i]
      if (lb2) {
        EXPECT_GE(a.todo, a.lb_back + 4 * n);
        EXPECT_GE(a.scheduled, a.todo + 4 * n);
        EXPECT_GE(a.stack, a.scheduled + n);
      } else {
        EXPECT_EQ(a.todo, -1);
        EXPECT_EQ(a.scheduled, -1);
      }
      EXPECT_GE(a.stack, a.lb_back + 4 * n);
      EXPECT_GE(a.matrix, a.stack + 12 * m * n);
      EXPECT_GE(a.bytes, a.matrix + n * (n + 1) / 2 * cell_bytes);
      EXPECT_EQ(a.progress, -1);  // the rounds' kernels keep no progress
      const WarpLayout b = make_warp_layout(n, m, cell_bytes, Placement::kStackGlobal, lb2, false);
      EXPECT_EQ(b.stack, -1);
      EXPECT_LT(b.bytes, a.bytes);
      // kGlobal: the IVM in global memory, no workspace at all.
      const WarpLayout g = make_warp_layout(n, m, cell_bytes, Placement::kGlobal, lb2, false);
      EXPECT_EQ(g.bytes, 0);
      EXPECT_EQ(g.progress, -1);
      // The persistent explorer: the same fields, then each team's TeamProgress, 16-aligned
      // (warp_persistent.cuh); with kGlobal it is the team's whole workspace.
      for (Placement p : {Placement::kShared, Placement::kStackGlobal, Placement::kGlobal}) {
        const WarpLayout rounds = make_warp_layout(n, m, cell_bytes, p, lb2, false);
        const WarpLayout persistent = make_warp_layout(n, m, cell_bytes, p, lb2, true);
        EXPECT_EQ(persistent.matrix, rounds.matrix);
        EXPECT_EQ(persistent.stack, rounds.stack);
        EXPECT_EQ(persistent.progress, rounds.bytes);
        EXPECT_EQ(persistent.progress % 16, 0);
        EXPECT_EQ(persistent.bytes, rounds.bytes + 16);
        EXPECT_GE(persistent.bytes, persistent.progress + static_cast<int>(sizeof(TeamProgress)));
      }
      }
    }
  }
}

// The persistent explorer's work queue (work_queue.hpp), one call after another as lane 0 of
// several teams makes them: intervals come out as they went in, a request is served once,
// a leaving team cancels its request or takes the interval it became, and the counters say
// when nothing is left.
struct QueueOnHost {
  explicit QueueOnHost(int teams, int n)
      : ready(queue_capacity(teams), 0u), digits(2 * ready.size() * n, 0) {
    view = {&counters, ready.data(), digits.data(), static_cast<int>(ready.size()), n};
  }
  WorkQueueCounters counters;
  std::vector<unsigned> ready;
  std::vector<int> digits;
  WorkQueueView view;
};

TEST(GpuWorkQueue, RequestsAreServedOnceAndIntervalsComeOutWhole) {
  const int n = 4;
  QueueOnHost q(3, n);
  EXPECT_EQ(q.view.capacity, 4);
  for (int holder = 0; holder < 2; ++holder) queue_add_holder(q.view);
  EXPECT_FALSE(queue_search_over(q.view));
  queue_go_hungry(q.view);  // holder 1 ran dry
  queue_ask(q.view);        // a team that started empty
  EXPECT_TRUE(queue_has_requests(q.view));
  int begin[n], end[n];
  EXPECT_FALSE(queue_take(q.view, begin, end)) << "nothing queued yet";
  // Holder 0 serves both requests; a third claim finds none.
  const int a[] = {0, 1, 0, 0}, b[] = {0, 2, 0, 0}, c[] = {1, 0, 0, 0}, d[] = {3, 2, 1, 0};
  ASSERT_TRUE(queue_claim_request(q.view));
  queue_push(q.view, a, b);
  ASSERT_TRUE(queue_claim_request(q.view));
  queue_push(q.view, c, d);
  EXPECT_FALSE(queue_claim_request(q.view));
  ASSERT_TRUE(queue_take(q.view, begin, end));
  EXPECT_EQ(std::vector<int>(begin, begin + n), std::vector<int>(a, a + n));
  EXPECT_EQ(std::vector<int>(end, end + n), std::vector<int>(b, b + n));
  ASSERT_TRUE(queue_take(q.view, begin, end));
  EXPECT_EQ(std::vector<int>(begin, begin + n), std::vector<int>(c, c + n));
  EXPECT_EQ(std::vector<int>(end, end + n), std::vector<int>(d, d + n));
  EXPECT_FALSE(queue_take(q.view, begin, end));
  EXPECT_EQ(q.counters.work, 3 * kOneHolder) << "three holders, nothing queued";
  for (int holder = 0; holder < 3; ++holder) queue_go_hungry(q.view);
  EXPECT_TRUE(queue_search_over(q.view));
}

TEST(GpuWorkQueue, ALeavingTeamCancelsOrTakesWhatItsRequestBecame) {
  const int n = 3;
  QueueOnHost q(2, n);
  queue_add_holder(q.view);
  queue_ask(q.view);  // team 1 waits
  int begin[n], end[n];
  EXPECT_FALSE(queue_leave(q.view, begin, end)) << "its request was still there to cancel";
  EXPECT_FALSE(queue_has_requests(q.view));
  queue_ask(q.view);
  ASSERT_TRUE(queue_claim_request(q.view));  // the holder serves it before team 1 leaves
  const int a[] = {1, 0, 0}, b[] = {2, 1, 0};
  queue_push(q.view, a, b);
  ASSERT_TRUE(queue_leave(q.view, begin, end)) << "the served request must be taken";
  EXPECT_EQ(std::vector<int>(begin, begin + n), std::vector<int>(a, a + n));
  EXPECT_EQ(q.counters.work, 2 * kOneHolder);
  // Slots are reused past the capacity: tickets wrap around the two slots.
  for (int round = 0; round < 5; ++round) {
    queue_ask(q.view);
    ASSERT_TRUE(queue_claim_request(q.view));
    const int x[] = {round, 0, 0};
    queue_push(q.view, x, b);
    ASSERT_TRUE(queue_take(q.view, begin, end));
    EXPECT_EQ(begin[0], round);
  }
}

}  // namespace
}  // namespace permbb::gpu
