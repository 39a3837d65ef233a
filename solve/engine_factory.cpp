#include "engine_factory.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include <spdlog/spdlog.h>

#include "cpu_cores.hpp"
#include "gpu_engine.hpp"
#include "heuristic_workers.hpp"
#include "input_error.hpp"
#include "multicore_engine.hpp"
#include "steal_policy.hpp"

namespace permbb::solve {
namespace {

constexpr double kSlowGpuSetupSeconds = 2.0;

// The cut a run with --certificate records (docs/audit.md), none without.
std::optional<CutRecording> cut_recording(const SolveOptions& options, int jobs) {
  if (options.certificate_path.empty()) return std::nullopt;
  CutRecording recording{cut_depth_for(jobs, options.certificate_subproblems), {}};
  if (options.certificate_split > 0) {
    recording.split_nodes = options.certificate_split;
    recording.split_depth =
        split_depth_for(jobs, recording.depth, options.certificate_split_depth);
  }
  return recording;
}

std::unique_ptr<SearchEngine> make_multicore(const SolveOptions& options,
                                             const Instance& instance,
                                             const SearchSettings& settings,
                                             Incumbent& incumbent) {
  // Options of the GPU explorer mean nothing here: say so rather than drop them silently.
  if (options.ivms > 0 || options.gpu_pools > 0) {
    spdlog::warn("{}{}: no GPU explorer in this run (the CPU explores): ignored",
                 options.ivms > 0 ? "--ivms" : "",
                 options.gpu_pools > 0 ? (options.ivms > 0 ? " and --gpu-pools" : "--gpu-pools")
                                       : "");
  }
  MulticoreOptions multicore;
  multicore.threads = options.threads;
  multicore.policy = parse_steal_policy(options.steal_policy);
  multicore.cut = cut_recording(options, instance.jobs());
  return std::make_unique<MulticoreEngine>(instance, settings, incumbent, multicore);
}

// --gpu-steal-rule's names (the command line accepts only these).
gpu::StealRule parse_gpu_steal_rule(const std::string& name) {
  if (name == "largest") return gpu::StealRule::kLargestNeighbour;
  if (name == "mean") return gpu::StealRule::kMean;
  throw InputError("--gpu-steal-rule: unknown rule " + name);
}

}  // namespace

std::unique_ptr<SearchEngine> make_engine(const SolveOptions& options, const Instance& instance,
                                          const SearchSettings& settings, Incumbent& incumbent,
                                          int local_rank) {
  if (options.gpu == "off") return make_multicore(options, instance, settings, incumbent);
  // The first CUDA call of the process starts the driver: counted with the set-up.
  const auto start = std::chrono::steady_clock::now();
  const auto devices = gpu::built_with_cuda() ? gpu::list_devices() : std::vector<gpu::DeviceInfo>{};
  const std::chrono::duration<double> driver = std::chrono::steady_clock::now() - start;
  if (options.gpu == "on" && devices.empty()) {
    throw InputError(gpu::built_with_cuda() ? "--gpu: no CUDA device is visible"
                                            : "--gpu: this permbb was built without CUDA");
  }
  if (devices.empty()) return make_multicore(options, instance, settings, incumbent);
  if (uses_lb2(settings.bound) && instance.machines() > gpu::kMaxGpuLb2Machines) {
    const std::string why = "the GPU explorer bounds with " + to_string(settings.bound) +
                            " up to " + std::to_string(gpu::kMaxGpuLb2Machines) + " machines";
    if (options.gpu == "on") throw InputError("--gpu: " + why + "; use --no-gpu or --bound lb1");
    spdlog::warn("{}: this instance runs on the CPU", why);
    return make_multicore(options, instance, settings, incumbent);
  }
  gpu::GpuOptions gpu_options;
  gpu_options.device = local_rank % static_cast<int>(devices.size());
  gpu_options.ivms = options.ivms;
  gpu_options.pools = options.gpu_pools;
  gpu_options.steal_rule = parse_gpu_steal_rule(options.gpu_steal_rule);
  gpu_options.persistent = options.gpu_explorer != "rounds";
  // Every cut the command line allows fits the GPU's paths: --certificate-subproblems is at
  // most 2^40, and a cut 17 deep has at least 17! > 2^40 nodes (gpu/warp/device_cut.hpp).
  gpu_options.cut = cut_recording(options, instance.jobs());
  // A GPU's first use creates its context and memory: seconds on a freshly started machine.
  // Logged apart from the search (a warning when slow, also from the quiet cluster workers).
  auto engine = gpu::make_gpu_engine(instance, settings, incumbent, gpu_options);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  spdlog::log(took.count() > kSlowGpuSetupSeconds ? spdlog::level::warn : spdlog::level::info,
              "GPU {}: engine set up in {:.2f} s (driver, context, memory, tables), before the "
              "search",
              gpu_options.device, took.count());
  const gpu::GpuSetupSeconds& phases = gpu::engine_info(*engine).setup_seconds;
  spdlog::debug("GPU {}: set-up: driver {:.3f} s, device {:.3f} s, context and tables {:.3f} s, "
                "kernels {:.3f} s, memory {:.3f} s",
                gpu_options.device, driver.count(), phases.device, phases.tables,
                phases.kernels, phases.memory);
  return engine;
}

// Heuristic threads share this process's cores with its explorers. By default: none beside
// the CPU engine (its threads use every core); beside the GPU engine the process's cores
// less one per GPU pool (the threads that feed the GPU) and one for MPI's. More than the
// process's cores only slow everything (and thousands made start and stop take minutes): an
// explicit count is capped there.
int resolve_heuristic_threads(const SolveOptions& options, const std::string& engine_name,
                              int cores) {
  if (options.heuristic_threads >= 0) {
    if (options.heuristic_threads > cores) {
      spdlog::warn("--heuristic-threads {}: this process has {} core(s); running {}",
                   options.heuristic_threads, cores, cores);
    }
    return std::min(options.heuristic_threads, cores);
  }
  if (engine_name != "gpu") return 0;
  return std::max(0, cores - gpu::gpu_pools(options.gpu_pools) - 1);
}

std::unique_ptr<Hybridization> start_hybridization(const SolveOptions& options,
                                                   const Instance& instance, Incumbent& incumbent,
                                                   const std::string& engine_name, int cores,
                                                   std::uint64_t salt, bool root_beam_here) {
  const int threads = resolve_heuristic_threads(options, engine_name, cores);
  if (threads <= 0) return nullptr;
  HeuristicWorkerOptions heuristic;
  heuristic.threads = threads;
  heuristic.seconds_per_run = options.heuristic_seconds;
  heuristic.seed = options.seed + salt;
  heuristic.subproblem_dives = options.heuristic_dives;
  heuristic.root_beam = options.heuristic_root_beam && root_beam_here;
  spdlog::info("hybridization: {} heuristic thread(s), {} s per run{}{}", threads,
               options.heuristic_seconds,
               options.heuristic_dives ? ", half of them diving into subproblems" : "",
               heuristic.root_beam ? ", the first after a beam search from the root" : "");
  return std::make_unique<Hybridization>(instance, incumbent, heuristic);
}

void finish_hybridization(Hybridization& hybrid) {
  hybrid.stop();
  const HeuristicWorkers& workers = hybrid.workers();
  const std::optional<Schedule> best = hybrid.pool().best();
  const auto shown = [](Time value) {
    return value == kInfiniteTime ? std::string("none") : std::to_string(value);
  };
  spdlog::info(
      "hybridization: {} heuristic runs ({} subproblem dives), {} improved the incumbent, {} "
      "promotions; best schedule seen {} (iterated greedy {}, dives {}, root beam {})",
      workers.runs(), workers.dives(), workers.improvements(), hybrid.promotions(),
      shown(best ? best->makespan : kInfiniteTime), shown(workers.best_of_greedy()),
      shown(workers.best_of_dives()), shown(workers.best_of_root_beam()));
  if (!workers.error().empty()) spdlog::warn("a heuristic thread stopped: {}", workers.error());
}

}  // namespace permbb::solve
