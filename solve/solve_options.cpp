#include "solve_options.hpp"

#include <algorithm>

#include "number_text.hpp"
#include "input_error.hpp"
#include "output_paths.hpp"

namespace permbb::solve {

double rank_timeout(const SolveOptions& options) {
  const double interval = options.worker_checkpoint_seconds;
  if (options.rank_timeout_seconds == 0) return std::max(120.0, 4 * interval);
  if (options.rank_timeout_seconds <= interval) {
    throw InputError("--rank-timeout " + number_text(options.rank_timeout_seconds) +
                     " must exceed --worker-checkpoint-interval " + number_text(interval) +
                     ": a healthy worker is silent that long between its checkpoints");
  }
  return options.rank_timeout_seconds;
}

void check_output_paths(const SolveOptions& options) {
  // A checkpoint replaces its file atomically and keeps the one before as FILE.prev, so it may
  // name the --restart file (the usual chain) or its previous checkpoint (a kill between two
  // steps of a save leaves FILE and FILE.prev as links to one file): only the instance is
  // at risk.
  refuse_outputs_naming_inputs({{"--checkpoint", options.checkpoint_path}},
                               {{"the instance", options.instance}});
  std::vector<NamedPath> inputs = {{"the instance", options.instance},
                                   {"--restart", options.restart_path},
                                   {"--checkpoint", options.checkpoint_path}};
  if (!options.checkpoint_path.empty()) {
    inputs.push_back({"the previous checkpoint", options.checkpoint_path + ".prev"});
  }
  refuse_outputs_naming_inputs(
      {{"--json", options.output.json_path}, {"--progress-log", options.progress_log_path}},
      inputs);
  check_json_destination(options.output.json_path);
}

}  // namespace permbb::solve
