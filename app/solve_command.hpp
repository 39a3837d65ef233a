#pragma once
#include "signal_watcher.hpp"
#include "solve_options.hpp"

namespace permbb::app {

// `permbb solve` in one process: reads the instance, sets the initial upper bound (or
// restarts from a checkpoint), searches with the GPU or multi-core engine, writes
// checkpoints, reports. Returns the exit status (0 complete, 3 incomplete). Bad input throws
// InputError.
int run_solve(const SolveOptions& options, SignalWatcher& signals);

}  // namespace permbb::app
