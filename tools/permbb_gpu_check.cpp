// permbb-gpu-check: solves one instance with the GPU engine and prints one JSON object
// (nodes, seconds, nodes/s, device, K). A tool for device runs and bench/gpu.py until the
// permbb CLI drives the GPU engine; it links no logging library. Built a second time as
// permbb-cpu-check (PERMBB_CPU_CHECK) to run the multi-core engine the same way.
//
//   permbb-gpu-check INSTANCE [--ub opt|inf|N] [--ivms K] [--pools P] [--steps S] [--placement 0..3]
//                    [--lane0-select] [--trigger FRACTION]
//                    [--branch minmin|minmin-fwd-ties|maxsum|forward|backward]
//                    [--bound lb1|lb2|lb2-adjacent|lb1+lb2] [--static-map] [--lb2-screen N|-1]
//                    [--lb2-shared N] [--johnson-placement 0..2] [--warps-per-block 1..16]
//                    [--team-width 8|16|32] [--rounds] [--chunk-steps N] [--max-shares N]
//                    [--budget SECONDS]
//                    [--reference]
//   permbb-cpu-check INSTANCE [--ub ...] [--branch ...] [--bound ...] [--threads N]
// --reference also runs the sequential IvmExplorer at the same upper bound and reports its
// node count (small instances only). --rounds: the explorer of rounds and stealing phases
// instead of the persistent one (docs/gpu.md).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>

#include "factoradic_mpz.hpp"
#include "gpu_engine.hpp"
#include "instance_source.hpp"
#include "ivm_explorer.hpp"
#include "johnson_tables.hpp"
#include "taillard.hpp"
#if defined(PERMBB_CPU_CHECK)
#include <thread>

#include "multicore_engine.hpp"
#endif

namespace {

using namespace permbb;

struct Args {
  std::string instance;
  std::string ub = "opt";
  gpu::GpuOptions options;
  BranchingRule branching = BranchingRule::kMinMin;
  BoundKind bound = BoundKind::kLb1;
  double budget = 1e9;
  bool reference = false;
  int threads = 0;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--ub") a.ub = value();
    else if (arg == "--ivms") a.options.ivms = std::stoi(value());
    else if (arg == "--pools") a.options.pools = std::stoi(value());
    else if (arg == "--steps") a.options.steps_per_launch = std::stoi(value());
    else if (arg == "--placement") a.options.placement = std::stoi(value());
    else if (arg == "--lane0-select") a.options.warp_select = false;
    else if (arg == "--trigger") a.options.steal_trigger = std::stod(value());
    else if (arg == "--branch") a.branching = parse_branching_rule(value());
    else if (arg == "--bound") a.bound = parse_bound_kind(value());
    else if (arg == "--static-map") a.options.remap = false;
    else if (arg == "--lb2-screen") a.options.lb2_screen = std::stoi(value());
    else if (arg == "--lb2-shared") a.options.lb2_shared = std::stoi(value());
    else if (arg == "--johnson-placement") a.options.johnson_placement = std::stoi(value());
    else if (arg == "--warps-per-block") a.options.warps_per_block = std::stoi(value());
    else if (arg == "--team-width") a.options.team_width = std::stoi(value());
    else if (arg == "--rounds") a.options.persistent = false;
    else if (arg == "--chunk-steps") a.options.chunk_steps = std::stoi(value());
    else if (arg == "--max-shares") a.options.max_shares = std::stoi(value());
    else if (arg == "--budget") a.budget = std::stod(value());
    else if (arg == "--reference") a.reference = true;
    else if (arg == "--threads") a.threads = std::stoi(value());
    else if (a.instance.empty()) a.instance = arg;
    else throw std::invalid_argument("unexpected argument " + arg);
  }
  if (a.instance.empty()) throw std::invalid_argument("usage: permbb-gpu-check INSTANCE [options]");
  return a;
}

Time initial_bound(const std::string& ub, const std::string& name) {
  if (ub == "inf") return kInfiniteTime;
  if (ub == "opt") {
    const auto index = taillard::parse_name(name);
    if (!index) throw std::invalid_argument("--ub opt needs a Taillard instance");
    return taillard::best_known_makespan(*index);
  }
  return static_cast<Time>(std::stol(ub));
}

std::uint64_t reference_count(const Instance& inst, const SearchSettings& settings, Time ub) {
  FlowshopTables tables(inst);
  const JohnsonTables johnson(inst, machine_pairs_for(settings.bound));
  Incumbent incumbent(ub);
  IvmExplorer explorer(tables, &johnson, settings, incumbent);
  std::vector<int> begin(inst.jobs(), 0);
  std::vector<int> end(inst.jobs(), 0);
  end[0] = inst.jobs();
  explorer.start(begin.data(), end.data());
  while (explorer.step()) {
  }
  return explorer.counters().decomposed;
}

// The engine and the JSON fields that describe it.
std::unique_ptr<SearchEngine> make_engine(const Args& a, const Instance& inst,
                                          const SearchSettings& settings, Incumbent& incumbent,
                                          std::string& fields) {
  char buffer[1024];
#if defined(PERMBB_CPU_CHECK)
  MulticoreOptions options;
  options.threads = a.threads > 0 ? a.threads : static_cast<int>(std::thread::hardware_concurrency());
  std::snprintf(buffer, sizeof buffer, "\"engine\": \"cpu\", \"threads\": %d", options.threads);
  fields = buffer;
  return std::make_unique<MulticoreEngine>(inst, settings, incumbent, options);
#else
  auto engine = gpu::make_gpu_engine(inst, settings, incumbent, a.options);
  const gpu::GpuEngineInfo& info = gpu::engine_info(*engine);
  const int pools = gpu::gpu_pools(a.options.pools);
  std::snprintf(buffer, sizeof buffer,
                "\"engine\": \"gpu\", \"device\": \"%s\", \"multiprocessors\": %d, "
                "\"pools\": %d, \"ivms\": %d, \"placement\": \"%s\", \"times_in_shared\": %s, "
                "\"steps_per_launch\": %d, \"resident_warps\": %d, "
                "\"shared_bytes_per_block\": %d, \"warp_select\": %s, "
                "\"johnson_in_shared\": %s, \"mapping\": \"%s\", \"warps_per_block\": %d, "
                "\"team_width\": %d, \"persistent\": %s, \"chunk_steps\": %d",
                info.device.name.c_str(), info.device.multiprocessors, pools, info.ivms,
                info.placement.c_str(), info.times_in_shared ? "true" : "false",
                info.steps_per_launch, info.resident_warps, info.shared_bytes_per_block,
                a.options.warp_select ? "true" : "false",
                info.johnson_in_shared ? "true" : "false", info.mapping.c_str(),
                info.warps_per_block, info.team_width, info.persistent ? "true" : "false",
                info.chunk_steps);
  fields = buffer;
  return engine;
#endif
}

int run(const Args& a) {
  const Instance inst = load_instance(a.instance);
  const Time ub = initial_bound(a.ub, a.instance);
  const SearchSettings settings{a.bound, a.branching};
  Incumbent incumbent(ub);
  std::string fields;
  const auto engine = make_engine(a, inst, settings, incumbent, fields);
  engine->set_work({Interval{0, factorial(inst.jobs())}});
  const auto t0 = std::chrono::steady_clock::now();
  const bool done = engine->explore(std::chrono::duration<double>(a.budget));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const EngineStats s = engine->stats();
  std::printf(
      "{\"instance\": \"%s\", \"bound\": \"%s\", %s, \"initial_ub\": %d, \"best\": %d, \"complete\": %s, "
      "\"nodes_decomposed\": %llu, \"leaves\": %llu, \"steals\": %llu, \"seconds\": %.6f, "
      "\"nodes_per_second\": %.1f",
      inst.name().c_str(), to_string(a.bound).c_str(), fields.c_str(), ub, incumbent.value(), done ? "true" : "false",
      static_cast<unsigned long long>(s.nodes.decomposed),
      static_cast<unsigned long long>(s.nodes.leaves), static_cast<unsigned long long>(s.steals),
      seconds, seconds > 0 ? s.nodes.decomposed / seconds : 0.0);
  if (a.reference) {
    const auto t1 = std::chrono::steady_clock::now();
    const std::uint64_t cpu = reference_count(inst, settings, ub);
    const double cpu_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    std::printf(", \"reference_nodes\": %llu, \"reference_seconds\": %.6f, \"counts_equal\": %s",
                static_cast<unsigned long long>(cpu), cpu_seconds,
                cpu == s.nodes.decomposed ? "true" : "false");
  }
  std::printf("}\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse(argc, argv));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "permbb-gpu-check: %s\n", e.what());
    return 1;
  }
}
