#include "solve_command_line.hpp"

#include <spdlog/spdlog.h>

#include "cli_numbers.hpp"
#include "gpu_engine.hpp"
#include "search_settings.hpp"
#include "shared_options.hpp"

namespace permbb::app {

void add_solve_options(CLI::App& command, SolveCommandLine& line) {
  solve::SolveOptions& options = line.options;
  command
      .add_option("instance", options.instance,
                  "Taillard name (ta001..ta120) or instance file (plain or VRF format)")
      ->required();
  line.upper_bound_option =
      command
          .add_option("--ub", line.upper_bound,
                      "initial upper bound: inf (NEH gives the first incumbent), opt (best-known "
                      "makespan of a Taillard instance) or N (look only for makespans < N)")
          ->capture_default_str();
  command
      .add_option(
          "--checkpoint", options.checkpoint_path,
          "write the global checkpoint to FILE (when the search starts, periodically, on "
          "SIGUSR1, on SIGTERM/SIGINT/SIGHUP/SIGQUIT/SIGUSR2 and when a limit stops the "
          "search); FILE.prev keeps the previous one; one run at a time (FILE.lock); a link is "
          "followed to its file; one that holds a saved search is refused unless --restart "
          "continues it or --overwrite-checkpoint (default with --restart: the --restart file)")
      ->type_name(kFileType);
  command.add_flag("--overwrite-checkpoint", options.overwrite_checkpoint,
                   "start over in a --checkpoint FILE that holds a saved search (its work and "
                   "FILE.prev are replaced)");
  line.checkpoint_interval_option =
      command
          .add_option("--checkpoint-interval", options.checkpoint_seconds,
                      "seconds between periodic checkpoints")
          ->check(number_above(0.0))
          ->capture_default_str();
  command
      .add_option("--restart", options.restart_path,
                  "continue the search saved in this checkpoint (any number of ranks); its "
                  "checkpoints go on to this file unless --checkpoint names another")
      ->type_name(kFileType);
  command.add_flag("--restart-fallback", options.restart_fallback,
                   "if the --restart file is unusable, use FILE.prev (and say so)");
  std::vector<std::string> bounds = bound_kind_names();
  bounds.push_back("auto");
  command
      .add_option("--bound", options.bound,
                  "lower bound: " + joined_names(bounds) +
                      " (auto: the fastest measured for the instance's class)")
      ->check(CLI::IsMember(bounds))
      ->capture_default_str();
  command
      .add_option("--branch", options.branching,
                  "branching rule: " + joined_names(branching_rule_names()))
      ->check(CLI::IsMember(branching_rule_names()))
      ->capture_default_str();
  add_time_limit_option(command, options.time_limit_seconds,
                        "stop after this many seconds (0: no limit); the result is then "
                        "incomplete");
  command
      .add_option("--node-limit", options.node_limit,
                  "stop after about this many decomposed nodes (0: no limit); a run passes it by "
                  "about a millisecond of search (0.2 s under mpirun, where workers report "
                  "their counts that often)")
      ->check(number_at_least(0ULL));
  add_progress_option(command, options.progress_seconds);
  command
      .add_option("--progress-log", options.progress_log_path,
                  "append one JSON object per progress tick to FILE (JSON Lines; a restart "
                  "continues the file; written even with --quiet; docs/progress-log.md)")
      ->type_name(kFileType);
  add_threads_option(command, options.threads, 0, "CPU explorer threads (0: all hardware threads)");
  command
      .add_option("--steal-policy", options.steal_policy,
                  "how idle CPU threads pick a victim: ring|random|largest")
      ->check(CLI::IsMember({"ring", "random", "largest"}))
      ->capture_default_str();
  add_gpu_choice(
      command, options.gpu, "explore on the GPU (an error without one)",
      "explore on the CPU even if a GPU is present (default: the GPU when there is one)");
  command.add_option("--ivms", options.ivms, "GPU IVMs per pool (0: chosen from the device)")
      ->check(number_in_range(0, 1 << 20));
  command
      .add_option("--gpu-steal-rule", options.gpu_steal_rule,
                  "with --gpu-explorer rounds, which neighbour's interval an idle GPU IVM "
                  "takes: the longest (largest), or the first as long as the mean of the busy "
                  "IVMs' (mean, the 2022 paper's)")
      ->check(CLI::IsMember({"largest", "mean"}))
      ->capture_default_str();
  command
      .add_option("--gpu-explorer", options.gpu_explorer,
                  "the GPU explorer: persistent (one launch per period, work shared on the "
                  "device) or rounds (launches with a stealing phase between two)")
      ->check(CLI::IsMember({"persistent", "rounds"}))
      ->capture_default_str();
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
  add_on_off_flag(command, "--heuristic-dives", "--no-heuristic-dives", options.heuristic_dives,
                  "half the heuristic threads run beam searches inside the B&B's latest "
                  "subproblems (prefix and suffix kept, at random depths) instead of iterated "
                  "greedy (default; --no-heuristic-dives: all run iterated greedy)");
  add_on_off_flag(command, "--heuristic-root-beam", "--no-heuristic-root-beam",
                  options.heuristic_root_beam,
                  "the first heuristic thread starts with a beam search from the root, "
                  "guided by the gap of each bound to the incumbent, for as long as it runs "
                  "(default; it finds optima at the lower bound: ta083, ta084)");
  command.add_option("--seed", options.seed, "random seed of the heuristic threads")
      ->check(number_at_least(std::uint64_t{0}))
      ->capture_default_str();
  line.cluster_only.push_back(
      command
          .add_option("--worker-checkpoint-interval", options.worker_checkpoint_seconds,
                      "under mpirun: seconds between a worker's checkpoints to the coordinator")
          ->check(number_above(0.0))
          ->capture_default_str());
  line.cluster_only.push_back(
      command
          .add_option("--worker-steal-checkpoint-interval", options.worker_steal_checkpoint_seconds,
                      "under mpirun: a worker whose engine balanced its load many times "
                      "checkpoints, but not sooner than this many seconds after its last one")
          ->check(number_above(0.0))
          ->capture_default_str());
  line.cluster_only.push_back(
      command
          .add_option("--handover-intervals", options.handover_intervals,
                      "under mpirun: the most intervals a worker hands to a waiting one (0: "
                      "65536 / workers, at least 256)")
          ->check(CLI::Range(0, 1 << 24))
          ->capture_default_str());
  line.cluster_only.push_back(
      command
          .add_option("--interrupt-slices", options.interrupt_slices,
                      "under mpirun: a worker's slice ends as soon as the coordinator asks it "
                      "for work or a checkpoint")
          ->capture_default_str());
  line.cluster_only.push_back(
      command
          .add_option("--rank-timeout", options.rank_timeout_seconds,
                      "under mpirun: seconds a rank may go without answering before it counts as "
                      "stopped; the job then ends resumable (exit 3) with a checkpoint (default: "
                      "max(120, 4 x --worker-checkpoint-interval); must exceed that interval)")
          ->check(number_above(0.0)));
  command
      .add_option("--certificate", options.certificate_path,
                  "when the search completes, write a certificate of it to FILE: the instance, "
                  "the claim and a cut of the search tree, which `permbb audit FILE` checks "
                  "(docs/audit.md; every engine, the cluster too; a chain of --restart runs all "
                  "with --certificate writes it at its end)")
      ->type_name(kFileType);
  command
      .add_option("--certificate-subproblems", options.certificate_subproblems,
                  "the certificate's cut lies at the deepest depth with at most N nodes")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40))
      ->capture_default_str();
  command
      .add_option("--certificate-merge", options.certificate_merge,
                  "in the certificate, every subtree of at most N decomposed nodes becomes one "
                  "subproblem (0: none): with a deeper cut (--certificate-subproblems), small "
                  "subproblems where the tree is heavy and few where it is light")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 62))
      ->capture_default_str();
  command
      .add_option("--certificate-split", options.certificate_split,
                  "GPU explorer: in the certificate, a node below the cut in whose subtree an "
                  "IVM decomposed at least N nodes gets its own nested subproblem, so that the "
                  "audit's draws stay small where the tree is heavy (0: none)")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 62))
      ->capture_default_str();
  command
      .add_option("--certificate-split-depth", options.certificate_split_depth,
                  "GPU explorer: the deepest nested subproblem (0: 8 below the cut; at most 16)")
      ->check(CLI::Range(0, 16))
      ->capture_default_str();
  // For the robustness tests: makes rank 1 fail, to check that the job aborts, not hangs.
  command.add_option("--fault-injection", options.fault_injection)
      ->check(CLI::IsMember({"worker-exception"}))
      ->group("");
  add_output_options(command, options.output);
}

solve::SolveOptions solve_options_of(const SolveCommandLine& line) {
  solve::SolveOptions options = line.options;
  if (line.upper_bound_option->count() > 0)
    options.upper_bound = solve::parse_upper_bound_spec(line.upper_bound);
  options.checkpoint_path = solve::checkpoint_destination(options);
  return options;
}

void warn_options_without_effect(const SolveCommandLine& line, const solve::SolveOptions& options,
                                 bool cluster) {
  const std::string one_process =
      "only a run under mpirun (2 ranks or more) uses it; this one is a single process";
  if (!cluster) {
    for (const CLI::Option* option : line.cluster_only) {
      if (option->count() > 0) spdlog::warn("{}: {}: ignored", option->get_name(), one_process);
    }
  }
  if (line.checkpoint_interval_option->count() > 0 && options.checkpoint_path.empty()) {
    spdlog::warn("--checkpoint-interval: no --checkpoint (nor --restart) file: ignored");
  }
  if (options.restart_fallback && options.restart_path.empty()) {
    spdlog::warn("--restart-fallback: no --restart file to fall back from: ignored");
  }
  if (options.overwrite_checkpoint && options.checkpoint_path.empty()) {
    spdlog::warn("--overwrite-checkpoint: no --checkpoint file: ignored");
  }
}

}  // namespace permbb::app
