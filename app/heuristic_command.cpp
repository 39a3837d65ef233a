#include "heuristic_command.hpp"

#include <atomic>
#include <chrono>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "cli_numbers.hpp"
#include "cpu_cores.hpp"
#include "heuristic_method.hpp"
#include "input_error.hpp"
#include "instance_source.hpp"
#include "progress_ticker.hpp"
#include "shared_options.hpp"
#include "taillard.hpp"

namespace permbb::app {
namespace {

// The best-known makespan when the instance is a Taillard instance (taillard::identify).
std::optional<Time> best_known(const Instance& instance) {
  const auto index = taillard::identify(instance);
  if (!index) return std::nullopt;
  return taillard::best_known_makespan(*index);
}

struct HeuristicReport {
  std::string instance;
  int jobs = 0;
  int machines = 0;
  std::string method;
  Schedule schedule;
  double seconds = 0;
  std::uint64_t iterations = 0;  // ILS iterations of all threads
  std::optional<Time> best_known;
  std::string stopped_because;  // a signal's ("stopped by SIGTERM"), "" when it ran its limits
  int threads = 1;

  std::optional<double> deviation_percent() const {
    if (!best_known) return std::nullopt;
    return 100.0 * static_cast<double>(schedule.makespan - *best_known) / *best_known;
  }
};

void log_heuristic_progress(double seconds, const Incumbent& best, const HeuristicReport& r) {
  const Time makespan = best.value();
  if (makespan == kInfiniteTime) {
    spdlog::info("progress {:.1f} s | no schedule yet", seconds);
  } else if (r.best_known) {
    spdlog::info("progress {:.1f} s | best {} ({:+.2f}% from the best known {})", seconds,
                 makespan, 100.0 * static_cast<double>(makespan - *r.best_known) / *r.best_known,
                 *r.best_known);
  } else {
    spdlog::info("progress {:.1f} s | best {}", seconds, makespan);
  }
}

std::string format_human(const HeuristicReport& r) {
  std::ostringstream out;
  out << "instance      " << r.instance << " (" << r.jobs << " jobs x " << r.machines
      << " machines)\n";
  out << "method        " << r.method << "\n";
  out << "status        "
      << (r.stopped_because.empty() ? "complete" : "incomplete (" + r.stopped_because + ")")
      << "\n";
  out << "makespan      " << r.schedule.makespan;
  if (r.best_known) {
    out.setf(std::ios::fixed);
    out.precision(2);
    out << " (best known " << *r.best_known << ", " << (*r.deviation_percent() >= 0 ? "+" : "")
        << *r.deviation_percent() << "%)";
  }
  out << "\npermutation  ";
  for (const int job : one_based(r.schedule.permutation)) out << ' ' << job;
  out.setf(std::ios::fixed);
  out.precision(3);
  out << "\nseconds       " << r.seconds << "\n";
  return out.str();
}

// The ILS copies that run the gap-guided beam instead (--beam-copies, 0 or 1 when given). By
// default one from 4 threads on: with 16 copies on ta081-ta090 it took the mean deviation at
// t = 30 from 0.880 % (one core) to 0.521 %, finding ta083's and ta084's optima, which no
// iterated greedy run reached (docs/performance.md).
int resolve_beam_copies(const HeuristicCommandOptions& options, int threads) {
  if (options.beam_copies < 0) return threads >= 4 ? 1 : 0;
  return options.beam_copies;
}

nlohmann::json iterated_greedy_json(const HeuristicCommandOptions& options, int threads) {
  const IteratedGreedyOptions& ig = options.iterated_greedy;
  return {{"destruction", ig.destruction_size},
          {"temperature", ig.temperature_factor},
          {"k", ig.local_search.k_max},
          {"ties", options.ig_ties},
          {"sideways", ig.local_search.sideways},
          {"ls_passes", ig.local_search.max_passes},
          {"partial_local_search", ig.partial_local_search},
          {"prefer_slack", ig.prefer_slack},
          {"restart", ig.restart_after},
          {"restart_destruction", ig.restart_destruction},
          {"restart_elite", ig.restart_elite},
          {"restart_relink", ig.restart_relink},
          {"adopt_after", ig.adopt_after},
          {"beam_copies", resolve_beam_copies(options, threads)}};
}

nlohmann::json to_json(const HeuristicReport& r, const HeuristicCommandOptions& options) {
  nlohmann::json j;
  j["instance"] = r.instance;
  j["jobs"] = r.jobs;
  j["machines"] = r.machines;
  j["method"] = r.method;
  j["seed"] = options.seed;
  j["threads"] = r.threads;
  j["status"] = r.stopped_because.empty() ? "complete" : "incomplete";
  j["stopped_because"] =
      r.stopped_because.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.stopped_because);
  j["time_limit"] = options.time_limit_seconds;
  j["cpu_time"] = options.cpu_time;
  j["iteration_limit"] = options.iteration_limit;
  if (r.method == "ils") j["iterated_greedy"] = iterated_greedy_json(options, r.threads);
  if (r.method == "beam") j["beam_guide"] = options.beam_guide;
  j["makespan"] = r.schedule.makespan;
  j["permutation"] = one_based(r.schedule.permutation);
  j["seconds"] = r.seconds;
  if (r.method == "ils") {
    j["iterations"] = r.iterations;
    j["iterations_per_second"] = r.seconds > 0 ? static_cast<double>(r.iterations) / r.seconds : 0.0;
  }
  j["best_known"] = r.best_known ? nlohmann::json(*r.best_known) : nlohmann::json(nullptr);
  const auto deviation = r.deviation_percent();
  j["deviation_percent"] = deviation ? nlohmann::json(*deviation) : nlohmann::json(nullptr);
  return j;
}

// The --ig-* options: the settings of the iterated greedy (iterated_greedy.hpp), for users
// who tune it on their instances and for bench/heuristics.py.
void add_iterated_greedy_options(CLI::App& command, HeuristicCommandOptions& options) {
  const std::string group = method_group("Iterated greedy", "ils");
  IteratedGreedyOptions& ig = options.iterated_greedy;
  command.add_option("--ig-destruction", ig.destruction_size, "jobs removed per iteration (d)")
      ->check(number_at_least(1))
      ->capture_default_str()
      ->group(group);
  command
      .add_option("--ig-temperature", ig.temperature_factor,
                  "acceptance temperature factor T: T * sum(p) / (n m 10)")
      ->check(number_at_least(0.0))
      ->capture_default_str()
      ->group(group);
  command.add_option("--ig-k", ig.local_search.k_max,
                     "longest k-insert chain of the local search (0: floor(sqrt(n)))")
      ->check(number_at_least(0))
      ->capture_default_str()
      ->group(group);
  options.ig_ties = to_string(ig.local_search.ties);
  command.add_option("--ig-ties", options.ig_ties,
                     "position among equally good ones: " + joined_names(insertion_ties_names()))
      ->check(CLI::IsMember(insertion_ties_names()))
      ->capture_default_str()
      ->group(group);
  add_on_off_flag(command, "--ig-sideways", "--ig-no-sideways", ig.local_search.sideways,
                  "local search also moves a job to an equally good position (default: on)", group);
  command.add_option("--ig-ls-passes", ig.local_search.max_passes,
                     "most passes of each local search (0: until a pass does not improve)")
      ->check(number_at_least(0))
      ->capture_default_str()
      ->group(group);
  command.add_option("--ig-adopt-after", ig.adopt_after,
                     "with --threads N: a copy goes on from the copies' best schedule after "
                     "this many iterations without a new best of its own (0: never)")
      ->check(number_at_least(std::uint64_t{0}))
      ->capture_default_str()
      ->group(group);
  add_on_off_flag(command, "--ig-prefer-slack", "--ig-no-prefer-slack", ig.prefer_slack,
                  "among equal makespans, prefer machines that finish earlier in sum "
                  "(default: on)",
                  group);
  add_on_off_flag(command, "--ig-partial-ls", "--ig-no-partial-ls", ig.partial_local_search,
                  "local search on the partial schedule after each destruction (default: on)",
                  group);
  command
      .add_option("--ig-restart", ig.restart_after,
                  "restart from an elite schedule after this many iterations without a new "
                  "best (0: never)")
      ->check(number_at_least(std::uint64_t{0}))
      ->capture_default_str()
      ->group(group);
  command
      .add_option("--ig-restart-destruction", ig.restart_destruction,
                  "jobs removed from the elite schedule at a restart")
      ->check(number_at_least(1))
      ->capture_default_str()
      ->group(group);
  command
      .add_option("--ig-restart-elite", ig.restart_elite,
                  "distinct best schedules kept to restart from")
      ->check(number_at_least(1))
      ->capture_default_str()
      ->group(group);
  add_on_off_flag(command, "--ig-restart-relink", "--ig-no-restart-relink", ig.restart_relink,
                  "a restart walks from the current schedule toward the elite one and goes on "
                  "from the best schedule on the way (path relinking; default: off)",
                  group);
}

}  // namespace

void add_heuristic_options(CLI::App& command, HeuristicCommandOptions& options) {
  options.command = &command;
  command
      .add_option("instance", options.instance,
                  "Taillard name (ta001..ta120) or instance file (plain or VRF format)")
      ->required();
  command.add_option("--method", options.method, "heuristic: " + joined_names(heuristic_method_names()))
      ->check(CLI::IsMember(heuristic_method_names()))
      ->capture_default_str();
  add_time_limit_option(command, options.time_limit_seconds,
                        "seconds of search, per thread (0: none; then --iterations is needed)");
  command.get_option("--time-limit")->capture_default_str();
  command
      .add_flag("--cpu-time", options.cpu_time,
                "ils: the time limit counts each search thread's CPU time, not the wall "
                "clock (benchmarks on a shared machine)")
      ->group(method_group("Iterated greedy", "ils"));
  command.add_option("--iterations", options.iteration_limit,
                     "ILS iterations, beam passes or branch-and-bound nodes (0: none); with no "
                     "time limit and one thread the result depends only on the seed")
      ->check(number_at_least(std::uint64_t{0}));
  add_threads_option(command, options.threads, 0,
                     "independent copies (seeds seed, seed+1, ...) of ils or beam; best kept "
                     "(0: one per core the process may use)");
  command.add_option("--seed", options.seed, "random seed")
      ->check(number_at_least(std::uint64_t{0}))
      ->capture_default_str();
  add_progress_option(command, options.progress_seconds);
  add_output_options(command, options.output);
  add_iterated_greedy_options(command, options);
  command
      .add_option("--beam-guide", options.beam_guide,
                  "beam: how children are ranked: bound (LB1), idle (LB1 and weighted idle "
                  "time), gap (LB1 against the best so far, idle time breaking ties)")
      ->check(CLI::IsMember(beam_guide_names()))
      ->capture_default_str()
      ->group(method_group("Beam search", "beam"));
  command
      .add_option("--beam-copies", options.beam_copies,
                  "ils with --threads N: 1: one of the N copies runs the beam search from the "
                  "root with the gap guide instead, pruning with the copies' best (a second "
                  "would repeat the same deterministic search); -1: one from 4 threads on")
      ->check(number_in_range(-1, 1))
      ->capture_default_str()
      ->group(method_group("Iterated greedy", "ils"));
  command
      .add_option("--beam-cutoff", options.beam_cutoff,
                  "beam: prune partial schedules whose lower bound reaches this makespan, "
                  "an upper bound known without a schedule (0: none)")
      ->check(number_at_least(std::int64_t{0}))
      ->capture_default_str()
      ->group(method_group("Beam search", "beam"));
}

int run_heuristic_command(const HeuristicCommandOptions& options,
                          const solve::SignalWatcher& signals) {
  const Instance instance = load_instance(options.instance);
  const HeuristicMethod method = parse_heuristic_method(options.method);
  HeuristicOptions run;
  run.time_limit = options.time_limit_seconds;
  run.cpu_time = options.cpu_time;
  run.iteration_limit = options.iteration_limit;
  run.seed = options.seed;
  run.threads = options.threads == 0 ? cores_available() : options.threads;
  run.stop = signals.stop_flag();
  run.iterated_greedy = options.iterated_greedy;
  run.iterated_greedy.local_search.ties = parse_insertion_ties(options.ig_ties);
  run.beam_guide = parse_beam_guide(options.beam_guide);
  run.beam_copies = resolve_beam_copies(options, run.threads);
  if (options.beam_cutoff > 0) {
    run.beam_cutoff = static_cast<Time>(std::min<std::int64_t>(options.beam_cutoff, kInfiniteTime));
  }
  if (method != HeuristicMethod::kNeh && run.time_limit <= 0 && run.iteration_limit == 0) {
    throw InputError("--method " + options.method + " needs --time-limit or --iterations");
  }
  if (options.command != nullptr) warn_options_of_other_methods(*options.command, options.method);

  HeuristicReport report;
  report.instance = instance.name();
  report.jobs = instance.jobs();
  report.machines = instance.machines();
  report.method = to_string(method);
  report.best_known = best_known(instance);
  report.threads = run.threads;
  Incumbent best;
  run.best_so_far = &best;
  std::atomic<std::uint64_t> iterations{0};
  run.iterations_done = &iterations;
  const auto begin = std::chrono::steady_clock::now();
  try {
    const ProgressTicker ticker(options.output.quiet ? 0 : options.progress_seconds,
                               [&](double seconds) { log_heuristic_progress(seconds, best, report); });
    report.schedule = run_heuristic(instance, method, run);
  } catch (const std::invalid_argument& e) {
    throw InputError(e.what());
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  report.iterations = iterations.load();
  report.stopped_because = signals.stop_reason();

  write_result(options.output, format_human(report), to_json(report, options));
  return report.stopped_because.empty() ? 0 : kExitIncomplete;
}

}  // namespace permbb::app
