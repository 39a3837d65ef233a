#include "solve_command.hpp"

#include <fstream>
#include <iostream>

#include <spdlog/spdlog.h>

#include "input_error.hpp"
#include "instance_source.hpp"
#include "engine_factory.hpp"
#include "factoradic_mpz.hpp"
#include "search_driver.hpp"
#include "solve_result.hpp"
#include "upper_bound.hpp"

namespace permbb::app {
namespace {

void write_json(const SolveResult& result, const std::string& path) {
  const std::string text = to_json(result).dump(2) + "\n";
  if (path == "-") {
    std::cout << text << std::flush;
    return;
  }
  std::ofstream out(path);
  if (!out) throw InputError(path + ": cannot open for writing the JSON result");
  out << text;
  if (!out.flush()) throw InputError(path + ": write failed");
}

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

SolveStatus status_of(const SearchOutcome& outcome, const Incumbent& incumbent) {
  if (!outcome.complete) return SolveStatus::kIncomplete;
  return incumbent.has_schedule() ? SolveStatus::kOptimal : SolveStatus::kNoBetterThanUb;
}

}  // namespace

int run_solve(const SolveOptions& options) {
  const Instance instance = load_instance(options.instance);
  const SearchSettings settings{parse_bound_kind(options.bound),
                                parse_branching_rule(options.branching)};
  const InitialUpperBound initial = resolve_upper_bound(options.upper_bound, instance);
  Incumbent incumbent;
  seed_incumbent(initial, incumbent);
  spdlog::info("{}: {} jobs x {} machines, {} + {}, initial UB {} ({})", instance.name(),
               instance.jobs(), instance.machines(), to_string(settings.bound),
               to_string(settings.branching), initial.value, initial.origin);

  ProgressReporter progress(options.progress_seconds, !options.quiet);
  const SearchLimits limits{options.time_limit_seconds, options.node_limit};
  std::string engine_name = "none";
  int explorers = 0;
  SearchOutcome outcome;
  if (instance.jobs() == 1) {
    outcome = solve_single_job(instance, incumbent);
  } else {
    const auto engine = make_engine(options, instance, settings, incumbent);
    engine_name = engine->name();
    explorers = engine->stats().explorers;
    const std::vector<Interval> whole = {Interval{0, factorial(instance.jobs())}};
    outcome = drive_search(*engine, instance, whole, incumbent, limits, progress);
  }

  SolveResult result;
  result.instance = instance.name();
  result.jobs = instance.jobs();
  result.machines = instance.machines();
  result.bound = to_string(settings.bound);
  result.branching = to_string(settings.branching);
  result.initial_ub = initial.value;
  result.initial_ub_origin = initial.origin;
  result.status = status_of(outcome, incumbent);
  result.has_schedule = incumbent.has_schedule();
  result.makespan = incumbent.value();
  result.permutation = incumbent.permutation();
  result.nodes_decomposed = outcome.stats.nodes.decomposed;
  result.leaves = outcome.stats.nodes.leaves;
  result.steals = outcome.stats.steals;
  result.engine = engine_name;
  result.threads = explorers;
  result.seconds = progress.elapsed_seconds();

  if (options.json_path != "-") std::cout << format_human(result) << std::flush;
  if (!options.json_path.empty()) write_json(result, options.json_path);
  return exit_code(result.status);
}

}  // namespace permbb::app
