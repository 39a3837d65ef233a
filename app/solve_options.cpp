#include "solve_options.hpp"

#include <algorithm>

#include "cli_numbers.hpp"
#include "cli_output.hpp"
#include "gpu_engine.hpp"
#include "input_error.hpp"
#include "output_paths.hpp"
#include "search_settings.hpp"

namespace permbb::app {
void add_solve_options(CLI::App& command, SolveOptions& options) {
  command.add_option("instance", options.instance,
                     "Taillard name (ta001..ta120) or instance file (plain or VRF format)")
      ->required();
  command.add_option("--ub", options.upper_bound,
                     "initial upper bound: inf (NEH gives the first incumbent), opt (best-known "
                     "makespan of a Taillard instance) or N (look only for makespans < N)")
      ->capture_default_str();
  command.add_option("--checkpoint", options.checkpoint_path,
                     "write the global checkpoint to FILE (when the search starts, periodically, on "
                     "SIGUSR1, on SIGTERM/SIGINT/SIGHUP/SIGQUIT/SIGUSR2 and when a limit stops the "
                     "search); FILE.prev keeps the previous one; one run at a time (FILE.lock)");
  command.add_option("--checkpoint-interval", options.checkpoint_seconds,
                     "seconds between periodic checkpoints")
      ->check(number_above(0.0))
      ->capture_default_str();
  command.add_option("--restart", options.restart_path,
                     "continue the search saved in this checkpoint (any number of ranks)");
  command.add_flag("--restart-fallback", options.restart_fallback,
                   "if the --restart file is unusable, use FILE.prev (and say so)");
  command.add_option("--bound", options.bound,
                     "lower bound: " + joined_names(bound_kind_names()) +
                         "|auto (the fastest measured for the instance's class)")
      ->capture_default_str();
  command
      .add_option("--branch", options.branching,
                  "branching rule: " + joined_names(branching_rule_names()))
      ->capture_default_str();
  command.add_option("--time-limit", options.time_limit_seconds,
                     "stop after this many seconds (0: no limit); the result is then incomplete")
      ->check(number_at_least(0.0));
  command.add_option("--node-limit", options.node_limit,
                     "stop after about this many decomposed nodes (0: no limit); a run passes it by "
                     "about a millisecond of search (0.2 s under mpirun, where workers report "
                     "their counts that often)")
      ->check(number_at_least(0ULL));
  add_progress_option(command, options.progress_seconds);
  command.add_option("--progress-log", options.progress_log_path,
                     "append one JSON object per progress tick to FILE (JSON Lines; a restart "
                     "continues the file; written even with --quiet; docs/progress-log.md)");
  command.add_option("--threads", options.threads,
                     "CPU explorer threads (0: all hardware threads)")
      ->check(number_in_range(0, kMaxThreadsOption))
      ->capture_default_str();
  command.add_option("--steal-policy", options.steal_policy,
                     "how idle CPU threads pick a victim: ring|random|largest")
      ->check(CLI::IsMember({"ring", "random", "largest"}))
      ->capture_default_str();
  add_gpu_choice(command, options.gpu, "explore on the GPU (an error without one)",
                 "explore on the CPU even if a GPU is present (default: the GPU when there is one)");
  command.add_option("--ivms", options.ivms, "GPU IVMs per pool (0: chosen from the device)")
      ->check(number_in_range(0, 1 << 20));
  command
      .add_option("--gpu-pools", options.gpu_pools,
                  "IVM pools explored side by side on the GPU, each with its own stream and "
                  "feeding thread (0: the default, " +
                      std::to_string(gpu::kDefaultGpuPools) + ")")
      ->check(number_in_range(0, 16));
  command
      .add_option("--heuristic-threads", options.heuristic_threads,
                  "heuristic threads beside the explorers, fed with the B&B's subproblems "
                  "(iterated greedy, and dives: --heuristic-dives) (-1: auto, 0 with the CPU "
                  "engine, with the GPU engine the process's cores less one per GPU pool and "
                  "one for MPI; at most the process's cores)")
      ->check(number_in_range(-1, kMaxThreadsOption))
      ->capture_default_str();
  command
      .add_option("--heuristic-seconds", options.heuristic_seconds,
                  "seconds of one heuristic run (then it restarts from the solution pool)")
      ->check(number_above(0.0))
      ->capture_default_str();
  command.add_flag("--heuristic-dives,!--no-heuristic-dives", options.heuristic_dives,
                   "half the heuristic threads run beam searches inside the B&B's latest "
                   "subproblems (prefix and suffix kept, at random depths) instead of iterated "
                   "greedy (default; --no-heuristic-dives: all run iterated greedy)");
  command.add_option("--seed", options.seed, "random seed of the heuristic threads")
      ->check(number_at_least(std::uint64_t{0}))
      ->capture_default_str();
  command.add_option("--worker-checkpoint-interval", options.worker_checkpoint_seconds,
                     "under mpirun: seconds between a worker's checkpoints to the coordinator")
      ->check(number_above(0.0))
      ->capture_default_str();
  command
      .add_option("--rank-timeout", options.rank_timeout_seconds,
                  "under mpirun: seconds a rank may go without answering before it counts as "
                  "stopped; the job then ends resumable (exit 3) with a checkpoint (default: "
                  "max(120, 4 x --worker-checkpoint-interval); must exceed that interval)")
      ->check(number_above(0.0));
  // For the robustness tests: makes rank 1 fail, to check that the job aborts, not hangs.
  command.add_option("--fault-injection", options.fault_injection)
      ->check(CLI::IsMember({"worker-exception"}))
      ->group("");
  add_output_options(command, options.output);
}


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

}  // namespace permbb::app
