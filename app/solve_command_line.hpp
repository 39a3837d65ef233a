#pragma once
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "solve_options.hpp"

namespace permbb::app {

// `permbb solve` as the command line spells it: every option in place, --ub still as text
// until solve_options_of parses it, once.
struct SolveCommandLine {
  solve::SolveOptions options;
  std::string upper_bound = "inf";
  const CLI::Option* upper_bound_option = nullptr;  // says whether --ub was given
  // Options that only a cluster run (mpirun, 2 ranks or more) reads, to say when given to
  // one process (warn_options_without_effect).
  std::vector<const CLI::Option*> cluster_only;
  const CLI::Option* checkpoint_interval_option = nullptr;
};

// `permbb solve`'s options: one table declaring each option, its check and its help text.
void add_solve_options(CLI::App& command, SolveCommandLine& line);

// The options with --ub parsed (none when --ub was not given). Throws InputError.
solve::SolveOptions solve_options_of(const SolveCommandLine& line);

// Names in one warning each option given that this run cannot use, rather than ignore it
// silently: the cluster's (--rank-timeout, --worker-checkpoint-interval) in one process
// (`cluster` false), --checkpoint-interval without a checkpoint, --restart-fallback without
// --restart, --overwrite-checkpoint without a checkpoint. `options` as solve_options_of gave.
void warn_options_without_effect(const SolveCommandLine& line, const solve::SolveOptions& options,
                                 bool cluster);

}  // namespace permbb::app
