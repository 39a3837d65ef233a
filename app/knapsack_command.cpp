#include "knapsack_command.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "cli_numbers.hpp"
#include "shared_options.hpp"
#include "gpu_devices.hpp"
#include "core_search.hpp"
#include "group_search.hpp"
#include "host_list_backend.hpp"
#include "input_error.hpp"
#include "knapsack_dp.hpp"
#include "knapsack_file.hpp"
#include "jooken_generator.hpp"
#include "knapsack_generator.hpp"
#include "knapsack_gpu.hpp"
#include "knapsack_level_search.hpp"
#include "knapsack_memory_cap.hpp"

namespace permbb::app {
namespace {

namespace ks = permbb::knapsack;
using Clock = std::chrono::steady_clock;

// The largest --dp-memory-mib whose byte count fits in 63 bits (the shift must not wrap).
constexpr std::int64_t kMaxDpMemoryMib = std::numeric_limits<std::int64_t>::max() >> 20;

struct KnapsackReport {
  std::string method;
  std::string engine;  // cpu | gpu | dp
  std::string device;  // the GPU's name, when used
  ks::KnapsackSolution solution;
  bool complete = true;
  std::optional<ks::LevelSearchStatistics> statistics;  // branch-and-bound only
  std::optional<ks::CoreSearchStatistics> core;         // core only
  std::optional<ks::GroupSearchResult> groups;          // groups only (its solution moved out)
  std::optional<std::int64_t> upper_bound;              // core only
  ks::LevelSearchOptions search;
  double seconds = 0;
  double setup_seconds = 0;
  std::string stopped_because;  // "time limit", a signal's ("stopped by SIGTERM") or a cap's
  std::int64_t none_at_least = 0;  // --at-least V, complete, and no solution worth V: V
};

// "optimal", "incomplete", or "none-at-least" (complete: every solution is worth less than
// --at-least).
std::string status_of(const KnapsackReport& r) {
  if (!r.complete) return "incomplete";
  return r.none_at_least > 0 ? "none-at-least" : "optimal";
}

ks::KnapsackInstance load(const KnapsackCommandOptions& options) {
  if (options.instance_file.empty() == options.generate.empty()) {
    throw InputError(
        "knapsack: give an instance file or --generate CLASS,n,R,seed | jooken,n,c,g,f,eps,s,seed "
        "(one of them)");
  }
  const std::optional<std::int64_t> capacity =
      options.capacity >= 0 ? std::optional<std::int64_t>(options.capacity) : std::nullopt;
  if (ks::is_jooken_spec(options.generate)) {
    ks::KnapsackInstance instance =
        ks::generate_jooken_instance(ks::parse_jooken_spec(options.generate));
    if (capacity) instance.capacity = *capacity;
    return instance;
  }
  if (!options.generate.empty()) {
    return ks::generate_instance(ks::parse_generator_spec(options.generate), capacity);
  }
  ks::KnapsackInstance instance = ks::read_knapsack_file(options.instance_file);
  if (capacity) instance.capacity = *capacity;
  return instance;
}

double seconds_since(Clock::time_point begin) {
  return std::chrono::duration<double>(Clock::now() - begin).count();
}

// The GPU to use, or none: --gpu insists (an InputError without one), auto takes one if any.
std::optional<gpu::DeviceInfo> choose_device(const KnapsackCommandOptions& options) {
  if (options.gpu == "off") return std::nullopt;
  const auto devices =
      gpu::built_with_cuda() ? gpu::list_devices() : std::vector<gpu::DeviceInfo>{};
  if (options.gpu == "on" && devices.empty()) {
    throw InputError(gpu::built_with_cuda() ? "--gpu: no CUDA device is visible"
                                            : "--gpu: this permbb was built without CUDA");
  }
  if (devices.empty()) return std::nullopt;
  return devices.front();
}

// Sets up the chosen GPU with `setup`. Without --gpu, a GPU that cannot be set up (its memory
// taken by other processes, say) stands aside with a warning and the search runs on the CPU:
// `device` is emptied and false returned. With --gpu the failure is the run's.
template <class Setup>
bool set_up_device(const KnapsackCommandOptions& options, std::optional<gpu::DeviceInfo>& device,
                   Setup&& setup) {
  if (!device) return false;
  try {
    setup(device->index);
    return true;
  } catch (const std::runtime_error& e) {
    if (options.gpu == "on") throw;
    spdlog::warn("knapsack: GPU {} cannot be set up ({}); the search runs on the CPU",
                 device->name, e.what());
    device.reset();
    return false;
  }
}

double memory_fraction(const KnapsackCommandOptions& options) {
  return options.memory_fraction > 0 ? options.memory_fraction : ks::kDefaultMemoryFraction;
}

// --max-list-nodes, or --memory-fraction of the memory the list lives in.
std::int64_t list_cap(const KnapsackCommandOptions& options, const ks::ItemTable& items,
                      const std::optional<gpu::DeviceInfo>& device) {
  if (options.max_list_nodes > 0) return options.max_list_nodes;
  const int words = items.words_per_node();
  if (device) {
    return ks::list_slots_for_memory(device->global_memory_bytes, memory_fraction(options),
                                     ks::gpu::device_bytes_per_slot(words));
  }
  const std::int64_t memory = ks::physical_memory_bytes();
  if (memory == 0) return ks::LevelSearchOptions{}.max_list_nodes;
  return ks::list_slots_for_memory(memory, memory_fraction(options),
                                   ks::host_bytes_per_slot(words));
}

// The techniques --without turns off, each with the method that has it.
const std::map<std::string, std::string>& technique_methods() {
  static const std::map<std::string, std::string> methods = {{"dominance", "bb"},
                                                             {"reachable-sums", "core"}};
  return methods;
}

// A technique turned off for a method that does not have it changes nothing: say so.
void warn_techniques_of_other_methods(const KnapsackCommandOptions& options) {
  for (const std::string& technique : options.without) {
    const std::string& own = technique_methods().at(technique);
    if (own != options.method) {
      spdlog::warn("--without {}: only --method {} has it, not {}: ignored", technique, own,
                   options.method);
    }
  }
}

bool turned_off(const KnapsackCommandOptions& options, const std::string& technique) {
  return std::find(options.without.begin(), options.without.end(), technique) !=
         options.without.end();
}

// --max-set-aside-nodes, or --memory-fraction of the host's memory (sub-lists wait there).
std::int64_t set_aside_budget(const KnapsackCommandOptions& options, const ks::ItemTable& items) {
  if (options.max_set_aside_nodes > 0) return options.max_set_aside_nodes;
  const std::int64_t memory = ks::physical_memory_bytes();
  if (memory == 0) return ks::LevelSearchOptions{}.max_set_aside_nodes;
  return ks::list_slots_for_memory(memory, memory_fraction(options),
                                   ks::host_bytes_per_slot(items.words_per_node()));
}

void log_level_progress(const ks::LevelSearchProgress& p) {
  spdlog::info("progress {:.1f} s | item {} of {} | list {} nodes | set aside {} | best {} | "
               "{} nodes explored",
               p.seconds, p.level + 1, p.items, p.list_nodes, p.set_aside_nodes, p.best_profit,
               p.nodes_explored);
}

KnapsackReport solve_branch_and_bound(const KnapsackCommandOptions& options,
                                      const ks::KnapsackInstance& instance,
                                      const std::atomic<bool>* stop) {
  KnapsackReport report;
  report.method = "bb";
  const auto setup_begin = Clock::now();
  auto device = choose_device(options);
  const ks::ItemTable items(instance);
  report.search.max_list_nodes = list_cap(options, items, device);
  report.search.max_set_aside_nodes = set_aside_budget(options, items);
  if (options.switch_threshold > 0) report.search.switch_threshold = options.switch_threshold;
  report.search.time_limit_seconds = options.time_limit_seconds;
  report.search.stop = stop;
  report.search.remove_dominated = !turned_off(options, "dominance");
  report.search.at_least = options.at_least;
  if (!options.output.quiet) {
    report.search.progress_seconds = options.progress_seconds;
    report.search.on_progress = log_level_progress;
  }
  ks::HostListBackend cpu(items);
  std::unique_ptr<ks::LevelListBackend> gpu_list;
  const bool on_gpu = set_up_device(options, device, [&](int index) {
    gpu_list = ks::gpu::make_device_list_backend(items, {index, report.search.max_list_nodes});
  });
  if (on_gpu) {
    report.device = device->name;
  } else {
    report.search.max_list_nodes = list_cap(options, items, device);  // the host's memory
  }
  report.engine = device ? "gpu" : "cpu";
  report.setup_seconds = seconds_since(setup_begin);
  spdlog::info(
      "knapsack: {} items ({} fit), engine {}{}, switch threshold {}, list cap {} slots, "
      "set-aside budget {} nodes",
      instance.items(), items.count(), report.engine, device ? " (" + device->name + ")" : "",
      report.search.switch_threshold, report.search.max_list_nodes,
      report.search.max_set_aside_nodes);

  const auto begin = Clock::now();
  ks::LevelSearchResult result = ks::run_level_search(items, cpu, gpu_list.get(), report.search);
  report.seconds = seconds_since(begin);
  report.solution = std::move(result.solution);
  report.complete = result.complete;
  if (result.none_at_least) report.none_at_least = report.search.at_least;
  report.statistics = result.statistics;
  return report;
}

void log_core_progress(const ks::CoreSearchProgress& p) {
  spdlog::info("progress {:.1f} s | core {} of {} items | list {} states | best {} | bound {}",
               p.seconds, p.core_size, p.items, p.states, p.lower, p.upper);
}

// The state list and its decisions may take --memory-fraction of the host's memory.
std::int64_t core_memory_cap(const KnapsackCommandOptions& options) {
  const std::int64_t memory = ks::physical_memory_bytes();
  if (memory == 0) return 0;
  return static_cast<std::int64_t>(memory_fraction(options) * static_cast<double>(memory));
}

KnapsackReport solve_expanding_core(const KnapsackCommandOptions& options,
                                    const ks::KnapsackInstance& instance,
                                    const std::atomic<bool>* stop) {
  KnapsackReport report;
  report.method = "core";
  ks::CoreSearchOptions search;
  const auto setup_begin = Clock::now();
  auto device = choose_device(options);
  std::unique_ptr<ks::StateMerger> device_merger;
  if (set_up_device(options, device, [&](int index) {
        device_merger = ks::gpu::make_device_state_merger(index);
      })) {
    search.merger = device_merger.get();
    if (options.switch_threshold > 0) search.merger_min_states = options.switch_threshold;
    report.device = device->name;
    report.search.switch_threshold = search.merger_min_states;
  }
  report.engine = device ? "gpu" : "cpu";
  const double device_setup = seconds_since(setup_begin);
  search.max_memory_bytes = core_memory_cap(options);
  search.max_states = options.max_states;
  search.time_limit_seconds = options.time_limit_seconds;
  search.stop = stop;
  if (turned_off(options, "reachable-sums")) search.reachable_sums_budget = 0;
  if (!options.output.quiet) {
    search.progress_seconds = options.progress_seconds;
    search.on_progress = log_core_progress;
  }
  spdlog::info("knapsack: {} items, method core, engine {}{}, memory cap {} MiB",
               instance.items(), report.engine,
               device ? " (" + device->name + ", lists of " +
                            std::to_string(search.merger_min_states) + " states or more)"
                      : "",
               search.max_memory_bytes >> 20);
  const auto begin = Clock::now();
  ks::CoreSearchResult result = ks::solve_core(instance, search);
  report.setup_seconds = device_setup + result.setup_seconds;
  report.seconds = seconds_since(begin) - result.setup_seconds;
  report.solution = std::move(result.solution);
  report.complete = result.complete;
  report.stopped_because = result.stopped_because;
  report.core = result.statistics;
  report.upper_bound = result.upper_bound;
  return report;
}

KnapsackReport solve_by_weight_groups(const KnapsackCommandOptions& options,
                                     const ks::KnapsackInstance& instance,
                                     const std::atomic<bool>* stop) {
  if (options.gpu == "on") throw InputError("--gpu: the group search runs on the CPU only");
  KnapsackReport report;
  report.method = "groups";
  report.engine = "cpu";
  report.search.at_least = options.at_least;
  ks::GroupSearchOptions search;
  search.at_least = options.at_least;
  search.time_limit_seconds = options.time_limit_seconds;
  search.stop = stop;
  if (!options.output.quiet) {
    search.progress_seconds = options.progress_seconds;
    search.on_progress = [](const ks::GroupSearchProgress& p) {
      spdlog::info("progress {:.1f} s | {} nodes | {} count vectors shared out | best {}",
                   p.seconds, p.nodes, p.leaves, p.best);
    };
  }
  const auto begin = Clock::now();
  ks::GroupSearchResult result = ks::solve_by_groups(instance, search);
  report.seconds = seconds_since(begin);
  report.solution = std::move(result.solution);
  report.complete = result.complete;
  if (result.none_at_least) report.none_at_least = options.at_least;
  report.groups = std::move(result);
  spdlog::info("knapsack: method groups, {} groups and {} light items, {} table cells, {} "
               "nodes, {} count vectors shared out",
               report.groups->groups, report.groups->light_items, report.groups->table_cells,
               report.groups->nodes, report.groups->leaves);
  return report;
}

// The most memory --method dp may take: --dp-memory-mib (default 4 GiB), but never more
// than the machine has, so that a table too large for it is refused before any allocation
// (an allocation beyond it fails, or succeeds and is killed when the memory runs out).
std::uint64_t dp_memory_limit(const KnapsackCommandOptions& options) {
  const std::uint64_t asked = options.dp_memory_mib > 0
                                  ? static_cast<std::uint64_t>(options.dp_memory_mib) << 20
                                  : ks::kDefaultDpMemoryBytes;
  const std::int64_t physical = ks::physical_memory_bytes();
  return physical > 0 ? std::min(asked, static_cast<std::uint64_t>(physical)) : asked;
}

KnapsackReport solve_dynamic_program(const KnapsackCommandOptions& options,
                                     const ks::KnapsackInstance& instance,
                                     const std::atomic<bool>* stop) {
  if (options.gpu == "on") throw InputError("--gpu: the dynamic program runs on the CPU only");
  KnapsackReport report;
  report.method = "dp";
  report.engine = "dp";
  const auto begin = Clock::now();
  const double limit = options.time_limit_seconds;
  ks::DpResult result = ks::solve_dp_until(instance, dp_memory_limit(options), [&] {
    return stop->load(std::memory_order_relaxed) || (limit > 0 && seconds_since(begin) >= limit);
  });
  report.seconds = seconds_since(begin);
  report.solution = std::move(result.solution);
  report.complete = result.complete;
  return report;
}

std::string format_human(const ks::KnapsackInstance& instance, const KnapsackReport& r) {
  std::ostringstream out;
  out << "instance      " << instance.name << " (" << instance.items() << " items, capacity "
      << instance.capacity << ")\n";
  out << "status        " << status_of(r);
  if (!r.complete) out << " (" << r.stopped_because << ")";
  if (r.complete && r.none_at_least > 0) {
    out << " " << r.none_at_least << " (every solution is worth less; the best found below)";
  }
  out << "\n";
  out << "value         " << r.solution.value << "\n";
  if (r.upper_bound && !r.complete) out << "upper bound   " << *r.upper_bound << "\n";
  out << "weight        " << r.solution.weight << "\n";
  out << "items        ";
  for (const int i : one_based(r.solution.items)) out << ' ' << i;
  out << "\n";
  if (r.statistics) out << "nodes         " << r.statistics->nodes_explored << "\n";
  if (r.groups) {
    out << "groups        " << r.groups->groups << " (and " << r.groups->light_items
        << " light items; " << r.groups->nodes << " nodes, " << r.groups->leaves
        << " count vectors shared out)\n";
  }
  if (r.core) {
    out << "states        " << r.core->states_explored << " (largest list "
        << r.core->largest_list << ", core of " << r.core->core_size << " items, "
        << r.core->items_fixed << " fixed by bound)\n";
  }
  out.setf(std::ios::fixed);
  out.precision(3);
  out << "seconds       " << r.seconds << "\n";
  out << "engine        " << r.engine;
  if (r.core && !r.device.empty()) {
    out << " (" << r.core->merger_merges << " merges on the GPU)";
  }
  if (r.statistics) {
    const auto& s = *r.statistics;
    out << " (levels: " << s.levels_small << " on the CPU, " << s.levels_large << " on the GPU; "
        << s.switches << " switches, " << s.splits << " lists set aside)";
  }
  out << "\n";
  return out.str();
}

nlohmann::json to_json(const ks::KnapsackInstance& instance, const KnapsackReport& r) {
  nlohmann::json j;
  j["instance"] = instance.name;
  j["items"] = instance.items();
  j["capacity"] = instance.capacity;
  j["method"] = r.method;
  j["status"] = status_of(r);
  j["at_least"] =
      r.search.at_least > 0 ? nlohmann::json(r.search.at_least) : nlohmann::json(nullptr);
  j["stopped_because"] = r.complete ? nlohmann::json(nullptr) : nlohmann::json(r.stopped_because);
  j["value"] = r.solution.value;
  j["weight"] = r.solution.weight;
  j["chosen"] = one_based(r.solution.items);
  j["seconds"] = r.seconds;
  j["setup_seconds"] = r.setup_seconds;
  j["engine"] = r.engine;
  j["device"] = r.device.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.device);
  const nlohmann::json none(nullptr);
  const auto* s = r.statistics ? &*r.statistics : nullptr;
  j["nodes_explored"] = s ? nlohmann::json(s->nodes_explored) : none;
  j["nodes_dominated"] = s ? nlohmann::json(s->nodes_dominated) : none;
  j["levels_cpu"] = s ? nlohmann::json(s->levels_small) : none;
  j["levels_gpu"] = s ? nlohmann::json(s->levels_large) : none;
  j["switches"] = s ? nlohmann::json(s->switches) : none;
  j["lists_set_aside"] = s ? nlohmann::json(s->splits) : none;
  j["largest_list"] = s ? nlohmann::json(s->largest_list) : none;
  j["largest_set_aside"] = s ? nlohmann::json(s->largest_set_aside) : none;
  const bool core_on_gpu = r.core && !r.device.empty();
  j["switch_threshold"] =
      s || core_on_gpu ? nlohmann::json(r.search.switch_threshold) : none;
  j["max_list_nodes"] = s ? nlohmann::json(r.search.max_list_nodes) : none;
  j["max_set_aside_nodes"] = s ? nlohmann::json(r.search.max_set_aside_nodes) : none;
  const auto* core = r.core ? &*r.core : nullptr;
  j["upper_bound"] = r.upper_bound ? nlohmann::json(*r.upper_bound) : none;
  j["core_size"] = core ? nlohmann::json(core->core_size) : none;
  j["items_fixed"] = core ? nlohmann::json(core->items_fixed) : none;
  j["states_explored"] = core ? nlohmann::json(core->states_explored) : none;
  j["states_dominated"] = core ? nlohmann::json(core->states_dominated) : none;
  j["states_fathomed"] = core ? nlohmann::json(core->states_fathomed) : none;
  j["largest_state_list"] = core ? nlohmann::json(core->largest_list) : none;
  j["weight_divisor"] = core ? nlohmann::json(core->weight_divisor) : none;
  j["profit_divisor"] = core ? nlohmann::json(core->profit_divisor) : none;
  j["excess_divisor"] = core ? nlohmann::json(core->excess_divisor) : none;
  j["capacity_used"] = core ? nlohmann::json(core->capacity_used) : none;
  j["dantzig_upper"] = core ? nlohmann::json(core->dantzig_upper) : none;
  j["states_upper"] = core ? nlohmann::json(core->states_upper) : none;
  j["cardinality_upper"] = core ? nlohmann::json(core->cardinality_upper) : none;
  j["outside_sums_builds"] = core ? nlohmann::json(core->outside_sums_builds) : none;
  j["completions"] = core ? nlohmann::json(core->completions) : none;
  j["weight_class_dp_runs"] = core ? nlohmann::json(core->weight_class_dp_runs) : none;
  j["gpu_merges"] = core ? nlohmann::json(core->merger_merges) : none;
  const auto* groups = r.groups ? &*r.groups : nullptr;
  j["groups"] = groups ? nlohmann::json(groups->groups) : none;
  j["light_items"] = groups ? nlohmann::json(groups->light_items) : none;
  j["table_cells"] = groups ? nlohmann::json(groups->table_cells) : none;
  j["group_nodes"] = groups ? nlohmann::json(groups->nodes) : none;
  j["group_leaves"] = groups ? nlohmann::json(groups->leaves) : none;
  return j;
}

KnapsackReport solve_with_method(const KnapsackCommandOptions& options,
                                 const ks::KnapsackInstance& instance,
                                 const std::atomic<bool>* stop) {
  if (options.method == "dp") return solve_dynamic_program(options, instance, stop);
  if (options.method == "core") return solve_expanding_core(options, instance, stop);
  if (options.method == "groups") return solve_by_weight_groups(options, instance, stop);
  return solve_branch_and_bound(options, instance, stop);
}

}  // namespace

void add_knapsack_options(CLI::App& command, KnapsackCommandOptions& options) {
  options.command = &command;
  auto* file =
      command.add_option("file", options.instance_file,
                         "instance file: 'n c', then n lines 'profit weight'; or 'n', then n "
                         "lines 'id profit weight', then 'c' (Pisinger, Jooken); # comments");
  auto* generate = command.add_option(
      "--generate", options.generate,
      "generate an instance: CLASS,n,R,seed with CLASS one of " +
          joined_names(ks::instance_class_names()) + ", or of Pisinger's hard classes " +
          joined_names(ks::hard_instance_class_names()) +
          "; or jooken,n,c,g,f,eps,s,seed (Jooken, Leyman & De Causmaecker 2022)");
  file->excludes(generate);
  command
      .add_option("--capacity", options.capacity,
                  "knapsack capacity (default: the file's; half the total weight when generated)")
      ->check(number_at_least(std::int64_t{0}));
  command
      .add_option("--method", options.method,
                  "core: expanding-core dynamic programming (minknap/combo class; long state "
                  "lists merged on the GPU; the default); bb: branch-and-bound (CPU/GPU); dp: "
                  "dynamic programming, O(n c), CPU; groups: the items in groups of nearly "
                  "equal weight, how many each group gives enumerated (CPU; for instances "
                  "built that way, as Jooken's; a second opinion sharing no code with the others)")
      ->check(CLI::IsMember({"core", "bb", "dp", "groups"}))
      ->capture_default_str();
  add_gpu_choice(command, options.gpu,
                 "use the GPU (an error without one, or with --method dp)",
                 "CPU only (default: the GPU for long lists when there is one)");
  command
      .add_option("--switch-threshold", options.switch_threshold,
                  "lists of at least this many nodes (--method bb; default " +
                      std::to_string(ks::kDefaultSwitchThreshold) +
                      ") or states (core; default " +
                      std::to_string(ks::CoreSearchOptions{}.merger_min_states) +
                      ") go to the GPU, shorter ones to the CPU")
      ->check(number_above(std::int64_t{0}));
  command
      .add_option("--max-list-nodes", options.max_list_nodes,
                  "most slots of the node list (children included, at least 2); longer lists "
                  "are cut and explored depth-first (default: from --memory-fraction)")
      ->check(number_in_range(std::int64_t{2}, ks::kMaxListSlots))
      ->group(method_group("Branch-and-bound", "bb"));
  command
      .add_option("--max-set-aside-nodes", options.max_set_aside_nodes,
                  "most nodes of cut lists waiting in host memory (plus 2 per level); lists "
                  "are cut shorter as they near it (default: from --memory-fraction)")
      ->check(number_above(std::int64_t{0}))
      ->group(method_group("Branch-and-bound", "bb"));
  command
      .add_option("--at-least", options.at_least,
                  "seek only solutions worth at least V (a value proved elsewhere, to confirm "
                  "it; --method bb or groups): the result is this search's optimum if one "
                  "reaches V, else status none-at-least")
      ->check(number_above(std::int64_t{0}));
  command
      .add_option("--max-states", options.max_states,
                  "--method core: most states of the list; beyond it the search stops with an "
                  "error (default: only the memory cap, --memory-fraction of the host's memory)")
      ->check(number_above(std::int64_t{0}))
      ->group(method_group("Expanding core", "core"));
  command
      .add_option("--memory-fraction", options.memory_fraction,
                  "share of the device's (or, without GPU, the host's) memory the list may "
                  "take, and of the host's for the lists set aside; --method core: of the "
                  "host's, for its state list (default 0.25)")
      ->check(number_in_range(0.001, 0.95));
  command
      .add_option("--dp-memory-mib", options.dp_memory_mib,
                  "most memory of --method dp, in MiB (default 4096; at most the machine's "
                  "memory)")
      ->check(number_in_range(std::int64_t{1}, kMaxDpMemoryMib))
      ->group(method_group("Dynamic program", "dp"));
  add_time_limit_option(command, options.time_limit_seconds,
                        "stop the search (any --method) after this many seconds (0: none); the "
                        "result is then incomplete (exit 3): the best solution found");
  command
      .add_option("--without", options.without,
                  "turn techniques off, to measure what they buy: dominance (between the "
                  "nodes of a level, branch-and-bound), reachable-sums (the capacity lowered "
                  "to the largest reachable weight and the states' bound through the items "
                  "outside the core, --method core)")
      ->delimiter(',')
      ->check(CLI::IsMember(technique_methods()));
  command
      .add_option("--write-instance", options.write_instance,
                  "write the instance to this file in the numbered layout (n, 'id profit "
                  "weight' lines, c) and stop without solving")
      ->type_name(kFileType);
  add_progress_option(command, options.progress_seconds);
  add_output_options(command, options.output);
}

int run_knapsack_command(const KnapsackCommandOptions& options,
                         const solve::SignalWatcher& signals) {
  refuse_outputs_naming_inputs(
      {{"--write-instance", options.write_instance}, {"--json", options.output.json_path}},
      {{"the instance", options.instance_file}});
  solve::check_destination(options.write_instance, "the instance");
  const ks::KnapsackInstance instance = load(options);
  ks::validate_instance(instance);
  if (!options.write_instance.empty()) {
    if (!options.output.json_path.empty()) {
      spdlog::warn("--json {}: nothing is solved with --write-instance, so no result is written",
                   options.output.json_path);
    }
    solve::write_text_file(options.write_instance, ks::format_numbered_knapsack_file(instance),
                           "the instance");
    return 0;
  }
  if (options.command != nullptr) warn_options_of_other_methods(*options.command, options.method);
  warn_techniques_of_other_methods(options);
  const std::atomic<bool>* stop = signals.stop_flag();
  if (options.at_least > 0 && options.method != "bb" && options.method != "groups") {
    spdlog::warn("--at-least: only --method bb and groups use it, not {}: ignored",
                 options.method);
  }
  KnapsackReport report = solve_with_method(options, instance, stop);
  if (!report.stopped_because.empty()) {
    spdlog::warn("knapsack: stopped before the optimum is proved: {}", report.stopped_because);
  } else {
    report.stopped_because = signals.stop_requested() ? signals.stop_reason() : "time limit";
  }
  ks::check_solution(instance, report.solution);
  write_result(options.output, format_human(instance, report), to_json(instance, report));
  return report.complete ? 0 : kExitIncomplete;
}

}  // namespace permbb::app
