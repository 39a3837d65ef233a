#include "run.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "bound_choice.hpp"
#include "instance_source.hpp"
#include "result_output.hpp"
#include "run_certificate.hpp"
#include "solve_result.hpp"

namespace permbb::solve {
namespace {

SolveStatus status_of(bool complete, bool has_schedule) {
  if (!complete) return SolveStatus::kIncomplete;
  return has_schedule ? SolveStatus::kOptimal : SolveStatus::kNoBetterThanUb;
}

}  // namespace

SolveInput read_solve_input(const SolveOptions& options) {
  check_output_paths(options);
  rank_timeout(options);  // refused alike with and without mpirun
  Instance instance = load_instance(options.instance);
  const SearchSettings settings{bound_for(options.bound, instance),
                                parse_branching_rule(options.branching)};
  return {std::move(instance), settings};
}

Run::Run(const SolveOptions& options, const SolveInput& input, const RunClock& clock)
    : options_(options),
      input_(input),
      clock_(clock),
      checkpoint_lock_(claim_checkpoint_path(options)),
      progress_log_(options.progress_log_path, run_identity(input.instance, input.settings)),
      start_(resolve_start(options, input.instance, input.settings, clock.setup_stop())) {}

void Run::begin(int processes, const mpz_class& total_work, const SearchState& first) {
  const Instance& instance = input_.instance;
  const std::string workers =
      processes > 1 ? ", " + std::to_string(processes - 1) + " workers" : "";
  spdlog::info("{}: {} jobs x {} machines, {} + {}, initial UB {} ({}){}", instance.name(),
               instance.jobs(), instance.machines(), to_string(input_.settings.bound),
               to_string(input_.settings.branching), start_.initial.value, start_.initial.origin,
               workers);
  progress_.emplace(options_.progress_seconds, !options_.output.quiet, std::move(progress_log_));
  progress_->begin(progress_start(instance, input_.settings, start_, processes, total_work));
  keeper_.emplace(options_, instance, input_.settings, start_);
  keeper_->write(first);
}

// Why an incomplete search stopped: what its caller says, else a signal, else --node-limit
// (this run's nodes or all runs'), else --time-limit, the one limit left.
std::string Run::stop_cause(const RunEnd& end, std::uint64_t run_nodes,
                            std::uint64_t all_nodes) const {
  if (!end.stopped_because.empty()) return end.stopped_because;
  std::string signal = clock_.stop_signal_reason();
  if (!signal.empty()) return signal;
  const auto limit = options_.node_limit;
  if (limit > 0 && (run_nodes >= limit || all_nodes >= limit)) return "node limit";
  return clock_.has_time_limit() ? "time limit" : "";
}

int Run::finish(const RunEnd& in) {
  // The time a user waited: from the command's start, set-up and NEH included, not only the
  // search's (the engines count from the search's start).
  RunEnd end = in;
  end.state.counters.wall_seconds =
      std::max(end.state.counters.wall_seconds, clock_.elapsed_seconds());
  keeper_->write(end.state);
  const RunCounters& run = end.state.counters;
  const CheckpointStatistics all = totals(start_.earlier, run, start_.restarted);
  write_run_certificate(options_, input_.instance, input_.settings, end.complete, end.state, all);
  const Schedule& best = end.state.best;
  progress_->finish({end.complete, best.makespan, run.decomposed, end.remaining});

  const Instance& instance = input_.instance;
  SolveResult result;
  result.instance = instance.name();
  result.jobs = instance.jobs();
  result.machines = instance.machines();
  result.bound = to_string(input_.settings.bound);
  result.branching = to_string(input_.settings.branching);
  result.initial_ub = start_.initial.value;
  result.initial_ub_origin = start_.initial.origin;
  result.has_schedule = !best.permutation.empty();
  result.status = status_of(end.complete, result.has_schedule);
  result.makespan = best.makespan;
  result.permutation = best.permutation;
  result.nodes_decomposed = all.nodes_decomposed;
  result.leaves = all.leaves;
  result.seconds = all.wall_seconds;
  result.run_seconds = run.wall_seconds;
  result.restarts = all.restarts;
  result.steals = run.splits;
  result.engine = end.engine;
  result.threads = end.explorers;
  result.cluster = end.cluster;
  if (!end.complete) result.stopped_because = stop_cause(end, run.decomposed, all.nodes_decomposed);
  write_result(options_.output, format_human(result), to_json(result));
  return exit_code(result.status);
}

}  // namespace permbb::solve
