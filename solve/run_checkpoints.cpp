#include "run_checkpoints.hpp"

#include <spdlog/spdlog.h>

#include "factoradic_mpz.hpp"
#include "input_error.hpp"

namespace permbb::solve {
namespace {

StartPoint fresh_start(const SolveOptions& options, const Instance& instance,
                       const StopCheck& stop) {
  StartPoint start;
  start.initial = resolve_upper_bound(options.upper_bound.value_or(UpperBoundSpec{}), instance, stop);
  start.best = {start.initial.heuristic.permutation, start.initial.value};
  start.units.emplace_back(1, std::vector<Interval>{Interval{0, factorial(instance.jobs())}});
  if (!options.certificate_path.empty()) {
    start.cut = CutRecords{cut_depth_for(instance.jobs(), options.certificate_subproblems), {}};
  }
  return start;
}

// A certificate of a restart chain needs the cut records of every link before this one
// (docs/audit.md): refused when the checkpoint has none or another cut depth. Without
// --certificate the records are not carried on.
std::optional<CutRecords> chain_cut(const SolveOptions& options, const Instance& instance,
                                    std::optional<CutRecords> cut) {
  const std::string& path = options.restart_path;
  if (options.certificate_path.empty()) {
    if (cut) spdlog::warn("{}: its cut records end here: this run has no --certificate", path);
    return std::nullopt;
  }
  if (!cut) {
    throw InputError("--certificate: " + path + " holds no cut records (a run of this chain "
                     "had no --certificate), so no certificate can cover the whole search");
  }
  const int depth = cut_depth_for(instance.jobs(), options.certificate_subproblems);
  if (cut->depth != depth) {
    throw InputError("--certificate: " + path + " holds a cut at depth " +
                     std::to_string(cut->depth) + ", --certificate-subproblems " +
                     std::to_string(options.certificate_subproblems) + " gives depth " +
                     std::to_string(depth) + "; restart with the chain's value");
  }
  return cut;
}

}  // namespace

StartPoint resolve_start(const SolveOptions& options, const Instance& instance,
                         const SearchSettings& settings, const StopCheck& stop) {
  if (options.restart_path.empty()) return fresh_start(options, instance, stop);
  std::string note;
  GlobalCheckpoint ckpt =
      load_checkpoint_with_fallback(options.restart_path, options.restart_fallback, &note);
  if (!note.empty()) spdlog::warn("{}", note);
  validate_against(ckpt, instance, settings, options.restart_path);
  const auto& ub = options.upper_bound;
  if (ub && ub->kind != UpperBoundSpec::Kind::kNeh &&
      bound_without_heuristic(*ub, instance) != ckpt.initial_ub) {
    throw InputError(options.restart_path + ": the checkpoint was written with initial UB " +
                     std::to_string(ckpt.initial_ub) + ", not --ub " + to_string(*ub) +
                     "; restart without --ub, or start a new search");
  }
  StartPoint start;
  start.restarted = true;
  start.initial.value = ckpt.initial_ub;
  start.initial.origin = ckpt.initial_ub_origin;
  start.best = {ckpt.best_permutation, ckpt.best_makespan};
  start.earlier = ckpt.statistics;
  start.cut = chain_cut(options, instance, std::move(ckpt.cut));
  start.units = std::move(ckpt.unassigned);
  for (WorkUnit& unit : ckpt.active) start.units.push_back(std::move(unit));
  spdlog::info("restart {} from {}: {} units, best {}, {} nodes in earlier runs",
               ckpt.statistics.restarts + 1, options.restart_path, start.units.size(),
               ckpt.best_makespan, ckpt.statistics.nodes_decomposed);
  return start;
}

PathLock claim_checkpoint_path(const SolveOptions& options) {
  const std::string& path = options.checkpoint_path;
  PathLock lock(path, "--checkpoint");
  refuse_replacing_a_saved_search(options);
  check_checkpoint_writable(path);  // a folder that takes no files is refused here
  if (!lock.unprotected().empty()) spdlog::warn("{}", lock.unprotected());
  return lock;
}

void seed_incumbent(const StartPoint& start, Incumbent& incumbent) {
  if (!start.restarted) {
    seed_incumbent(start.initial, incumbent);
  } else if (start.best.permutation.empty()) {
    incumbent.lower_to(start.best.makespan);
  } else {
    incumbent.offer(start.best.permutation, start.best.makespan);
  }
}

CheckpointStatistics totals(const CheckpointStatistics& earlier, const RunCounters& run,
                            bool restarted) {
  CheckpointStatistics t = earlier;
  t.nodes_decomposed += run.decomposed;
  t.leaves += run.leaves;
  t.wall_seconds += run.wall_seconds;
  t.worker_checkpoints += run.worker_checkpoints;
  t.work_divisions += run.splits;
  if (restarted) t.restarts = earlier.restarts + 1;
  return t;
}

CheckpointKeeper::CheckpointKeeper(const SolveOptions& options, const Instance& instance,
                                   const SearchSettings& settings, const StartPoint& start)
    : path_(options.checkpoint_path),
      interval_(options.checkpoint_seconds),
      last_(std::chrono::steady_clock::now()),
      earlier_(start.earlier),
      restarted_(start.restarted) {
  header_.instance_name = instance.name();
  header_.instance_fingerprint = instance.fingerprint();
  header_.jobs = instance.jobs();
  header_.machines = instance.machines();
  header_.settings = settings;
  header_.initial_ub = start.initial.value;
  header_.initial_ub_origin = start.initial.origin;
}

bool CheckpointKeeper::due() const {
  return enabled() && std::chrono::steady_clock::now() - last_ >= interval_;
}

void CheckpointKeeper::write(const SearchState& state) {
  if (!enabled()) return;
  GlobalCheckpoint ckpt = header_;
  ckpt.best_makespan = state.best.makespan;
  ckpt.best_permutation = state.best.permutation;
  ckpt.unassigned = state.unassigned;
  ckpt.active = state.active;
  ckpt.statistics = totals(earlier_, state.counters, restarted_);
  ckpt.cut = state.cut;
  last_ = std::chrono::steady_clock::now();
  try {
    save_checkpoint(ckpt, path_);
  } catch (const std::runtime_error& e) {
    // A full disk or a lost mount must not end a search of days: the file still holds the
    // last checkpoint written (saves are atomic), the search goes on, the next save retries.
    spdlog::error("{}; {} keeps the last checkpoint written; next try in {:.0f} s", e.what(),
                  path_, interval_.count());
    return;
  }
  spdlog::info("checkpoint written to {} ({} nodes in all)", path_,
               ckpt.statistics.nodes_decomposed);
}

}  // namespace permbb::solve
