#pragma once
#include <string>

#include <CLI/CLI.hpp>

#include "shared_options.hpp"

namespace permbb::app {

struct CheckpointCommandOptions {
  std::string file;
  OutputOptions output;
};

void add_checkpoint_options(CLI::App& command, CheckpointCommandOptions& options);

// `permbb checkpoint FILE [--json [OUT]]`: what a checkpoint holds (instance, settings,
// bounds, best, the work left, statistics), without solving. Returns the exit status; an
// unusable file throws InputError.
int run_checkpoint(const CheckpointCommandOptions& options);

}  // namespace permbb::app
