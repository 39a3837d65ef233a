#pragma once
#include "mpi_transport.hpp"
#include "signal_watcher.hpp"
#include "solve_options.hpp"

namespace permbb::app {

// Thrown on the ranks of a job that must end because another rank met bad input in its own
// setup (that rank reports it); main returns `status`, printing nothing more.
struct StoppedByAnotherRank {
  int status;
};

// This rank's part of `mpirun -np P permbb solve ...` (P >= 2; 2022 §4): rank 0 runs the
// coordinator loop and prints the result, every other rank a worker. Returns the exit status.
// Signals: the coordinator checkpoints on SIGUSR1, and on SIGTERM/SIGINT checkpoints, stops
// the workers and exits 3; workers leave signals to it (mpirun delivers them to every rank).
int run_cluster_solve(const SolveOptions& options, const cluster::MpiSession& session,
                      SignalWatcher& signals);

}  // namespace permbb::app
