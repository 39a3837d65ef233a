#include "ptas.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include <spdlog/spdlog.h>

#include "bisection.hpp"
#include "input_error.hpp"
#include "job_rounding.hpp"
#include "memory_budget.hpp"

namespace permbb::pcmax {
namespace {

int levels_of_split(int split) {
  switch (split) {
    case 2:
      return 1;
    case 4:
      return 2;
    case 8:
      return 3;
    default:
      throw InputError("--split " + std::to_string(split) + ": must be 2, 4 or 8");
  }
}

std::string epsilon_text(const PtasOptions& options) {
  if (!options.epsilon_text.empty()) return options.epsilon_text;
  std::ostringstream out;
  out << options.epsilon;
  return out.str();
}

void log_round(int round, const std::vector<Duration>& targets, const std::vector<bool>& answers,
               const std::vector<TableRecord>& records) {
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const TableRecord& r = records[records.size() - targets.size() + i];
    spdlog::info("round {}: T = {} {} ({} long jobs, {} classes, {} table entries, {:.3f} s {})",
                 round, targets[i], answers[i] ? "feasible" : "infeasible", r.long_jobs, r.classes,
                 r.entries, r.report.seconds, r.report.device);
    if (!r.report.note.empty()) spdlog::warn("T = {}: {}", targets[i], r.report.note);
  }
}

// makespan < (1 + 1/k) T, in integers: k * makespan < (k + 1) * T.
void check_guarantee(const PcmaxSchedule& schedule, Duration target, int k) {
  if (static_cast<__int128>(schedule.makespan) * k >= static_cast<__int128>(target) * (k + 1)) {
    throw std::logic_error("PTAS guarantee violated: makespan " +
                           std::to_string(schedule.makespan) + " at T = " + std::to_string(target) +
                           ", k = " + std::to_string(k));
  }
}

// Everything known before the search: k, the bounds, the engine.
PtasResult start_result(const PcmaxInstance& instance, const PtasOptions& options,
                        const TableFiller& filler) {
  PtasResult result;
  result.k = options.k > 0 ? options.k : k_for_epsilon(options.epsilon);
  result.split = options.split;
  result.engine = filler.name();
  result.threads = filler.threads();
  const Duration total = std::accumulate(instance.times.begin(), instance.times.end(), Duration{0});
  const Duration longest = *std::max_element(instance.times.begin(), instance.times.end());
  result.lower_bound = simple_lower_bound(instance);
  result.initial_upper_bound = (total + instance.machines - 1) / instance.machines + longest;
  return result;
}

EvaluatorSettings evaluator_settings(int k, const PtasOptions& options) {
  EvaluatorSettings settings;
  settings.k = k;
  settings.memory_limit_bytes =
      options.memory_limit_bytes != 0 ? options.memory_limit_bytes : default_table_memory_limit();
  settings.max_configurations = options.max_configurations;
  settings.epsilon_text = epsilon_text(options);
  return settings;
}

// The best schedule so far, LPT's at first: replaced by a held target's when that is shorter.
void keep_better(PcmaxSchedule& best, const TargetEvaluator& evaluator, RunControl& control) {
  const PcmaxSchedule* held = evaluator.best_schedule();
  if (held == nullptr || held->makespan >= best.makespan) return;
  best = *held;
  control.set_best_makespan(best.makespan);
}

// The initial UB is never a midpoint: evaluated here when the search ends on it.
void evaluate_final_target(Duration target, const TargetEvaluator& evaluator,
                           const BatchOracle& oracle) {
  for (const auto& r : evaluator.records()) {
    if (r.target == target) return;
  }
  if (!oracle({target})[0]) {
    throw std::logic_error("PTAS: the upper bound " + std::to_string(target) +
                           " was found infeasible");
  }
}

}  // namespace

int k_for_epsilon(double epsilon) {
  if (!std::isfinite(epsilon) || epsilon < kMinEpsilon) {
    std::ostringstream out;
    out << "--epsilon " << epsilon << ": must be a number >= " << kMinEpsilon;
    throw InputError(out.str());
  }
  if (epsilon >= 1) return 1;
  int k = static_cast<int>(std::ceil(1.0 / epsilon));
  while (k * epsilon < 1) ++k;
  while (k > 1 && (k - 1) * epsilon >= 1) --k;
  return k;
}

PtasResult solve_pcmax(const PcmaxInstance& instance, const PtasOptions& options,
                       TableFiller& filler) {
  validate_instance(instance, instance.name);
  const auto start = std::chrono::steady_clock::now();
  PtasResult result = start_result(instance, options, filler);
  const int levels = levels_of_split(options.split);
  RunControl no_control;  // nobody stops it, nobody watches
  RunControl& control = options.control != nullptr ? *options.control : no_control;
  // The targets are evaluated without the idle machines (pcmax_instance.hpp): without this,
  // each target's schedule would cost O(m) time and memory, seconds and gigabytes for two
  // jobs on 10^7 machines.
  const PcmaxInstance evaluated = without_idle_machines(instance);
  // First, so that a stop at any time has a schedule to return.
  PcmaxSchedule best = build_lpt_schedule(evaluated);
  control.set_best_makespan(best.makespan);
  result.targets_left = {result.lower_bound, result.initial_upper_bound};
  control.set_interval(result.lower_bound, result.initial_upper_bound);

  TargetEvaluator evaluator(evaluated, evaluator_settings(result.k, options), filler, &control);
  int round = 0;
  auto oracle = [&](const std::vector<Duration>& targets) {
    control.throw_if_stopped();
    ++round;
    control.start_round(round, targets);
    const auto answers = evaluator.evaluate(targets, round);
    log_round(round, targets, answers, evaluator.records());
    keep_better(best, evaluator, control);
    return answers;
  };
  // Only the upper end of the interval can still be the final target: the other schedules
  // go, so that at most one round's are held at once.
  auto narrowed = [&](Duration lower, Duration upper) {
    result.targets_left = {lower, upper};
    control.set_interval(lower, upper);
    evaluator.keep_only_schedule(upper);
  };
  try {
    const BisectionResult bisection =
        run_bisection(result.lower_bound, result.initial_upper_bound, levels, oracle, narrowed);
    evaluate_final_target(bisection.target, evaluator, oracle);
    result.final_target = bisection.target;
    result.schedule = evaluator.schedule(result.final_target);
  } catch (const RunStopped&) {
    keep_better(best, evaluator, control);  // targets finished in the round that stopped
    result.complete = false;
    result.schedule = std::move(best);
    spdlog::info("stopped after {} rounds begun, targets [{}, {}] left", round,
                 result.targets_left.lower, result.targets_left.upper);
  }
  result.rounds = round;
  result.tables = evaluator.records();
  result.schedule.loads.resize(static_cast<std::size_t>(instance.machines), 0);  // the idle ones
  if (result.complete) check_guarantee(result.schedule, result.final_target, result.k);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace permbb::pcmax
