#pragma once
#include <string>

#include "mpi_transport.hpp"
#include "signal_watcher.hpp"
#include "solve_options.hpp"

namespace permbb::app {

// Thrown on the ranks of a job that must end because another rank met bad input in its own
// setup (that rank reports it); main returns `status`, printing nothing more.
struct StoppedByAnotherRank {
  int status;
};

// Thrown to end the whole job at once: main prints `message` and calls MPI_Abort with
// `status`. For a rank that stopped answering: MPI_Finalize would wait for it for ever.
struct AbortJob {
  int status;
  std::string message;
};

// This rank's part of `mpirun -np P permbb solve ...` (P >= 2; 2022 §4): rank 0 runs the
// coordinator loop and prints the result, every other rank a worker. Returns the exit status.
// Signals: the coordinator checkpoints on SIGUSR1, and on SIGTERM/SIGINT checkpoints, stops
// the workers and exits 3; workers leave signals to it (mpirun delivers them to every rank).
// Rank faults (--rank-timeout): a worker silent for too long is declared lost, the job saves a
// checkpoint and ends by AbortJob with status 3; a worker whose coordinator stops answering
// throws AbortJob with status 3 (the last periodic checkpoint holds the state).
int run_cluster_solve(const SolveOptions& options, const cluster::MpiSession& session,
                      SignalWatcher& signals);

}  // namespace permbb::app
