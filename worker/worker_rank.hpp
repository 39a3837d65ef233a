#pragma once
#include "mpi_transport.hpp"
#include "run.hpp"
#include "solve_options.hpp"

namespace permbb::cluster {

// A worker rank's part of `mpirun -np P permbb solve ...` (ranks 1..P-1; 2022 §4.2): its
// engine (the GPU's or the CPU's, agreed on with the other ranks' set-up), the heuristic
// threads beside it, and run_worker over the communicator. Returns 0; a coordinator that
// stops answering ends the job by AbortJob with status 3 (its last periodic checkpoint holds
// the state).
int run_worker_rank(const solve::SolveOptions& options, const solve::SolveInput& input,
                    const MpiSession& session);

}  // namespace permbb::cluster
