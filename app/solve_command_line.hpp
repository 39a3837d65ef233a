#pragma once
#include <string>

#include <CLI/CLI.hpp>

#include "solve_options.hpp"

namespace permbb::app {

// `permbb solve` as the command line spells it: every option in place, --ub still as text
// until solve_options_of parses it, once.
struct SolveCommandLine {
  solve::SolveOptions options;
  std::string upper_bound = "inf";
  const CLI::Option* upper_bound_option = nullptr;  // says whether --ub was given
};

// `permbb solve`'s options: one table declaring each option, its check and its help text.
void add_solve_options(CLI::App& command, SolveCommandLine& line);

// The options with --ub parsed (none when --ub was not given). Throws InputError.
solve::SolveOptions solve_options_of(const SolveCommandLine& line);

}  // namespace permbb::app
