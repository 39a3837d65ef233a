#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "item_table.hpp"
#include "knapsack_solution.hpp"
#include "list_backend.hpp"

namespace permbb::knapsack {

// Lists of at least this many nodes go to the large backend (the GPU), smaller ones to the
// CPU (Lalami & El Baz 2012, §III.B.2, used 192 on a Tesla C2050). A provisional default:
// `bench/knapsack.py --sweep-threshold` measures it on the device at hand.
inline constexpr std::int64_t kDefaultSwitchThreshold = 2048;

// Where a running search is, for progress lines.
struct LevelSearchProgress {
  double seconds = 0;
  int level = 0;  // the item the current list branches on
  int items = 0;  // levels in all
  std::int64_t list_nodes = 0;
  std::int64_t set_aside_nodes = 0;
  std::int64_t best_profit = 0;
  std::uint64_t nodes_explored = 0;
};

struct LevelSearchOptions {
  // A list of q >= switch_threshold nodes is processed on the large backend, else on the small.
  std::int64_t switch_threshold = kDefaultSwitchThreshold;
  // The most list slots a level may use (q nodes + q children, so q <= max_list_nodes / 2);
  // a longer list is cut: the search goes on with its first part and sets the rest aside,
  // depth-first (knapsack_level_search.cpp). At least 2.
  std::int64_t max_list_nodes = std::int64_t{1} << 24;
  // The most nodes set aside in host memory (plus 2 per level): as the set-aside total nears
  // it, levels are cut shorter.
  std::int64_t max_set_aside_nodes = std::int64_t{1} << 26;
  // After each level, drop the nodes another node of the list dominates (dominance.hpp).
  bool remove_dominated = true;
  // Stop before the next level once this many seconds have passed (0: no limit); the result
  // is then incomplete.
  double time_limit_seconds = 0;
  // Stop as at the time limit once *stop is true (a signal to the command); null: never.
  const std::atomic<bool>* stop = nullptr;
  // Seek only solutions worth at least this much (0: any). Nodes whose upper bound is below it
  // are dropped from the start, as a known solution of value at_least - 1 would drop them, so
  // a value proved elsewhere is confirmed in a fraction of the search: the result is then
  // this search's own optimum when it reaches at_least, and `none_at_least` when no solution
  // does. The search finds and checks its solution itself; it takes nothing else on trust.
  std::int64_t at_least = 0;
  // Called between levels about every progress_seconds (0: never).
  double progress_seconds = 0;
  std::function<void(const LevelSearchProgress&)> on_progress;
};

struct LevelSearchStatistics {
  std::uint64_t nodes_explored = 0;    // nodes branched, summed over levels
  std::uint64_t nodes_dominated = 0;   // nodes removed by dominance, summed over levels
  std::uint64_t levels_small = 0;      // levels processed on the small backend (CPU)
  std::uint64_t levels_large = 0;      // ... on the large backend (GPU)
  std::uint64_t switches = 0;          // times the list moved from one backend to the other
  std::uint64_t splits = 0;            // sub-lists set aside by the memory cap
  std::int64_t largest_list = 0;       // most nodes in one level's list
  std::int64_t largest_set_aside = 0;  // most nodes set aside at once
};

struct LevelSearchResult {
  KnapsackSolution solution;  // the best found: optimal when complete; items as in the input
  bool complete = true;       // false when the time limit stopped the search
  // Complete, and no solution reaches options.at_least: the optimum is below it (`solution`
  // is then only the best found, not optimal).
  bool none_at_least = false;
  LevelSearchStatistics statistics;
};

// The breadth-first branch-and-bound of Lalami & El Baz 2012 over the items of `items`, with
// the list on `small` or, when large enough and `large` is given, on `large`. Throws
// std::invalid_argument for options out of range.
LevelSearchResult run_level_search(const ItemTable& items, LevelListBackend& small,
                                   LevelListBackend* large, const LevelSearchOptions& options);

// The whole search on the CPU (one HostListBackend).
LevelSearchResult solve_on_cpu(const KnapsackInstance& instance,
                               const LevelSearchOptions& options = {});

}  // namespace permbb::knapsack
