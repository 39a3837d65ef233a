#include "solve_options.hpp"

#include <sys/stat.h>

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
      {{"--json", options.output.json_path},
       {"--progress-log", options.progress_log_path},
       {"--certificate", options.certificate_path}},
      inputs);
  check_json_destination(options.output.json_path);
}

std::string checkpoint_destination(const SolveOptions& options) {
  const std::string& given =
      options.checkpoint_path.empty() ? options.restart_path : options.checkpoint_path;
  return given.empty() ? given : link_target(given);
}

void refuse_replacing_a_saved_search(const SolveOptions& options) {
  const std::string& path = options.checkpoint_path;
  if (path.empty() || options.overwrite_checkpoint) return;
  const std::string& restart = options.restart_path;
  if (!restart.empty() && (same_file(path, restart) || same_file(path + ".prev", restart))) {
    return;  // it continues the search saved there
  }
  for (const std::string& saved : {path, path + ".prev"}) {
    struct stat info {};
    if (::stat(saved.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) continue;
    throw InputError("--checkpoint " + path + ": " + saved +
                     " holds a saved search, which this run would replace; continue it with "
                     "--restart " +
                     saved + ", or start over with --overwrite-checkpoint");
  }
}

}  // namespace permbb::solve
