#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "knapsack_instance.hpp"
#include "knapsack_solution.hpp"

namespace permbb::knapsack {

struct GroupSearchProgress {
  double seconds = 0;
  std::int64_t nodes = 0;
  std::int64_t leaves = 0;
  std::int64_t best = 0;  // the best value found
};

struct GroupSearchOptions {
  // Seek only solutions worth at least this much (a value found elsewhere, to prove or
  // confirm it; 0: any). The search is then fastest: a part of the space whose bound is below
  // it goes at once.
  std::int64_t at_least = 0;
  // Items whose weights are within this much of their group's lightest share its group.
  std::int64_t span = 1024;
  // The most cells of the groups' tables (8 bytes each), and the most groups (the count
  // vectors grow with the power of their number: Jooken's instances have at most 13); more:
  // InputError, at once, rather than a search that never ends.
  std::int64_t max_table_cells = std::int64_t{1} << 26;
  int max_groups = 40;
  // The most intervals of each cover of base sums (base_sum_intervals.hpp).
  std::int64_t max_intervals = 20000;
  double time_limit_seconds = 0;           // 0: none
  const std::atomic<bool>* stop = nullptr;  // stops as at the time limit once true
  // Called about every progress_seconds (0: never) with where the search is.
  double progress_seconds = 0;
  std::function<void(const GroupSearchProgress&)> on_progress;
};

struct GroupSearchResult {
  KnapsackSolution solution;  // the best found (empty while none reaches at_least)
  bool complete = true;       // every count of items per group was decided
  bool none_at_least = false;  // complete, and no solution is worth at_least
  int groups = 0;             // groups counted (the light items not among them)
  int light_items = 0;
  std::int64_t table_cells = 0;
  std::int64_t nodes = 0;     // counts of items decided for a prefix of the groups
  std::int64_t leaves = 0;    // whole count vectors whose room was shared out exactly
};

// The group search (docs/knapsack.md, "The group search"): the items cut into groups of
// nearly equal weight (weight_groups.hpp), and a depth-first enumeration of how many items
// each group gives, heaviest group first. A prefix of counts is cut off when its base sum,
// the largest base sum the other groups can add within the room left (base_sum_intervals.hpp),
// and the largest extra profits of any items cannot reach the target, or when c and the
// largest excesses p_i - w_i its counts allow (every solution weighs at most c) cannot. A
// whole count vector
// shares the room left by its bases among the groups' extra weights and the light items,
// exactly. Shares no code with the other methods: a second opinion on their optima.
GroupSearchResult solve_by_groups(const KnapsackInstance& instance,
                                  const GroupSearchOptions& options = {});

}  // namespace permbb::knapsack
