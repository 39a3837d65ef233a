#pragma once
#include <string>

#include "shared_options.hpp"
#include "signal_watcher.hpp"

#include <CLI/CLI.hpp>

namespace permbb::app {

// Everything `permbb pcmax` is told, as the command line spells it; add_pcmax_options
// declares the options, their checks and their help text.
struct PcmaxCommandOptions {
  std::string instance_file;
  std::string generate;  // "uniform,n,m,lo,hi,seed" or "pareto,n,m,lo,hi,alpha,seed"
  double epsilon = 0;  // 0: no PTAS (--exact alone)
  bool exact = false;
  std::string gpu = "auto";         // auto | on | off
  int threads = 0;                  // 0: all hardware threads
  int split = 0;                    // 0: 4 on the GPU, 2 on the CPU
  double memory_limit_gib = 0;      // 0: three quarters of physical memory
  double gpu_memory_limit_mib = 0;  // 0: the device's free memory
  double time_limit_seconds = 0;    // 0: none
  double progress_seconds = 5;
  OutputOptions output;
  // The parsed command, to name the PTAS's options given without --epsilon (set by
  // add_pcmax_options).
  const CLI::App* command = nullptr;
};

void add_pcmax_options(CLI::App& command, PcmaxCommandOptions& options);

// `permbb pcmax FILE|--generate SPEC [--epsilon E] [--exact] ...`: P||Cmax (pcmax_solver.hpp):
// the best of LPT, MULTIFIT and the PTAS, improved by local search, with lower bounds, and
// with --exact a proof of the optimum. Prints the schedule (machine of each job), its
// makespan, the lower bounds and the gap, the guarantee and the DP statistics; writes the
// JSON if asked. Throws InputError for bad input (exit 2). Returns the exit status: 0, or 3
// when the time limit stopped the run (status incomplete: the best schedule found is shown,
// with its bounds).
// A stop signal (`signals`) stops it as the time limit does.
int run_pcmax_command(const PcmaxCommandOptions& options, const solve::SignalWatcher& signals);

}  // namespace permbb::app
