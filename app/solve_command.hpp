#pragma once
#include "solve_options.hpp"

namespace permbb::app {

// `permbb solve`: reads the instance, sets the initial upper bound, searches, reports.
// Returns the process exit status (0 complete, 3 incomplete). Bad input throws InputError.
int run_solve(const SolveOptions& options);

}  // namespace permbb::app
