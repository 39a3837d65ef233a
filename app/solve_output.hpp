#pragma once
#include "instance.hpp"
#include "search_settings.hpp"
#include "solve_options.hpp"
#include "solve_result.hpp"
#include "upper_bound.hpp"

namespace permbb::app {

// The fields of a result known before the search (instance, settings, initial bound).
SolveResult make_result_header(const Instance& instance, const SearchSettings& settings,
                               const InitialUpperBound& initial);

// Prints the human summary (unless the JSON goes to stdout), writes the JSON if asked, and
// returns the exit status for the result's status.
int emit_result(const SolveResult& result, const SolveOptions& options);

}  // namespace permbb::app
