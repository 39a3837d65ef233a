#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "knapsack_instance.hpp"
#include "knapsack_solution.hpp"
#include "state_list.hpp"

namespace permbb::knapsack {

// Where a running expanding-core search is, for progress lines.
struct CoreSearchProgress {
  double seconds = 0;
  int core_size = 0;      // items in the core
  int items = 0;          // items that fit alone (the sorted table)
  std::int64_t states = 0;
  std::int64_t lower = 0;  // best profit found
  std::int64_t upper = 0;  // largest bound of a state (or the lower bound, when larger)
};

struct CoreSearchOptions {
  // The most memory the state list and the decision arena may hold together; beyond it the
  // search stops with an InputError saying so (and the best profit found). 0: no cap.
  std::int64_t max_memory_bytes = 0;
  // The most states a list may hold, the same way (0: no cap).
  std::int64_t max_states = 0;
  // Lists of at least this many states (and at least as many as items) are also completed by
  // one item outside the core after each step (one_item_completion.hpp); shorter ones only
  // after steps 1, 2, 4, 8, ..., for an early lower bound at little cost.
  std::int64_t completion_min_states = 1024;
  // Lists of this many states call the weight-class dynamic program for a lower bound
  // (weight_class_dp.hpp), and lists 16 times longer again, finer (0: never); its decision
  // bits take at most weight_class_dp_bytes.
  std::int64_t weight_class_dp_min_states = std::int64_t{1} << 16;
  std::int64_t weight_class_dp_bytes = std::int64_t{64} << 20;
  // The global bound of the cardinality constraints' surrogate relaxation (cardinality_bound.hpp).
  bool cardinality_bound = true;
  // Subset sums kept as intervals (reachable_sums.hpp), at most budget / n of them (between
  // 256 and 16,384), about `budget` interval steps a build (0: never): the first time a list
  // is long (as for the one-item completion), the capacity is lowered to the largest
  // reachable weight they bound (again with 16 times the budget, at most 2^18 intervals,
  // once a list passes 2^20 states), and the sums of the items outside the core bound each
  // state from then on.
  std::int64_t reachable_sums_budget = std::int64_t{1} << 24;
  // Lists of at least merger_min_states states are merged by `merger` (the GPU,
  // gpu/knapsack_gpu.hpp), shorter ones by merge_with_move on this core; the states kept are
  // the same. Null: every merge here. The merger must outlive the search. 4,096: the fastest
  // of the thresholds measured on an H100 (docs/knapsack.md, "The merge on the GPU").
  StateMerger* merger = nullptr;
  std::int64_t merger_min_states = 4096;
  // Stop once this many seconds have passed (0: no limit); the result is then incomplete.
  double time_limit_seconds = 0;
  // Stop as at the time limit once *stop is true (a signal to the command); null: never.
  const std::atomic<bool>* stop = nullptr;
  // Called after a core step about every progress_seconds (0: never).
  double progress_seconds = 0;
  std::function<void(const CoreSearchProgress&)> on_progress;
};

struct CoreSearchStatistics {
  std::int64_t states_explored = 0;  // states written, summed over core steps
  std::int64_t states_dominated = 0;
  std::int64_t states_fathomed = 0;  // dropped by their upper bound
  std::int64_t largest_list = 0;
  int core_size = 0;                 // items that entered the core
  int items_fixed = 0;               // items fixed outside the core by their bound
  int completions = 0;               // lower bounds found by one item outside the core
  int weight_class_dp_runs = 0;      // weight-class dynamic programs run
  int outside_sums_builds = 0;       // sums of the items outside the core built
  std::int64_t merger_merges = 0;    // merges done by CoreSearchOptions::merger
  std::int64_t weight_divisor = 1;   // gcd of the weights (the capacity rounded down to it)
  std::int64_t profit_divisor = 1;   // gcd of the profits (every bound rounded down to it)
  std::int64_t excess_divisor = 1;   // gcd of the p_i - w_i, all >= 0 (ProfitLattice); else 1
  std::int64_t capacity_used = 0;    // the capacity searched: c after both reductions
  // The bounds behind the result's upper bound (the lesser of the last two, or the best
  // profit when larger): what holds an unfinished search open.
  std::int64_t dantzig_upper = 0;      // the break solution's bound, before any step
  std::int64_t states_upper = 0;       // the largest state bound after the last merge (-1: none)
  std::int64_t cardinality_upper = 0;  // the cardinality bound, its last value (0: never run)
};

struct CoreSearchResult {
  KnapsackSolution solution;  // optimal when complete; items as in the input
  bool complete = true;
  std::int64_t upper_bound = 0;  // optimal value when complete, else a proven bound on it
  double setup_seconds = 0;      // sorting the items and the break solution, of the whole time
  std::string stopped_because;   // incomplete by a cap: which, and the list it would have made
  CoreSearchStatistics statistics;
};

// The exact expanding-core dynamic program, after Pisinger's minknap ("A minimal algorithm for
// the 0-1 knapsack problem", Operations Research 45(5), 1997) and the reductions of combo
// (Martello, Pisinger & Toth, Management Science 45(3), 1999); core_search.cpp says how.
// A step that could pass the memory cap or the state cap is not taken: the search stops there
// as at its time limit, incomplete, with its best solution, its bound and `stopped_because`.
CoreSearchResult solve_core(const KnapsackInstance& instance, const CoreSearchOptions& options = {});

}  // namespace permbb::knapsack
