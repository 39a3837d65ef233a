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
#include "ptas.hpp"

namespace permbb::app {
namespace {

using pcmax::PtasResult;

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

struct DpTotals {
  int tables = 0;  // targets that needed a table
  std::uint64_t entries = 0;
  std::uint64_t largest = 0;
  double seconds = 0;
};

DpTotals totals(const PtasResult& r) {
  DpTotals t;
  for (const auto& table : r.tables) {
    if (table.entries == 0) continue;
    ++t.tables;
    t.entries += table.entries;
    t.largest = std::max(t.largest, table.entries);
    t.seconds += table.report.seconds;
  }
  return t;
}

// (1 + 1/k) T*: an integer, or rounded to two decimals. T* (k + 1) passes 2^63 for the
// largest instances (T* up to 10^18, k up to 1000), so the product is taken in 128 bits and
// the decimals in integers, exact where a double would have no bits left for them.
std::string guarantee_bound(const PtasResult& r) {
  const __int128 scaled = static_cast<__int128>(r.final_target) * (r.k + 1);
  auto whole = static_cast<std::int64_t>(scaled / r.k);  // at most 2 T*
  const auto remainder = static_cast<std::int64_t>(scaled % r.k);
  if (remainder == 0) return std::to_string(whole);
  std::int64_t hundredths = (remainder * 100 + r.k / 2) / r.k;
  if (hundredths == 100) {
    ++whole;
    hundredths = 0;
  }
  char text[64];
  std::snprintf(text, sizeof text, "%lld.%02lld", static_cast<long long>(whole),
                static_cast<long long>(hundredths));
  return text;
}

// "incomplete" as the other commands say it; a finished PTAS run is "complete", not
// "optimal": its schedule is within the guarantee, not proven optimal.
std::string status_name(const PtasResult& r) {
  return r.complete ? "complete" : "incomplete";
}

// The guarantee line: the PTAS's bound, or, for a run stopped early, none but what the
// targets left say: every one below their lower end was found infeasible, hence below OPT.
std::string guarantee_line(double epsilon, const PtasResult& r) {
  std::ostringstream out;
  if (r.complete) {
    out << "makespan < (1 + 1/" << r.k << ") T* = " << guarantee_bound(r)
        << " with T* = " << r.final_target << " <= OPT: within " << 1.0 + 1.0 / r.k
        << " of the optimum (1 + epsilon = " << 1.0 + epsilon << ")";
  } else {
    const pcmax::Duration lower = r.targets_left.lower;
    out << "none: stopped before the bisection ended, targets [" << lower << ", "
        << r.targets_left.upper << "] left; OPT >= " << lower << ", so within "
        << static_cast<double>(r.schedule.makespan) / static_cast<double>(lower)
        << " of the optimum";
  }
  return out.str();
}

std::string format_human(const pcmax::PcmaxInstance& instance, double epsilon,
                         const PtasResult& r) {
  const DpTotals t = totals(r);
  std::ostringstream out;
  out << "instance      " << instance.name << " (" << instance.jobs() << " jobs, "
      << instance.machines << " machines)\n";
  out << "status        " << status_name(r) << (r.complete ? "" : " (time limit)") << "\n";
  out << "epsilon       " << epsilon << " (k = " << r.k << ")\n";
  out << "makespan      " << r.schedule.makespan << "\n";
  out << "lower bound   " << r.lower_bound << " = max(ceil(sum t / m), max t)\n";
  out << "guarantee     " << guarantee_line(epsilon, r) << "\n";
  out << "schedule      machine of job 1.." << instance.jobs() << ":";
  for (const int machine : r.schedule.machine_of_job) out << ' ' << machine + 1;
  out << "\ndp            " << t.tables << " tables of " << r.tables.size() << " targets, "
      << t.entries << " entries (largest " << t.largest << "), " << r.rounds
      << " bisection rounds (split " << r.split << "), ";
  char seconds[64];
  std::snprintf(seconds, sizeof seconds, "%.3f", t.seconds);
  out << seconds << " s on the " << r.engine;
  if (r.engine == "cpu") out << " (" << r.threads << " threads)";
  std::snprintf(seconds, sizeof seconds, "%.3f", r.seconds);
  out << "\nseconds       " << seconds << "\n";
  return out.str();
}

nlohmann::json table_json(const pcmax::TableRecord& table) {
  nlohmann::json j;
  j["target"] = table.target;
  j["round"] = table.round;
  j["long_jobs"] = table.long_jobs;
  j["classes"] = table.classes;
  j["entries"] = table.entries;
  j["configurations"] = table.configurations;
  j["entry_bytes"] = table.entry_bytes;
  j["feasible"] = table.feasible;
  j["machines_needed"] =
      table.machines_needed ? nlohmann::json(*table.machines_needed) : nlohmann::json(nullptr);
  j["seconds"] = table.report.seconds;
  j["device"] = table.report.device;
  j["blocks"] = table.report.blocks;
  j["window"] = table.report.window;
  return j;
}

nlohmann::json to_json(const pcmax::PcmaxInstance& instance, double epsilon, const PtasResult& r) {
  const DpTotals t = totals(r);
  const nlohmann::json none(nullptr);  // what an incomplete run does not have
  nlohmann::json j;
  j["instance"] = instance.name;
  j["jobs"] = instance.jobs();
  j["machines"] = instance.machines;
  j["status"] = status_name(r);
  j["epsilon"] = epsilon;
  j["k"] = r.k;
  j["guarantee"] = r.complete ? nlohmann::json(1.0 + 1.0 / r.k) : none;
  j["guarantee_bound"] =
      r.complete ? nlohmann::json(static_cast<double>(r.final_target) * (r.k + 1) / r.k) : none;
  j["makespan"] = r.schedule.makespan;
  j["lower_bound"] = r.lower_bound;
  j["initial_upper_bound"] = r.initial_upper_bound;
  j["final_target"] = r.complete ? nlohmann::json(r.final_target) : none;
  j["targets_left"] = {r.targets_left.lower, r.targets_left.upper};
  std::vector<int> machine_of_job;
  std::vector<std::vector<int>> jobs_of_machine(static_cast<std::size_t>(instance.machines));
  for (std::size_t job = 0; job < r.schedule.machine_of_job.size(); ++job) {
    const int machine = r.schedule.machine_of_job[job];
    machine_of_job.push_back(machine + 1);
    jobs_of_machine[machine].push_back(static_cast<int>(job) + 1);
  }
  j["machine_of_job"] = machine_of_job;
  j["jobs_of_machine"] = jobs_of_machine;
  j["loads"] = r.schedule.loads;
  j["engine"] = r.engine;
  j["threads"] = r.threads;
  j["split"] = r.split;
  nlohmann::json dp;
  dp["tables"] = t.tables;
  dp["targets"] = r.tables.size();
  dp["entries"] = t.entries;
  dp["largest_table"] = t.largest;
  dp["bisection_rounds"] = r.rounds;
  dp["seconds"] = t.seconds;
  dp["per_table"] = nlohmann::json::array();
  for (const auto& table : r.tables) dp["per_table"].push_back(table_json(table));
  j["dp"] = dp;
  j["seconds"] = r.seconds;
  return j;
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

// The PTAS, watched by two ProgressTicker threads: the time limit's, whose first tick comes at
// the limit and asks for the stop, and the progress lines' (none with --quiet).
PtasResult solve_watched(const PcmaxCommandOptions& options, const pcmax::PcmaxInstance& instance,
                         const pcmax::PtasOptions& ptas, pcmax::TableFiller& filler,
                         pcmax::RunControl& control) {
  const ProgressTicker timer(options.time_limit_seconds,
                             [&](double) { control.request_stop(); });
  const ProgressTicker progress(options.output.quiet ? 0 : options.progress_seconds,
                                [&](double seconds) { log_ptas_progress(seconds, control.status()); });
  return pcmax::solve_pcmax(instance, ptas, filler);
}

}  // namespace

void add_pcmax_options(CLI::App& command, PcmaxCommandOptions& options) {
  auto* file = command.add_option("file", options.instance_file,
                                  "instance file: 'n m', then the n processing times");
  auto* generate = command.add_option(
      "--generate", options.generate,
      "generated instance: uniform,n,m,lo,hi,seed or pareto,n,m,lo,hi,alpha,seed");
  file->excludes(generate);
  command
      .add_option("--epsilon", options.epsilon,
                  "relative error: makespan <= (1 + 1/k) OPT with k = ceil(1/epsilon)")
      ->required()
      ->check(number_in_range(pcmax::kMinEpsilon, 1e9));
  add_gpu_choice(command, options.gpu, "DP tables on the GPU (an error without one)",
                 "DP tables on the CPU (default: the GPU when there is one and the run's "
                 "largest table is large enough for it to pay; docs/pcmax.md)");
  add_threads_option(command, options.threads, 0, "CPU threads (0: all hardware threads)");
  command
      .add_option("--split", options.split,
                  "bisection interval parts per round: 2 (one target), 4 (quarter split, 3 "
                  "targets at once), 8 (7 targets); the same result (default: 4 on the GPU, 2 "
                  "on the CPU)")
      ->check(CLI::IsMember({0, 2, 4, 8}));
  command
      .add_option("--memory-limit", options.memory_limit_gib,
                  "GiB of host memory for the DP tables held at once (default: 3/4 of RAM)")
      ->check(number_in_range(0.0, 1e9));
  command
      .add_option("--gpu-memory-limit", options.gpu_memory_limit_mib,
                  "MiB of device memory for the tables of one round (default: the free memory); "
                  "smaller tables are partitioned")
      ->check(number_in_range(0.0, 1e12));
  add_time_limit_option(command, options.time_limit_seconds,
                        "stop the PTAS after this many seconds (0: none); the result is then "
                        "incomplete (exit 3): the best schedule found, without the guarantee");
  add_progress_option(command, options.progress_seconds);
  add_output_options(command, options.output);
}

int run_pcmax_command(const PcmaxCommandOptions& options) {
  const pcmax::PcmaxInstance instance = load(options);
  const EngineChoice engine = choose_engine(options, instance);
  const auto filler = make_filler(options, engine.gpu);
  pcmax::PtasOptions ptas;
  ptas.epsilon = options.epsilon;
  ptas.epsilon_text = epsilon_text(options.epsilon);
  ptas.split = options.split != 0 ? options.split : (engine.gpu ? 4 : 2);
  ptas.memory_limit_bytes = limit_bytes(options.memory_limit_gib, 1 << 30);
  spdlog::info("pcmax: {} ({} jobs, {} machines), epsilon {}, DP on the {}", instance.name,
               instance.jobs(), instance.machines, ptas.epsilon_text, filler->name());
  if (engine.mode == "auto") {
    spdlog::info("pcmax: the table at T = LB has {} entries; the GPU is chosen from {}",
                 engine.entries_at_lower_bound, pcmax::kGpuPaysFromEntries);
  }
  pcmax::RunControl control;
  ptas.control = &control;
  const PtasResult result = solve_watched(options, instance, ptas, *filler, control);
  nlohmann::json json = to_json(instance, options.epsilon, result);
  json["engine_choice"] = engine.mode;
  if (engine.mode == "auto") json["table_entries_at_lower_bound"] = engine.entries_at_lower_bound;
  json["time_limit"] = options.time_limit_seconds;
  write_result(options.output, format_human(instance, options.epsilon, result), json);
  return result.complete ? 0 : 3;
}

}  // namespace permbb::app
