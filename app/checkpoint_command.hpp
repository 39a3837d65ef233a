#pragma once
#include <string>

namespace permbb::app {

// `permbb checkpoint FILE [--json]`: what a checkpoint holds (instance, settings, bounds, best,
// remaining fraction of the search space, statistics), without solving. Returns the exit
// status; an unusable file throws InputError.
int run_checkpoint(const std::string& path, bool json);

}  // namespace permbb::app
