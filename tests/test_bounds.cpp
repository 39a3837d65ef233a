// LB1, LB2, the leaf evaluation and the branching rules against brute force and hand cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "branching.hpp"
#include "flowshop_tables.hpp"
#include "johnson_tables.hpp"
#include "lb1.hpp"
#include "lb2.hpp"
#include "test_support.hpp"

namespace permbb {
namespace {

using testing::best_completion;
using testing::naive_completion;
using testing::naive_makespan;
using testing::random_instance;

// A random subproblem: some jobs in the prefix, some in the suffix, the rest free.
struct Subproblem {
  std::vector<int> prefix;
  std::vector<int> suffix;
  std::vector<int> free_jobs;
};

Subproblem random_subproblem(std::mt19937& rng, int n) {
  std::vector<int> jobs(n);
  std::iota(jobs.begin(), jobs.end(), 0);
  std::shuffle(jobs.begin(), jobs.end(), rng);
  const int fixed = std::uniform_int_distribution<int>(0, n - 1)(rng);
  const int in_prefix = std::uniform_int_distribution<int>(0, fixed)(rng);
  Subproblem s;
  s.prefix.assign(jobs.begin(), jobs.begin() + in_prefix);
  s.suffix.assign(jobs.begin() + in_prefix, jobs.begin() + fixed);
  s.free_jobs.assign(jobs.begin() + fixed, jobs.end());
  return s;
}

// The bound summary built from scratch, job by job.
struct Summary {
  std::vector<Time> front, back, remain;
  std::vector<unsigned char> scheduled;
};

Summary summarise(const FlowshopTables& tables, const Subproblem& s) {
  const FlowshopView d = tables.view();
  Summary out{std::vector<Time>(d.machines), std::vector<Time>(d.machines),
              std::vector<Time>(d.machines), std::vector<unsigned char>(d.jobs, 1)};
  lb1_root(d, out.front.data(), out.back.data(), out.remain.data());
  for (int job : s.prefix) {
    lb1_append_front(d, out.front.data(), job, out.front.data());
    lb1_remove_job(d, out.remain.data(), job, out.remain.data());
  }
  for (auto it = s.suffix.rbegin(); it != s.suffix.rend(); ++it) {
    lb1_prepend_back(d, out.back.data(), *it, out.back.data());
    lb1_remove_job(d, out.remain.data(), *it, out.remain.data());
  }
  for (int job : s.free_jobs) out.scheduled[job] = 0;
  return out;
}

TEST(Lb1, FrontIsTheCompletionTimeOfThePrefix) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    const Instance inst = random_instance(rng, 7, 1 + trial % 6);
    const FlowshopTables tables(inst);
    const Subproblem s = random_subproblem(rng, inst.jobs());
    if (s.prefix.empty()) continue;
    EXPECT_EQ(summarise(tables, s).front, naive_completion(inst, s.prefix));
  }
}

TEST(Lb1, EmptyPrefixAndSuffixUseMinimalHeadsAndTails) {
  // Two jobs on three machines: job 0 = (2, 5, 1), job 1 = (4, 1, 3).
  // Heads: machine 1 min(2, 4) = 2, machine 2 min(7, 5) = 5. Tails: machine 1 min(1, 3) = 1,
  // machine 0 min(6, 4) = 4.
  const Instance inst("hand", 2, 3, {2, 4, 5, 1, 1, 3});
  const FlowshopTables tables(inst);
  EXPECT_EQ(tables.min_heads(), (std::vector<Time>{0, 2, 5}));
  EXPECT_EQ(tables.min_tails(), (std::vector<Time>{4, 1, 0}));
}

TEST(Lb1, NeverExceedsTheBestCompletion) {
  std::mt19937 rng(12);
  for (int trial = 0; trial < 400; ++trial) {
    const int n = 2 + trial % 6;
    const Instance inst = random_instance(rng, n, 1 + trial % 5);
    const FlowshopTables tables(inst);
    const FlowshopView d = tables.view();
    const Subproblem s = random_subproblem(rng, n);
    const Summary sum = summarise(tables, s);
    EXPECT_LE(lb1_bound(d, sum.front.data(), sum.back.data(), sum.remain.data()),
              best_completion(inst, s.prefix, s.suffix));
  }
}

TEST(Lb1, IncrementalChildBoundsEqualBoundsFromScratch) {
  std::mt19937 rng(13);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 3 + trial % 8;
    const Instance inst = random_instance(rng, n, 1 + trial % 7);
    const FlowshopTables tables(inst);
    const FlowshopView d = tables.view();
    const Subproblem s = random_subproblem(rng, n);
    const Summary parent = summarise(tables, s);
    for (int job : s.free_jobs) {
      Subproblem forward = s;
      forward.prefix.push_back(job);
      Subproblem backward = s;
      backward.suffix.insert(backward.suffix.begin(), job);
      const Summary f = summarise(tables, forward);
      const Summary b = summarise(tables, backward);
      EXPECT_EQ(lb1_child_front_bound(d, parent.front.data(), parent.back.data(),
                                      parent.remain.data(), job),
                lb1_bound(d, f.front.data(), f.back.data(), f.remain.data()));
      EXPECT_EQ(lb1_child_back_bound(d, parent.front.data(), parent.back.data(),
                                     parent.remain.data(), job),
                lb1_bound(d, b.front.data(), b.back.data(), b.remain.data()));
    }
  }
}

TEST(Lb2, ValidAndAtLeastLb1ForBothPairSets) {
  std::mt19937 rng(14);
  for (MachinePairs pairs : {MachinePairs::kAll, MachinePairs::kAdjacent}) {
    for (int trial = 0; trial < 300; ++trial) {
      const int n = 2 + trial % 6;
      const Instance inst = random_instance(rng, n, 1 + trial % 6);
      const FlowshopTables tables(inst);
      const JohnsonTables johnson(inst, pairs);
      const FlowshopView d = tables.view();
      const Subproblem s = random_subproblem(rng, n);
      const Summary sum = summarise(tables, s);
      const Time lb2 = lb2_bound(d, johnson.view(), sum.front.data(), sum.back.data(),
                                 sum.remain.data(), sum.scheduled.data(), kInfiniteTime);
      EXPECT_LE(lb2, best_completion(inst, s.prefix, s.suffix));
      EXPECT_GE(lb2, lb1_bound(d, sum.front.data(), sum.back.data(), sum.remain.data()));
    }
  }
}

// The sweep reads a node's fixed jobs as flags or, up to 64 jobs, as the free jobs' bits, and
// Johnson's sequences at their own stride or padded (the device's layout): the same bound for
// every pair, with and without a child's extra job.
TEST(Lb2, FreeJobBitsAndPaddedSequencesGiveTheSameBound) {
  std::mt19937 rng(19);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 1 + trial % kMaxFreeJobBits;
    const Instance inst = random_instance(rng, n, 1 + trial % 8);
    const FlowshopTables tables(inst);
    const JohnsonTables johnson(inst, trial % 3 ? MachinePairs::kAll : MachinePairs::kAdjacent);
    const Summary sum = summarise(tables, random_subproblem(rng, n));
    FreeJobBits free{0};
    std::vector<int> free_jobs;
    for (int j = 0; j < n; ++j) {
      if (sum.scheduled[j]) continue;
      free.bits |= 1ull << j;
      free_jobs.push_back(j);
    }
    const int stride = n + 1 + trial % 4;
    const std::vector<JohnsonEntry> padded_sequence = johnson.sequence_with_stride(stride);
    JohnsonView padded = johnson.view();
    padded.sequence = padded_sequence.data();
    padded.stride = stride;
    const int extra = free_jobs.empty() ? -1 : free_jobs[rng() % free_jobs.size()];
    for (int pair = 0; pair < johnson.pair_count(); ++pair) {
      for (int added : {-1, extra}) {
        const Time with_flags = johnson_pair_bound(johnson.view(), pair, sum.front.data(),
                                                   sum.back.data(), sum.scheduled.data(), added);
        EXPECT_EQ(johnson_pair_bound(padded, pair, sum.front.data(), sum.back.data(), free,
                                     added),
                  with_flags)
            << "trial " << trial << " pair " << pair;
      }
    }
  }
}

// Pairs ordered by their root bound: a permutation along which the root bounds never rise,
// and tables reordered by it that give every subproblem the same LB2 without cutoff, and a
// bound on the same side of any cutoff.
TEST(Lb2, PairsByRootBoundReorderWithoutChangingTheBound) {
  std::mt19937 rng(18);
  for (MachinePairs pairs : {MachinePairs::kAll, MachinePairs::kAdjacent}) {
    for (int trial = 0; trial < 200; ++trial) {
      const int n = 2 + trial % 9;
      const Instance inst = random_instance(rng, n, 1 + trial % 7);
      const FlowshopTables tables(inst);
      const JohnsonTables johnson(inst, pairs);
      const FlowshopView d = tables.view();
      const std::vector<int> order = pairs_by_root_bound(d, johnson);
      std::vector<int> sorted = order;
      std::sort(sorted.begin(), sorted.end());
      std::vector<int> identity(johnson.pair_count());
      std::iota(identity.begin(), identity.end(), 0);
      ASSERT_EQ(sorted, identity);
      const JohnsonTables reordered = johnson.reordered(order);
      Subproblem root;
      root.free_jobs.resize(n);
      std::iota(root.free_jobs.begin(), root.free_jobs.end(), 0);
      const Summary at_root = summarise(tables, root);
      Time previous = kInfiniteTime;
      for (int pair = 0; pair < reordered.pair_count(); ++pair) {
        const Time bound = johnson_pair_bound(reordered.view(), pair, at_root.front.data(),
                                              at_root.back.data(), at_root.scheduled.data(), -1);
        EXPECT_LE(bound, previous);
        previous = bound;
        EXPECT_EQ(reordered.machine_a()[pair], johnson.machine_a()[order[pair]]);
        EXPECT_EQ(reordered.machine_b()[pair], johnson.machine_b()[order[pair]]);
      }
      const Summary sum = summarise(tables, random_subproblem(rng, n));
      const auto lb2 = [&](const JohnsonTables& t, Time cutoff) {
        return lb2_bound(d, t.view(), sum.front.data(), sum.back.data(), sum.remain.data(),
                         sum.scheduled.data(), cutoff);
      };
      const Time exact = lb2(johnson, kInfiniteTime);
      EXPECT_EQ(lb2(reordered, kInfiniteTime), exact);
      const Time cutoff = exact - 1 + static_cast<Time>(rng() % 3);
      EXPECT_EQ(lb2(reordered, cutoff) >= cutoff, exact >= cutoff);
    }
  }
}

// The child bound (from the parent's summary, the child's job passed aside) equals LB2 of the
// child summarised from scratch, in both directions; with a cutoff it is exact below the
// cutoff and at least the cutoff otherwise.
TEST(Lb2, ChildBoundsEqualBoundsFromScratchWithAndWithoutCutoff) {
  std::mt19937 rng(17);
  for (MachinePairs pairs : {MachinePairs::kAll, MachinePairs::kAdjacent}) {
    for (int trial = 0; trial < 200; ++trial) {
      const int n = 3 + trial % 7;
      const Instance inst = random_instance(rng, n, 1 + trial % 6);
      const FlowshopTables tables(inst);
      const JohnsonTables johnson(inst, pairs);
      const FlowshopView d = tables.view();
      const Subproblem s = random_subproblem(rng, n);
      const Summary parent = summarise(tables, s);
      std::vector<Time> side(inst.machines());
      for (int job : s.free_jobs) {
        for (int direction : {kFront, kBack}) {
          Subproblem child = s;
          std::erase(child.free_jobs, job);
          if (direction == kFront) {
            child.prefix.push_back(job);
          } else {
            child.suffix.insert(child.suffix.begin(), job);
          }
          const Summary c = summarise(tables, child);
          const Time exact = lb2_bound(d, johnson.view(), c.front.data(), c.back.data(),
                                       c.remain.data(), c.scheduled.data(), kInfiniteTime);
          const Time cutoff = exact - 1 + static_cast<Time>(rng() % 3);  // below, at, above
          for (Time limit : {kInfiniteTime, cutoff}) {
            const Time lb = lb2_child_bound(d, johnson.view(), parent.front.data(),
                                            parent.back.data(), parent.remain.data(),
                                            parent.scheduled.data(), job, direction, limit,
                                            side.data());
            if (exact < limit) {
              EXPECT_EQ(lb, exact);
            } else {
              EXPECT_GE(lb, limit);
              EXPECT_LE(lb, exact);
            }
          }
        }
      }
    }
  }
}

TEST(Lb2, ExactOnTwoMachinesWithNothingScheduled) {
  // With m = 2 and nothing fixed the pair bound is Johnson's optimal makespan (the minimal
  // head and tail are 0 on the outer machines).
  std::mt19937 rng(15);
  for (int trial = 0; trial < 100; ++trial) {
    const Instance inst = random_instance(rng, 2 + trial % 6, 2);
    const FlowshopTables tables(inst);
    const JohnsonTables johnson(inst, MachinePairs::kAll);
    const Summary sum = summarise(tables, Subproblem{{}, {}, {}});
    std::vector<unsigned char> none(inst.jobs(), 0);
    EXPECT_EQ(lb2_bound(tables.view(), johnson.view(), sum.front.data(), sum.back.data(),
                        sum.remain.data(), none.data(), kInfiniteTime),
              testing::brute_force_optimum(inst));
  }
}

TEST(Leaf, CompleteMakespanEqualsNaiveEvaluation) {
  std::mt19937 rng(16);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 2 + trial % 9;
    const Instance inst = random_instance(rng, n, 1 + trial % 6);
    const FlowshopTables tables(inst);
    Subproblem s = random_subproblem(rng, n);
    // Fix all but one job, keeping the split between prefix and suffix random.
    while (s.free_jobs.size() > 1) {
      const int job = s.free_jobs.back();
      s.free_jobs.pop_back();
      if (rng() % 2) s.prefix.push_back(job); else s.suffix.insert(s.suffix.begin(), job);
    }
    const Summary sum = summarise(tables, s);
    std::vector<int> order = s.prefix;
    order.push_back(s.free_jobs[0]);
    order.insert(order.end(), s.suffix.begin(), s.suffix.end());
    EXPECT_EQ(complete_makespan(tables.view(), sum.front.data(), sum.back.data(),
                                s.suffix.empty(), s.free_jobs[0]),
              naive_makespan(inst, order));
  }
}

TEST(Branching, MinMinOnThePapersFigure2Example) {
  // 2022 §2.3, Figure 2: forward bounds {19, 17, 17}, backward {21, 17, 19}: the minimum 17
  // occurs less often backward, so MinMin branches backward.
  const Time front[] = {19, 17, 17};
  const Time back[] = {21, 17, 19};
  EXPECT_EQ(choose_direction(BranchingRule::kMinMin, front, back, 3), kBack);
  EXPECT_EQ(choose_direction(BranchingRule::kMinMinForwardTies, front, back, 3), kBack);
  // Sums 53 forward, 57 backward.
  EXPECT_EQ(choose_direction(BranchingRule::kMaxSum, front, back, 3), kBack);
  EXPECT_EQ(choose_direction(BranchingRule::kForward, front, back, 3), kFront);
  EXPECT_EQ(choose_direction(BranchingRule::kBackward, front, back, 3), kBack);
}

TEST(Branching, TiesFollowEachRulesTieBreak) {
  // The minimum 5 occurs once on each side; sums 12 forward, 13 backward.
  const Time front[] = {5, 7};
  const Time back[] = {5, 8};
  EXPECT_EQ(choose_direction(BranchingRule::kMinMin, front, back, 2), kBack);
  EXPECT_EQ(choose_direction(BranchingRule::kMinMinForwardTies, front, back, 2), kFront);
  EXPECT_EQ(choose_direction(BranchingRule::kMaxSum, front, back, 2), kBack);
  // Equal counts and equal sums: forward.
  const Time same[] = {5, 8};
  EXPECT_EQ(choose_direction(BranchingRule::kMinMin, same, back, 2), kFront);
  EXPECT_EQ(choose_direction(BranchingRule::kMaxSum, same, back, 2), kFront);
  // The minimum occurs twice forward, once backward: backward.
  const Time twice[] = {4, 4};
  const Time once[] = {4, 9};
  EXPECT_EQ(choose_direction(BranchingRule::kMinMin, twice, once, 2), kBack);
  EXPECT_EQ(choose_direction(BranchingRule::kMinMin, once, twice, 2), kFront);
}

// MinMin's tie-break on sums must see exact bounds, not LB2's cut-off values: 7 and 8 above
// a cutoff of 6 could have been cut anywhere from 6 on, and the sums with them.
TEST(Branching, OnlyMinMinTiesBelowTheCutoffNeedExactSums) {
  const Time front[] = {5, 7};
  const Time back[] = {5, 8};
  EXPECT_TRUE(needs_exact_sums(BranchingRule::kMinMin, front, back, 2, 6));
  EXPECT_FALSE(needs_exact_sums(BranchingRule::kMinMin, front, back, 2, 5));  // all pruned
  EXPECT_FALSE(needs_exact_sums(BranchingRule::kMinMin, front, back, 2, kInfiniteTime));
  EXPECT_FALSE(needs_exact_sums(BranchingRule::kMinMinForwardTies, front, back, 2, 6));
  EXPECT_FALSE(needs_exact_sums(BranchingRule::kMaxSum, front, back, 2, 6));  // never cut
  const Time twice[] = {5, 5};
  EXPECT_FALSE(needs_exact_sums(BranchingRule::kMinMin, twice, back, 2, 6));  // no tie
}

}  // namespace
}  // namespace permbb
