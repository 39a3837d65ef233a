#include "solve_command.hpp"
#include "bound_choice.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include <spdlog/spdlog.h>

#include "engine_factory.hpp"
#include "instance_source.hpp"
#include "run_checkpoints.hpp"
#include "search_driver.hpp"
#include "solve_output.hpp"

namespace permbb::app {
namespace {

// One job: the only schedule needs no search.
SearchOutcome solve_single_job(const Instance& instance, Incumbent& incumbent) {
  const std::vector<int> only = {0};
  Time total = 0;
  for (int k = 0; k < instance.machines(); ++k) total += instance.time(k, 0);
  incumbent.offer(only, total);
  SearchOutcome outcome;
  outcome.complete = true;
  outcome.stats.nodes.leaves = 1;
  return outcome;
}

std::vector<Interval> all_intervals(const std::vector<WorkUnit>& units) {
  std::vector<Interval> work;
  for (const WorkUnit& unit : units) {
    work.insert(work.end(), unit.intervals().begin(), unit.intervals().end());
  }
  std::sort(work.begin(), work.end(),
            [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
  return work;
}

cluster::Solution best_of(const Incumbent& incumbent) {
  return {incumbent.value(), incumbent.permutation()};
}

RunCounters counters_of(const EngineStats& stats, const ProgressReporter& clock) {
  return {stats.nodes.decomposed, stats.nodes.leaves, clock.elapsed_seconds(), 0, stats.steals};
}

// Between slices: checkpoints when due or asked (SIGUSR1), and a stop on SIGTERM/SIGINT.
BetweenSlices checkpoint_hook(CheckpointKeeper& keeper, SignalWatcher& signals,
                              const Incumbent& incumbent, const ProgressReporter& clock) {
  return [&](SearchEngine& engine, const EngineStats& stats) {
    const bool asked = signals.take_checkpoint_request();
    const bool stop = signals.stop_requested();
    if (stop) spdlog::warn("signal {} ({}): checkpoint and stop", signals.stop_signal(),
                          strsignal(signals.stop_signal()));
    if (keeper.enabled() && (asked || stop || keeper.due())) {
      keeper.write({}, {WorkUnit(1, engine.remaining())}, best_of(incumbent),
                   counters_of(stats, clock));
    }
    return stop;
  };
}

SolveStatus status_of(const SearchOutcome& outcome, const Incumbent& incumbent) {
  if (!outcome.complete) return SolveStatus::kIncomplete;
  return incumbent.has_schedule() ? SolveStatus::kOptimal : SolveStatus::kNoBetterThanUb;
}

}  // namespace

int run_solve(const SolveOptions& options, SignalWatcher& signals) {
  const RunClock run_clock(options.time_limit_seconds, signals);
  check_output_paths(options);
  rank_timeout(options);  // refused alike with and without mpirun
  const Instance instance = load_instance(options.instance);
  const SearchSettings settings{bound_for(options.bound, instance),
                                parse_branching_rule(options.branching)};
  ProgressLog progress_log(options.progress_log_path, run_identity(instance, settings));
  const PathLock checkpoint_lock = claim_checkpoint_path(options.checkpoint_path);
  const StartPoint start = resolve_start(options, instance, settings, run_clock.setup_stop());
  Incumbent incumbent;
  seed_incumbent(start, incumbent);
  spdlog::info("{}: {} jobs x {} machines, {} + {}, initial UB {} ({})", instance.name(),
               instance.jobs(), instance.machines(), to_string(settings.bound),
               to_string(settings.branching), start.initial.value, start.initial.origin);

  ProgressReporter progress(options.progress_seconds, !options.output.quiet, std::move(progress_log));
  progress.begin(progress_start(instance, settings, start, 1,
                                total_length(all_intervals(start.units))));
  CheckpointKeeper keeper(options, instance, settings, start);
  // From the start on, the file holds a usable checkpoint, whatever ends the process.
  keeper.write({},
               start.units.empty() ? std::vector<WorkUnit>{}
                                   : std::vector<WorkUnit>{WorkUnit(1, all_intervals(start.units))},
               best_of(incumbent), {});

  SolveResult result = make_result_header(instance, settings, start.initial);
  SearchOutcome outcome;
  if (start.units.empty()) {
    outcome.complete = true;  // restarted from a finished search: nothing is left to explore
  } else if (instance.jobs() == 1) {
    outcome = solve_single_job(instance, incumbent);
    result.engine = "none";
  } else {
    const auto engine = make_engine(options, instance, settings, incumbent);
    result.engine = engine->name();
    result.threads = engine->stats().explorers;
    const auto hybrid = start_hybridization(options, instance, incumbent, engine->name(), 1, 0);
    BetweenSlices between = checkpoint_hook(keeper, signals, incumbent, progress);
    const SearchLimits limits{run_clock.search_time_limit(), options.node_limit};
    if (hybrid) {
      between = [&hybrid, checkpoints = between](SearchEngine& e, const EngineStats& stats) {
        hybrid->between_slices(e);
        return checkpoints(e, stats);
      };
    }
    outcome = drive_search(*engine, all_intervals(start.units), incumbent, limits,
                           progress, between);
    if (hybrid) finish_hybridization(*hybrid);
  }
  const RunCounters run = counters_of(outcome.stats, progress);
  keeper.write({}, outcome.complete ? std::vector<WorkUnit>{}
                                    : std::vector<WorkUnit>{WorkUnit(1, outcome.remaining)},
               best_of(incumbent), run);
  const CheckpointStatistics all = totals(start.earlier, run, start.restarted);
  progress.finish({outcome.complete, incumbent.value(), run.decomposed,
                   outcome.complete ? mpz_class(0) : total_length(outcome.remaining)});
  result.status = status_of(outcome, incumbent);
  result.has_schedule = incumbent.has_schedule();
  result.makespan = incumbent.value();
  result.permutation = incumbent.permutation();
  result.nodes_decomposed = all.nodes_decomposed;
  result.leaves = all.leaves;
  result.seconds = all.wall_seconds;
  result.run_seconds = run.wall_seconds;
  result.restarts = all.restarts;
  result.steals = outcome.stats.steals;
  return emit_result(result, options);
}

}  // namespace permbb::app
