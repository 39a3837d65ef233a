#include "pcmax_command.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "cli_numbers.hpp"
#include "shared_options.hpp"
#include "cpu_dp.hpp"
#include "engine_choice.hpp"
#include "gpu_devices.hpp"
#include "gpu_table_filler.hpp"
#include "input_error.hpp"
#include "instance_generator.hpp"
#include "pcmax_instance.hpp"
#include "progress_ticker.hpp"
#include "pcmax_command_output.hpp"
#include "pcmax_solver.hpp"
#include "ptas.hpp"

namespace permbb::app {
namespace {


pcmax::PcmaxInstance load(const PcmaxCommandOptions& options) {
  if (options.instance_file.empty() == options.generate.empty()) {
    throw InputError("pcmax: give an instance FILE or --generate SPEC (exactly one)");
  }
  if (!options.generate.empty()) {
    return pcmax::generate_instance(pcmax::parse_generator_spec(options.generate));
  }
  return pcmax::read_instance_file(options.instance_file);
}

// The engine of the run, and why: forced by --gpu / --no-gpu, or chosen by the size of the
// largest table (engine_choice.hpp), which is estimated before CUDA is touched, so small runs
// never pay for a CUDA context.
struct EngineChoice {
  bool gpu = false;
  std::string mode;                         // "gpu", "cpu" (forced) or "auto"
  std::uint64_t entries_at_lower_bound = 0;  // "auto" only
};

EngineChoice choose_engine(const PcmaxCommandOptions& options,
                           const pcmax::PcmaxInstance& instance) {
  if (options.gpu == "off") return {false, "cpu", 0};
  const bool built = gpu::built_with_cuda();
  if (options.gpu == "on") {
    if (!built || gpu::list_devices().empty()) {
      throw InputError(built ? "--gpu: no CUDA device is visible"
                             : "--gpu: this permbb was built without CUDA");
    }
    return {true, "gpu", 0};
  }
  EngineChoice choice{false, "auto", 0};
  choice.entries_at_lower_bound =
      pcmax::table_entries_at_lower_bound(instance, pcmax::k_for_epsilon(options.epsilon));
  choice.gpu = built && pcmax::gpu_pays_for(choice.entries_at_lower_bound) &&
               !gpu::list_devices().empty();
  return choice;
}

// A memory limit given in units of `unit_bytes` (0: the default), in bytes, rounded up: a
// positive limit below one byte is 1 byte, not 0, which would mean the default.
std::uint64_t limit_bytes(double units, std::uint64_t unit_bytes) {
  return static_cast<std::uint64_t>(std::ceil(units * static_cast<double>(unit_bytes)));
}

std::unique_ptr<pcmax::TableFiller> make_filler(const PcmaxCommandOptions& options, bool gpu) {
  if (!gpu) return std::make_unique<pcmax::CpuTableFiller>(options.threads);
  pcmax::gpu::GpuFillerOptions gpu_options;
  gpu_options.memory_limit_bytes = limit_bytes(options.gpu_memory_limit_mib, 1 << 20);
  gpu_options.fallback_threads = options.threads;
  return pcmax::gpu::make_gpu_table_filler(gpu_options);
}

std::string epsilon_text(double epsilon) {
  std::ostringstream out;
  out << epsilon;
  return out.str();
}

void log_ptas_progress(double seconds, const pcmax::RunStatus& s) {
  if (s.round == 0) {
    spdlog::info("progress {:.1f} s | before the first round", seconds);
    return;
  }
  std::string targets;
  for (const pcmax::Duration target : s.targets) {
    targets += (targets.empty() ? "" : ", ") + std::to_string(target);
  }
  spdlog::info(
      "progress {:.1f} s | round {}: T = {} | targets left [{}, {}] | best makespan {} "
      "| DP {} of {} states",
      seconds, s.round, targets, s.lower, s.upper, s.best_makespan, s.states_done, s.round_states);
}

// The --help group of the options only the PTAS reads (none of them applies to --exact alone).
constexpr const char* kPtasGroup = "PTAS (--epsilon)";

// How often a run looks for a stop signal: well within the second a stop may take.
constexpr double kSignalPollSeconds = 0.1;

// The run, watched by three ProgressTicker threads: the time limit's, whose first tick comes
// at the limit and asks for the stop, the stop signals' (the same stop), and the progress
// lines' (none with --quiet).
pcmax::SolverResult solve_watched(const PcmaxCommandOptions& options,
                                  const pcmax::PcmaxInstance& instance,
                                  const pcmax::SolverOptions& solver, pcmax::TableFiller& filler,
                                  pcmax::RunControl& control, const solve::SignalWatcher& signals) {
  const ProgressTicker timer(options.time_limit_seconds,
                             [&](double) { control.request_stop(); });
  const ProgressTicker signal_poll(kSignalPollSeconds, [&](double) {
    if (signals.stop_requested()) control.request_stop();
  });
  const ProgressTicker progress(options.output.quiet ? 0 : options.progress_seconds,
                                [&](double seconds) { log_ptas_progress(seconds, control.status()); });
  return pcmax::solve_instance(instance, solver, filler);
}

}  // namespace

void add_pcmax_options(CLI::App& command, PcmaxCommandOptions& options) {
  options.command = &command;
  auto* file = command.add_option("file", options.instance_file,
                                  "instance file: 'n m', then the n processing times");
  auto* generate = command.add_option(
      "--generate", options.generate,
      "generated instance: uniform,n,m,lo,hi,seed or pareto,n,m,lo,hi,alpha,seed");
  file->excludes(generate);
  command
      .add_option("--epsilon", options.epsilon,
                  "the PTAS's relative error: makespan <= (1 + 1/k) OPT with k = ceil(1/epsilon) "
                  "(required unless --exact)")
      ->check(number_in_range(pcmax::kMinEpsilon, 1e9));
  command.add_flag("--exact", options.exact,
                   "prove the optimum: bisection over the target between the best lower bound "
                   "and the best schedule, each decided by an exact bin-packing search; with "
                   "--time-limit, an unfinished proof is incomplete (exit 3) with its bounds");
  add_gpu_choice(command, options.gpu, "DP tables on the GPU (an error without one)",
                 "DP tables on the CPU (default: the GPU when there is one and the run's "
                 "largest table is large enough for it to pay; docs/pcmax.md)");
  add_threads_option(command, options.threads, 0, "CPU threads (0: all hardware threads)");
  command
      .add_option("--split", options.split,
                  "bisection interval parts per round: 2 (one target), 4 (quarter split, 3 "
                  "targets at once), 8 (7 targets); the same result (default: 4 on the GPU, 2 "
                  "on the CPU)")
      ->check(CLI::IsMember({0, 2, 4, 8}))
      ->group(kPtasGroup);
  command
      .add_option("--memory-limit", options.memory_limit_gib,
                  "GiB of host memory for the DP tables held at once (default: 3/4 of RAM)")
      ->check(number_in_range(0.0, 1e9))
      ->group(kPtasGroup);
  command
      .add_option("--gpu-memory-limit", options.gpu_memory_limit_mib,
                  "MiB of device memory for the tables of one round (default: the free memory); "
                  "smaller tables are partitioned")
      ->check(number_in_range(0.0, 1e12))
      ->group(kPtasGroup);
  add_time_limit_option(command, options.time_limit_seconds,
                        "stop after this many seconds (0: none); the result is then incomplete "
                        "(exit 3): the best schedule found, with its lower bounds");
  add_progress_option(command, options.progress_seconds);
  add_output_options(command, options.output);
}

int run_pcmax_command(const PcmaxCommandOptions& options, const solve::SignalWatcher& signals) {
  const bool with_ptas = options.epsilon != 0;
  if (!with_ptas && !options.exact) {
    throw InputError("pcmax: give --epsilon E (the PTAS), --exact, or both");
  }
  if (!with_ptas && options.command != nullptr) {
    warn_options_of_unused_group(*options.command, kPtasGroup,
                                 "only the PTAS (--epsilon) uses it, not --exact alone");
  }
  const pcmax::PcmaxInstance instance = load(options);
  const EngineChoice engine =
      with_ptas ? choose_engine(options, instance) : EngineChoice{false, "cpu", 0};
  const auto filler = make_filler(options, engine.gpu);
  pcmax::RunControl control;
  pcmax::SolverOptions solver;
  solver.exact = options.exact;
  solver.control = &control;
  if (with_ptas) {
    pcmax::PtasOptions ptas;
    ptas.epsilon = options.epsilon;
    ptas.epsilon_text = epsilon_text(options.epsilon);
    ptas.split = options.split != 0 ? options.split : (engine.gpu ? 4 : 2);
    ptas.memory_limit_bytes = limit_bytes(options.memory_limit_gib, 1 << 30);
    solver.ptas = ptas;
    spdlog::info("pcmax: {} ({} jobs, {} machines), epsilon {}, DP on the {}", instance.name,
                 instance.jobs(), instance.machines, ptas.epsilon_text, filler->name());
  }
  if (engine.mode == "auto") {
    spdlog::info("pcmax: the table at T = LB has {} entries; the GPU is chosen from {}",
                 engine.entries_at_lower_bound, pcmax::kGpuPaysFromEntries);
  }
  pcmax::SolverResult result = solve_watched(options, instance, solver, *filler, control, signals);
  PcmaxRunFacts facts;
  if (with_ptas) facts.epsilon = options.epsilon;
  facts.engine = filler->name();
  facts.threads = filler->threads();
  facts.time_limit_seconds = options.time_limit_seconds;
  if (signals.stop_requested()) {
    facts.stopped_because = signals.stop_reason();
    if (result.exact && !result.exact->proven)
      result.exact->stopped_because = facts.stopped_because;
  }
  nlohmann::json json = pcmax_json(instance, facts, result);
  json["engine_choice"] = engine.mode;
  if (engine.mode == "auto") json["table_entries_at_lower_bound"] = engine.entries_at_lower_bound;
  write_result(options.output, format_pcmax_text(instance, facts, result), json);
  return result.complete ? 0 : kExitIncomplete;
}

}  // namespace permbb::app
