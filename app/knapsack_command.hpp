#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "shared_options.hpp"
#include "signal_watcher.hpp"

#include <CLI/CLI.hpp>

namespace permbb::app {

// Everything `permbb knapsack` is told, as the command line spells it; add_knapsack_options
// declares the options, their checks and their help text.
struct KnapsackCommandOptions {
  std::string instance_file;
  std::string generate;                  // "CLASS,n,R,seed" or "jooken,n,c,g,f,eps,s,seed"
  std::int64_t capacity = -1;            // -1: the file's, or half the total weight when generated
  std::string gpu = "auto";              // auto | on | off
  std::string method = "core";           // core | bb | dp | groups
  std::int64_t switch_threshold = 0;     // 0: the default (knapsack_level_search.hpp)
  std::int64_t max_list_nodes = 0;       // 0: from --memory-fraction of the memory
  std::int64_t max_set_aside_nodes = 0;  // 0: from --memory-fraction of the host's memory
  std::int64_t at_least = 0;             // bb, groups: seek only solutions worth this much (0: any)
  std::int64_t max_states = 0;           // 0: none (core: the memory cap alone)
  double memory_fraction = 0;            // 0: the default (knapsack_memory_cap.hpp)
  std::int64_t dp_memory_mib = 0;        // 0: the default (knapsack_dp.hpp)
  double time_limit_seconds = 0;         // 0: none
  double progress_seconds = 5;           // core and branch-and-bound progress lines
  std::vector<std::string> without;      // branch-and-bound techniques turned off (measuring)
  std::string write_instance;            // write the instance (numbered layout), do not solve
  OutputOptions output;
  // The parsed command, to name the options given for another --method (set by
  // add_knapsack_options).
  const CLI::App* command = nullptr;
};

void add_knapsack_options(CLI::App& command, KnapsackCommandOptions& options);

// `permbb knapsack FILE | --generate CLASS,n,R,seed ...`: solves the 0-1 knapsack instance
// exactly and prints the optimal value, its weight, the chosen items (1-based), the nodes
// explored, the seconds and the engine; writes the JSON if asked. Throws InputError for bad
// input (--gpu without a usable GPU included). Returns the exit status: 0, or 3 when the time
// limit stopped the search (status incomplete: the best solution found is shown).
// A stop signal (`signals`) stops it as the time limit does.
int run_knapsack_command(const KnapsackCommandOptions& options,
                         const solve::SignalWatcher& signals);

}  // namespace permbb::app
