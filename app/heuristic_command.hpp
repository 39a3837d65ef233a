#pragma once
#include <cstdint>
#include <string>

#include "iterated_greedy.hpp"
#include "shared_options.hpp"
#include "signal_watcher.hpp"

#include <CLI/CLI.hpp>

namespace permbb::app {

// Everything `permbb heuristic` is told, as the command line spells it; add_heuristic_options
// declares the options, their checks and their help text.
struct HeuristicCommandOptions {
  std::string instance;
  std::string method = "ils";
  double time_limit_seconds = 10;     // 0: none (then --iterations is needed)
  bool cpu_time = false;              // ILS: the limit counts each thread's CPU time
  std::uint64_t iteration_limit = 0;  // 0: none
  int threads = 1;
  std::uint64_t seed = 0;
  double progress_seconds = 5;
  OutputOptions output;
  // The iterated greedy's settings (--ig-*); the tie rule by name (its default set by
  // add_heuristic_options from iterated_greedy's).
  IteratedGreedyOptions iterated_greedy;
  std::string ig_ties;
  std::string beam_guide = "idle";  // --beam-guide, by name
  std::int64_t beam_cutoff = 0;     // --beam-cutoff; 0: none
  int beam_copies = -1;             // --beam-copies (ils); -1: resolve_beam_copies's default
  // The parsed command, to name the options given for another --method (set by
  // add_heuristic_options).
  const CLI::App* command = nullptr;
};

void add_heuristic_options(CLI::App& command, HeuristicCommandOptions& options);

// `permbb heuristic INSTANCE --method neh|ils|truncated-bb|beam ...`: runs the heuristic from
// NEH's schedule and prints the makespan, the permutation (1-based), the seconds taken and,
// for a Taillard instance, the deviation from the best-known makespan; writes the JSON if
// asked. Throws InputError for bad input. Returns the exit status (0).
// A stop signal (`signals`) ends the search as the time limit does, with the best schedule so
// far, but the result is then incomplete (exit 3).
int run_heuristic_command(const HeuristicCommandOptions& options,
                          const solve::SignalWatcher& signals);

}  // namespace permbb::app
