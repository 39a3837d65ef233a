#pragma once
#include <cstdint>
#include <string>

#include <optional>

#include "result_output.hpp"
#include "upper_bound.hpp"

namespace permbb::solve {

// Everything `permbb solve` is told. app/solve_command_line.cpp declares the options, their
// checks and their help text; --ub arrives parsed (parse_upper_bound_spec).
struct SolveOptions {
  std::string instance;
  // --ub; none when not given: a fresh search then starts from NEH (inf), a restart from the
  // checkpoint's bound.
  std::optional<UpperBoundSpec> upper_bound;
  std::string bound = "lb1";
  std::string branching = "minmin";
  double time_limit_seconds = 0;      // 0: none
  unsigned long long node_limit = 0;  // 0: none
  double progress_seconds = 5;
  std::string progress_log_path;  // --progress-log: JSON Lines, appended (none: no log)
  int threads = 0;  // 0: all hardware threads
  std::string steal_policy = "largest";
  std::string gpu = "auto";  // auto | on | off
  int ivms = 0;              // GPU IVMs per pool, 0: from the device
  int gpu_pools = 0;         // GPU IVM pools, 0: gpu::kDefaultGpuPools
  std::string gpu_steal_rule = "largest";  // largest | mean (gpu::StealRule)
  std::string gpu_explorer = "persistent";  // persistent | rounds (gpu::GpuOptions::persistent)
  // Hybridization (2022 §4.2.3): heuristic threads beside the explorers; -1: auto (0 with
  // the CPU engine, whose explorers use every core; with the GPU engine the process's share
  // of the hardware threads less its feeding threads and MPI's), see
  // resolve_heuristic_threads.
  int heuristic_threads = -1;
  double heuristic_seconds = 2;           // wall-clock budget of one heuristic run
  // Half the heuristic threads run beam searches inside subproblems: on the 100 x 20
  // instances they came closer than iterated greedy alone on 6 of 8, never farther
  // (docs/records.md, "The hard optima").
  bool heuristic_dives = true;
  // The first heuristic thread starts with a gap-guided beam search from the root
  // (HeuristicWorkerOptions::root_beam).
  bool heuristic_root_beam = true;
  std::uint64_t seed = 0;                 // heuristic threads' random seed
  double worker_checkpoint_seconds = 30;  // cluster workers (2022 §4.2.1)
  // A worker's steal-triggered checkpoint (K/5 local steals, §4.2.1) waits at least this long
  // after its last checkpoint (WorkerSettings::min_steal_checkpoint_seconds): by default as
  // long as the periodic one, since handovers, not checkpoints, feed idle workers.
  double worker_steal_checkpoint_seconds = 30;
  // H, the most intervals one handover moves (0: handover_interval_cap of the workers).
  int handover_intervals = 0;
  // A worker's slice ends when a give or checkpoint request arrives (false: at its end).
  bool interrupt_slices = true;
  double rank_timeout_seconds = 0;        // 0: the default of rank_timeout()
  std::string checkpoint_path;            // global checkpoint file (none: no checkpoints)
  double checkpoint_seconds = 300;
  std::string restart_path;               // restart from this checkpoint
  bool restart_fallback = false;          // use FILE.prev if FILE is unusable
  bool overwrite_checkpoint = false;      // a fresh run may replace what --checkpoint holds
  std::string fault_injection;            // tests only: "worker-exception"
  // --certificate FILE: the certificate of a completed search (docs/audit.md), its cut at the
  // deepest depth with at most `certificate_subproblems` nodes (cut_depth_for).
  std::string certificate_path;
  std::uint64_t certificate_subproblems = 1000000;
  // Subtrees of at most this many decomposed nodes written as one subproblem (0: none;
  // SearchCut::partition).
  std::uint64_t certificate_merge = 0;
  // Split where heavy (the GPU explorer, docs/audit.md): a node below the cut depth, down to
  // `certificate_split_depth` (0: the default of split_depth_for), in whose subtree an IVM
  // decomposed at least this many nodes gets a nested record; lighter nested records are
  // folded into the record above them (SearchCut::partition). 0: no nested records.
  std::uint64_t certificate_split = 500000;
  int certificate_split_depth = 0;
  OutputOptions output;
};

// Under mpirun: how long a rank may owe a message before it counts as stopped (--rank-timeout;
// default max(120, 4 x --worker-checkpoint-interval)). Throws InputError unless it exceeds
// --worker-checkpoint-interval, the time a healthy worker may be silent.
double rank_timeout(const SolveOptions& options);

// Throws InputError when an output would overwrite an input or another output
// (refuse_outputs_naming_inputs): --checkpoint naming the instance; --json or --progress-log
// naming the instance, the --restart file, the checkpoint or its previous one, or each other
// (--checkpoint naming the --restart file is the usual way to continue a chain). Also checks
// that the JSON result can be written (check_json_destination), before the search rather than
// after it.
void check_output_paths(const SolveOptions& options);

// The file the run's checkpoints go to: --checkpoint, else the --restart file (a restart goes
// on saving where it came from, so its progress is never saved nowhere), through symbolic
// links to the file they name (link_target): the link stays a link to the file written, and
// two links to one file share its lock. "" for a run without either.
std::string checkpoint_destination(const SolveOptions& options);

// Throws InputError when the run's checkpoints would replace a search saved there that this
// run does not continue: FILE (or FILE.prev) exists and is neither the --restart file nor the
// one before it, and --overwrite-checkpoint was not given. Call it with the path locked
// (claim_checkpoint_path), so that no other run writes it meanwhile.
void refuse_replacing_a_saved_search(const SolveOptions& options);

}  // namespace permbb::solve
