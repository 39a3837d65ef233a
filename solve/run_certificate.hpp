#pragma once
// --certificate FILE at the end of a run (Run::finish), for the single process and rank 0 of
// a cluster alike: when the search (the whole restart chain) completed, its certificate from
// the cut records its last checkpoint holds (SearchState::cut: every link's, every explorer's
// or rank's, merged) and the chain's totals; otherwise nothing, with a warning.
#include "checkpoint_file.hpp"
#include "instance.hpp"
#include "run_checkpoints.hpp"
#include "search_settings.hpp"
#include "solve_options.hpp"

namespace permbb::solve {

// Does nothing without --certificate. Throws InputError naming the file when it cannot be
// written, and std::logic_error when a completed run with --certificate holds no records.
void write_run_certificate(const SolveOptions& options, const Instance& instance,
                           const SearchSettings& settings, bool complete,
                           const SearchState& last, const CheckpointStatistics& chain);

}  // namespace permbb::solve
