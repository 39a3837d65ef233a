#pragma once
#include "mpi_transport.hpp"
#include "run.hpp"
#include "signal_watcher.hpp"
#include "solve_options.hpp"

namespace permbb::cluster {

// Rank 0's part of `mpirun -np P permbb solve ...` (P >= 2; 2022 §4): the coordinator loop
// over the run's lifecycle (solve::Run), and the result. Returns the exit status.
// Signals: the coordinator checkpoints on SIGUSR1, and on SIGTERM/SIGINT checkpoints, stops
// the workers and exits 3; workers leave signals to it (mpirun delivers them to every rank).
// Rank faults (--rank-timeout): a worker silent for too long is declared lost, the job saves a
// checkpoint and ends by AbortJob with status 3.
int run_coordinator_rank(const solve::SolveOptions& options, const solve::SolveInput& input,
                         const solve::RunClock& clock, const MpiSession& session,
                         solve::SignalWatcher& signals);

}  // namespace permbb::cluster
