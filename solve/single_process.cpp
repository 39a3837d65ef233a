#include "single_process.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include <spdlog/spdlog.h>

#include "cpu_cores.hpp"
#include "engine_factory.hpp"
#include "input_error.hpp"
#include "run_checkpoints.hpp"
#include "search_driver.hpp"

namespace permbb::solve {
namespace {

std::vector<Interval> all_intervals(const std::vector<WorkUnit>& units) {
  std::vector<Interval> work;
  for (const WorkUnit& unit : units) {
    work.insert(work.end(), unit.intervals().begin(), unit.intervals().end());
  }
  std::sort(work.begin(), work.end(),
            [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
  return work;
}

Schedule best_of(const Incumbent& incumbent) {
  return {incumbent.permutation(), incumbent.value()};
}

RunCounters counters_of(const EngineStats& stats, const ProgressReporter& clock) {
  return {stats.nodes.decomposed, stats.nodes.leaves, clock.elapsed_seconds(), 0, stats.steals};
}

// A single process keeps all its work in one unit.
std::vector<WorkUnit> one_unit(std::vector<Interval> intervals) {
  return {WorkUnit(1, std::move(intervals))};
}

// Takes the engine's committed records into the chain's cut (paused engines only).
void collect_into(SearchEngine& engine, std::optional<SearchCut>& cut) {
  if (cut && !engine.collect_cut(*cut)) {
    throw InputError("--certificate: the " + engine.name() + " engine records no cut");
  }
}

// Between slices: checkpoints when due or asked (SIGUSR1), and a stop on SIGTERM/SIGINT.
BetweenSlices checkpoint_hook(Run& run, SignalWatcher& signals, const Incumbent& incumbent,
                              std::optional<SearchCut>& cut) {
  return [&](SearchEngine& engine, const EngineStats& stats) {
    const bool asked = signals.take_checkpoint_request();
    const bool stop = signals.stop_requested();
    if (stop)
      spdlog::warn("signal {} ({}): checkpoint and stop", signals.stop_signal(),
                   strsignal(signals.stop_signal()));
    CheckpointKeeper& keeper = run.checkpoints();
    if (keeper.enabled() && (asked || stop || keeper.due())) {
      collect_into(engine, cut);
      keeper.write({{},
                    one_unit(engine.remaining()),
                    best_of(incumbent),
                    counters_of(stats, run.progress()),
                    snapshot_of(cut)});
    }
    return stop;
  };
}

// The search proper, once the run has begun: an engine over the start's intervals, with the
// heuristic threads beside it (2022 §4.2.3) when they resolve to any.
SearchOutcome search(const SolveOptions& options, const SolveInput& input, Run& run,
                     SignalWatcher& signals, Incumbent& incumbent, RunEnd& end,
                     std::optional<SearchCut>& cut) {
  const auto engine = make_engine(options, input.instance, input.settings, incumbent);
  end.engine = engine->name();
  end.explorers = engine->stats().explorers;
  const auto hybrid = start_hybridization(options, input.instance, incumbent, engine->name(),
                                          cores_available(), 0);
  BetweenSlices between = checkpoint_hook(run, signals, incumbent, cut);
  if (hybrid) {
    between = [&hybrid, checkpoints = between](SearchEngine& e, const EngineStats& stats) {
      hybrid->between_slices(e);
      return checkpoints(e, stats);
    };
  }
  const SearchLimits limits{run.clock().search_time_limit(), options.node_limit};
  SearchOutcome outcome = drive_search(*engine, all_intervals(run.start().units), incumbent, limits,
                                       run.progress(), between);
  if (hybrid) finish_hybridization(*hybrid);
  if (cut) {
    // The last records; the counts are read again after them (a test's injected fault may
    // add to them).
    collect_into(*engine, cut);
    outcome.stats = engine->stats();
  }
  return outcome;
}

}  // namespace

int solve_in_one_process(const SolveOptions& options, const SolveInput& input,
                         const RunClock& clock, SignalWatcher& signals) {
  Run run(options, input, clock);
  const StartPoint& start = run.start();
  Incumbent incumbent;
  seed_incumbent(start, incumbent);
  const std::vector<Interval> work = all_intervals(start.units);
  // --certificate: the cut records of the whole chain so far, the earlier links' (from the
  // checkpoint) and this run's, taken from the engine at each checkpoint and at the end, so
  // that each record goes with the counts of the checkpoint that carries it.
  std::optional<SearchCut> cut = search_cut_of(start.cut);
  run.begin(1, total_length(work),
            {{},
             start.units.empty() ? std::vector<WorkUnit>{} : one_unit(work),
             best_of(incumbent),
             {},
             snapshot_of(cut)});

  RunEnd end;
  SearchOutcome outcome;
  if (start.units.empty()) {
    outcome.complete = true;  // restarted from a finished search: nothing is left to explore
  } else {
    outcome = search(options, input, run, signals, incumbent, end, cut);
  }
  end.complete = outcome.complete;
  end.state = {{},
               outcome.complete ? std::vector<WorkUnit>{} : one_unit(outcome.remaining),
               best_of(incumbent),
               counters_of(outcome.stats, run.progress()),
               snapshot_of(cut)};
  end.remaining = outcome.complete ? mpz_class(0) : total_length(outcome.remaining);
  return run.finish(end);
}

}  // namespace permbb::solve
