// The sequential IVM explorer: exact on random small instances for every bound and branching
// rule, and its node count at a fixed upper bound is a property of the tree alone: the same
// however [0, n!) is cut into intervals, and after stopping and resuming.
#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "ivm_explorer.hpp"
#include "instance_source.hpp"
#include "taillard.hpp"
#include "test_support.hpp"

namespace permbb {
namespace {

using testing::digits_of;
using testing::factorial;
using testing::value_of;

const BoundKind kBounds[] = {BoundKind::kLb1, BoundKind::kLb2, BoundKind::kLb2Adjacent,
                             BoundKind::kLb1ThenLb2};
const BranchingRule kRules[] = {BranchingRule::kMinMin, BranchingRule::kMinMinForwardTies,
                                BranchingRule::kMaxSum, BranchingRule::kForward,
                                BranchingRule::kBackward};

// Everything one search needs, built once per instance and settings.
struct Search {
  Search(const Instance& inst, SearchSettings search_settings, Time upper_bound)
      : settings(search_settings),
        tables(inst),
        johnson(inst, machine_pairs_for(settings.bound)),
        incumbent(upper_bound),
        explorer(tables, &johnson, settings, incumbent) {}

  // Explores [begin, end) to the end with a fresh explorer; returns its counters.
  NodeCounters explore(std::uint64_t begin, std::uint64_t end) {
    const int n = tables.jobs();
    IvmExplorer fresh(tables, &johnson, settings, incumbent);
    const auto b = digits_of(begin, n);
    const auto e = digits_of(end, n);
    fresh.start(b.data(), e.data());
    while (fresh.step()) {
    }
    return fresh.counters();
  }

  SearchSettings settings;
  FlowshopTables tables;
  JohnsonTables johnson;
  Incumbent incumbent;
  IvmExplorer explorer;
};

NodeCounters explore_pieces(const Instance& inst, SearchSettings settings, Time ub,
                            const std::vector<std::uint64_t>& cuts) {
  Search search(inst, settings, ub);
  NodeCounters total;
  for (size_t i = 0; i + 1 < cuts.size(); ++i) total += search.explore(cuts[i], cuts[i + 1]);
  EXPECT_EQ(search.incumbent.value(), ub) << "the upper bound must never improve here";
  return total;
}

TEST(Explorer, FindsTheBruteForceOptimumForEveryBoundAndRule) {
  std::mt19937 rng(31);
  for (int trial = 0; trial < 120; ++trial) {
    const int n = 2 + trial % 7;
    const Instance inst = testing::random_instance(rng, n, 1 + trial % 6);
    const Time optimum = testing::brute_force_optimum(inst);
    for (BoundKind bound : kBounds) {
      for (BranchingRule rule : kRules) {
        Search search(inst, {bound, rule}, kInfiniteTime);
        const auto b = digits_of(0, n);
        const auto e = digits_of(factorial(n), n);
        search.explorer.start(b.data(), e.data());
        while (search.explorer.step()) {
        }
        ASSERT_EQ(search.incumbent.value(), optimum)
            << "trial " << trial << " bound " << to_string(bound) << " rule " << to_string(rule);
        EXPECT_EQ(testing::naive_makespan(inst, search.incumbent.permutation()), optimum);
      }
    }
  }
}

TEST(Explorer, NodeCountAtAFixedUpperBoundIsTheSameForAnyCutOfTheSpace) {
  std::mt19937 rng(32);
  for (int trial = 0; trial < 150; ++trial) {
    const int n = 3 + trial % 6;
    const Instance inst = testing::random_instance(rng, n, 2 + trial % 5);
    // At the optimum the bound never improves: no schedule is strictly better.
    const Time optimum = testing::brute_force_optimum(inst);
    const std::uint64_t space = factorial(n);
    for (BoundKind bound : kBounds) {
      for (BranchingRule rule : kRules) {
        const SearchSettings settings{bound, rule};
        const NodeCounters whole = explore_pieces(inst, settings, optimum, {0, space});
        std::vector<std::uint64_t> cuts = {0, space};
        for (int c = 0; c < 1 + trial % 5; ++c) cuts.push_back(rng() % space);
        std::sort(cuts.begin(), cuts.end());
        const NodeCounters pieces = explore_pieces(inst, settings, optimum, cuts);
        ASSERT_EQ(pieces.decomposed, whole.decomposed) << "trial " << trial;
        ASSERT_EQ(pieces.leaves, whole.leaves) << "trial " << trial;
      }
    }
  }
}

// A random instance searched at its optimum (a bound that never improves) over the whole
// space, stopped after a random number of steps; `whole` counts the full search's nodes.
struct Partway {
  SearchSettings settings;
  NodeCounters whole;
  std::unique_ptr<Search> search;
};

Partway run_partway(std::mt19937& rng, int trial) {
  const int n = 4 + trial % 5;
  const Instance inst = testing::random_instance(rng, n, 3);
  const Time optimum = testing::brute_force_optimum(inst);
  const SearchSettings settings{BoundKind::kLb1, kRules[trial % 5]};
  const NodeCounters whole = explore_pieces(inst, settings, optimum, {0, factorial(n)});
  auto search = std::make_unique<Search>(inst, settings, optimum);
  const auto b = digits_of(0, n);
  const auto e = digits_of(factorial(n), n);
  search->explorer.start(b.data(), e.data());
  search->explorer.run(1 + rng() % (whole.decomposed + 1));
  return {settings, whole, std::move(search)};
}

TEST(Explorer, StopAtACleanPointAndResumeCountsEveryNodeOnce) {
  std::mt19937 rng(33);
  for (int trial = 0; trial < 100; ++trial) {
    const Partway partway = run_partway(rng, trial);
    Search& search = *partway.search;
    search.explorer.settle();
    NodeCounters total = search.explorer.counters();
    if (!search.explorer.exhausted()) {
      IvmExplorer resumed(search.tables, &search.johnson, partway.settings, search.incumbent);
      resumed.start(search.explorer.position(), search.explorer.end());
      while (resumed.step()) {
      }
      total += resumed.counters();
    }
    ASSERT_EQ(total.decomposed, partway.whole.decomposed) << "trial " << trial;
    ASSERT_EQ(total.leaves, partway.whole.leaves) << "trial " << trial;
  }
}

// Regression: a pause whose settle() stops short leaves the nodes since the last clean point
// uncommitted; when the coordinator then hands the same slot new work (clear(), start()),
// those nodes were committed by start() and decomposed again in the restarted interval: a
// simulated cluster counted 67 nodes where the sequential search counts 64. The explorer
// drops them when it leaves the interval: whoever restarts it decomposes them again.
TEST(Explorer, LeavingAnIntervalAfterAShortSettleDropsItsUncommittedNodes) {
  std::mt19937 rng(34);
  int short_settles = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Partway partway = run_partway(rng, trial);
    IvmExplorer& explorer = partway.search->explorer;
    if (explorer.settle(0)) continue;  // at a clean point: nothing uncommitted
    ++short_settles;
    const int n = explorer.jobs();
    const std::vector<int> position(explorer.position(), explorer.position() + n);
    const std::vector<int> end(explorer.end(), explorer.end() + n);
    const NodeCounters before = explorer.committed_counters();
    explorer.clear();
    ASSERT_EQ(explorer.committed_counters().decomposed, before.decomposed);
    explorer.start(position.data(), end.data());
    while (explorer.step()) {
    }
    ASSERT_EQ(explorer.committed_counters().decomposed, partway.whole.decomposed)
        << "trial " << trial;
    ASSERT_EQ(explorer.committed_counters().leaves, partway.whole.leaves) << "trial " << trial;
  }
  EXPECT_GE(short_settles, 10) << "too few settles stopped short to test anything";
}

// Regression: one job was refused ("IvmExplorer needs at least 2 jobs"), which `permbb solve`
// worked around and the cluster's workers did not (an internal error under mpirun). The root
// is the leaf parent, decomposed uncounted as every root; the one step evaluates its leaf.
TEST(Explorer, OneJobIsTheRootsOnlyLeaf) {
  const Instance inst("one", 1, 3, {4, 0, 7});
  for (BoundKind bound : kBounds) {
    for (BranchingRule rule : kRules) {
      for (Time ub : {kInfiniteTime, 12, 11}) {
        Search search(inst, {bound, rule}, ub);
        const NodeCounters counts = search.explore(0, 1);
        EXPECT_EQ(counts.decomposed, 0u);
        EXPECT_EQ(counts.leaves, ub > 11 ? 1u : 0u) << "pruned at the root from UB 11";
        EXPECT_EQ(search.incumbent.value(), std::min<Time>(ub, 11));
        EXPECT_EQ(search.incumbent.permutation(),
                  ub > 11 ? std::vector<int>{0} : std::vector<int>{});
      }
    }
  }
}

// Regression: a steal of at least 1 leaf (MulticoreOptions::min_steal_leaves = 1) cut the
// one-leaf interval [p, p+1) at p, so the thief took it whole from a victim whose nodes with
// first leaf p were already counted, and counted them again (one node too many on random
// 8-job instances). The thief must start after the victim's position.
TEST(Explorer, AStealPointLiesAfterThePosition) {
  const Instance inst("four", 4, 3, {2, 1, 8, 8, 2, 4, 9, 9, 5, 1, 6, 4});
  const Time optimum = testing::brute_force_optimum(inst);  // a bound that never improves
  const std::vector<int> one_leaf = digits_of(1, 4);
  for (std::uint64_t length : {1, 2, 7}) {
    Search search(inst, {BoundKind::kLb1, BranchingRule::kForward}, optimum);
    const NodeCounters whole = search.explore(0, length);
    const auto b = digits_of(0, 4);
    const auto e = digits_of(length, 4);
    search.explorer.start(b.data(), e.data());
    search.explorer.step();  // the node of row 0 with first leaf 0: counted, not a clean point
    ASSERT_EQ(search.explorer.counters().decomposed, 1u);
    std::vector<int> cut(4);
    const bool stolen = search.explorer.steal_point(one_leaf.data(), cut.data());
    EXPECT_EQ(stolen, length > 1) << "length " << length;
    NodeCounters thief;
    if (stolen) {
      EXPECT_EQ(value_of(cut), length / 2);
      search.explorer.set_end(cut.data());
      thief = search.explore(length / 2, length);
    }
    while (search.explorer.step()) {
    }
    EXPECT_EQ(search.explorer.counters().decomposed + thief.decomposed, whole.decomposed)
        << "length " << length;
  }
}

// Regression: with lb2 or lb2-adjacent and MinMin, a node's direction depended on the upper
// bound (the tie-break summed bounds cut off at it), so explorers of adjacent intervals that
// started from different bounds branched their common ancestors differently, and the optimum
// fell between their intervals: [0, 4) then [4, 6) of this instance, sharing one incumbent
// (as the threads of the multi-core engine do), found 3 instead of 2.
TEST(Explorer, PiecesSharingAnImprovingIncumbentFindTheOptimum) {
  const Instance ties("ties", 3, 5, {0, 0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1});
  for (BoundKind bound : kBounds) {
    for (BranchingRule rule : kRules) {
      Search search(ties, {bound, rule}, kInfiniteTime);
      search.explore(0, 4);
      search.explore(4, 6);
      EXPECT_EQ(search.incumbent.value(), 2) << to_string(bound) << " " << to_string(rule);
    }
  }
  std::mt19937 rng(34);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 3 + trial % 5;
    const Instance inst = testing::random_instance(rng, n, 2 + trial % 5, 1 + trial % 3);
    const Time optimum = testing::brute_force_optimum(inst);
    std::vector<std::uint64_t> cuts = {0, factorial(n)};
    for (int c = 0; c < 1 + trial % 4; ++c) cuts.push_back(rng() % factorial(n));
    std::sort(cuts.begin(), cuts.end());
    for (BoundKind bound : kBounds) {
      for (BranchingRule rule : kRules) {
        Search search(inst, {bound, rule}, kInfiniteTime);
        for (size_t i = 0; i + 1 < cuts.size(); ++i) search.explore(cuts[i], cuts[i + 1]);
        ASSERT_EQ(search.incumbent.value(), optimum)
            << "trial " << trial << " " << to_string(bound) << " " << to_string(rule);
      }
    }
  }
}

TEST(Explorer, SolvesTa001FromScratch) {
  // ta001 (20 x 5) has the optimal makespan 1278 (Taillard's table in shared/notes).
  const Instance inst = taillard::generate(1);
  Search search(inst, {BoundKind::kLb1, BranchingRule::kMinMin}, kInfiniteTime);
  const auto b = digits_of(0, 20);
  const auto e = digits_of(factorial(20), 20);
  search.explorer.start(b.data(), e.data());
  while (search.explorer.step()) {
  }
  EXPECT_EQ(search.incumbent.value(), 1278);
  EXPECT_EQ(testing::naive_makespan(inst, search.incumbent.permutation()), 1278);
}

TEST(Explorer, SolvesAPublishedVrfInstanceLikeBruteForce) {
  // A real benchmark file (10 jobs x 5 machines): every bound finds the brute-force optimum.
  const Instance inst = load_instance(PERMBB_SHARED_DATA_DIR "/vrf-small/VFR10_5_1_Gap.txt");
  const Time optimum = testing::brute_force_optimum(inst);
  for (BoundKind bound : kBounds) {
    Search search(inst, {bound, BranchingRule::kMinMin}, kInfiniteTime);
    search.explore(0, factorial(10));
    EXPECT_EQ(search.incumbent.value(), optimum) << to_string(bound);
  }
}

}  // namespace
}  // namespace permbb
