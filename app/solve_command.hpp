#pragma once
#include "solve_command_line.hpp"

namespace permbb::app {

// `permbb solve`: one process, or this rank's part under an MPI launcher (rank 0 coordinates,
// the others work; a single rank solves alone). Takes the run signals that main blocked.
// Returns the exit status; bad input throws InputError (under MPI: reported by one rank).
int run_solve_command(int& argc, char**& argv, const SolveCommandLine& line);

}  // namespace permbb::app
