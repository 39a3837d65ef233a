#pragma once
#include "run.hpp"
#include "signal_watcher.hpp"
#include "solve_options.hpp"

namespace permbb::solve {

// `permbb solve` in one process: sets the initial upper bound (or restarts from a checkpoint),
// searches with the GPU or multi-core engine, checkpoints between slices, reports. Returns
// the exit status (0 complete, 3 incomplete). Bad input throws InputError.
int solve_in_one_process(const SolveOptions& options, const SolveInput& input,
                         const RunClock& clock, SignalWatcher& signals);

}  // namespace permbb::solve
