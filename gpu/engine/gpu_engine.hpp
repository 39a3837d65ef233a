#pragma once
// The GPU explorer (PBB@GPU, 2022 §3; 2016 §3-4): K IVMs in device memory, one warp each,
// with selection, bounding, branching, pruning and work stealing all on the device. It
// implements SearchEngine, so the CLI and cluster workers drive it like the multi-core
// engine. This header compiles without CUDA: a build without nvcc links a stand-in whose
// factory and constructor throw std::runtime_error("built without CUDA").
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cut_record.hpp"
#include "device_types.hpp"
#include "gpu_devices.hpp"
#include "incumbent.hpp"
#include "instance.hpp"
#include "search_engine.hpp"
#include "search_settings.hpp"

namespace permbb::gpu {

struct GpuOptions {
  int device = 0;  // CUDA device index
  // Number of IVMs K; 0: chosen from the device (the teams the exploration kernel keeps
  // resident on all multiprocessors, 4 x that in rounds; capped by memory).
  int ivms = 0;
  // Nodes each IVM decomposes per kernel launch; 0: a default (engine_setup.cu: fewer with
  // LB2, whose nodes cost more, so that stealing refills idle IVMs as often).
  int steps_per_launch = 0;
  // A stealing phase runs when fewer than this fraction of the IVMs explore (2022 §3.1).
  double steal_trigger = 0.8;
  // Which interval an idle IVM takes from its neighbours (device_types.hpp, StealRule; the
  // largest neighbour: docs/scale.md measures both).
  StealRule steal_rule = StealRule::kLargestNeighbour;
  // Intervals shorter than this many leaves are never stolen (0: a default from n).
  double min_steal_leaves = 0;
  // Where warps keep their IVM: 0 auto, 1 all in shared memory, 2 bound summaries in global
  // memory, 3 all in global memory (gpu/warp/device_types.hpp, Placement). Tests force each.
  int placement = 0;
  // Node selection by the whole warp (warp::advance) or by lane 0 (ivm::advance); same nodes.
  bool warp_select = true;
  // LB2 bounds: compacted (remap) or static thread-to-child mapping (device_types.hpp,
  // GpuMapping); same nodes.
  bool remap = true;
  // LB2 with remap: pairs each lane screens its child with before the warp finishes the
  // uncut children together (device_types.hpp; negative: one lane per child throughout);
  // same nodes.
  int lb2_screen = kDefaultLb2Screen;
  // LB2 with remap: a node's pair terms are shared by its children while at least this many
  // are still open (device_types.hpp, kLb2SharedOff = 0: never; negative: kDefaultLb2Shared
  // from kLb2SharedMinJobs jobs on, else never);
  // same nodes.
  int lb2_shared = -1;
  // LB2 bounds: Johnson's tables in shared memory per block (1), in global memory (2), or
  // chosen from the occupancy that shared memory leaves (0).
  int johnson_placement = 0;
  // Warps per block of the exploration kernel, 1..kMaxWarpsPerBlock; 0: kLb2WarpsPerBlock
  // with Johnson's tables in shared memory, else kWarpsPerBlock (device_types.hpp).
  int warps_per_block = 0;
  // Lanes per IVM with LB1: 32, or 16 / 8 to pack 2 / 4 IVMs into a warp (docs/gpu.md,
  // "Teams"); 0: a default from n. The LB2 kernels take only 32 (or 0).
  int team_width = 0;
  // IVM pools on the device, each with its K IVMs, stream and feeding thread, explored side
  // by side (gpu/engine/engine_group.hpp); 0: kDefaultGpuPools.
  int pools = 0;
  // Certificates (docs/audit.md): the cut this engine records (none: it records nothing).
  std::optional<CutRecording> cut;
  // The persistent explorer (docs/gpu.md, "The persistent explorer"): one launch per
  // synchronisation period, its teams sharing work on the device; false: rounds of launches
  // with a stealing phase between two. Both record a certificate (docs/audit.md).
  bool persistent = true;
  // Persistent explorer: steps a team explores between two looks at the work queue (0: a
  // default, engine_setup.cu) and halves one look may queue (device_types.hpp, PersistParams;
  // for tuning).
  int chunk_steps = 0;
  int max_shares = 1;
};

// Pools per device when GpuOptions::pools is 0 (docs/performance.md, "One engine per GPU").
inline constexpr int kDefaultGpuPools = 1;

// The pools a request for `requested` makes (0: the default).
inline int gpu_pools(int requested) { return requested > 0 ? requested : kDefaultGpuPools; }

// Where an engine's set-up went, in seconds (logged at debug level: docs/scale.md, "The start
// at four GPUs"): the device chosen, its context made and the tables uploaded (the first
// call that needs a context makes it), the kernels' attributes and occupancy read (their code
// loaded), the IVMs' memory allocated.
struct GpuSetupSeconds {
  double device = 0;
  double tables = 0;
  double kernels = 0;
  double memory = 0;
};

// What the engine chose, for reports and benchmarks.
struct GpuEngineInfo {
  DeviceInfo device;
  GpuSetupSeconds setup_seconds;
  int ivms = 0;
  int steps_per_launch = 0;
  std::string placement;  // "shared", "stack-global", "global"
  bool times_in_shared = false;
  bool johnson_in_shared = false;  // LB2: Johnson's tables copied to shared memory
  std::string mapping;             // LB2: "remap" or "static"
  int shared_bytes_per_block = 0;
  int warps_per_block = 0;
  int team_width = 32;     // lanes per IVM
  int resident_warps = 0;  // exploration warps resident on the whole device
  bool persistent = false;  // the persistent explorer (else rounds)
  int chunk_steps = 0;      // its steps between two looks at the work queue
};

class GpuEngine : public SearchEngine {
 public:
  // Every bound (LB2 kinds up to kMaxGpuLb2Machines machines, std::invalid_argument beyond)
  // and every branching rule, any n >= 1. Throws std::runtime_error for CUDA failures (out
  // of memory: with a suggested K).
  GpuEngine(const Instance& instance, const SearchSettings& settings, Incumbent& incumbent,
            const GpuOptions& options);
  ~GpuEngine() override;
  GpuEngine(const GpuEngine&) = delete;
  GpuEngine& operator=(const GpuEngine&) = delete;

  std::string name() const override { return "gpu"; }
  void set_work(const std::vector<Interval>& intervals) override;
  bool explore(std::chrono::duration<double> budget) override;
  std::vector<Interval> remaining() override;
  void request_stop() override;
  EngineStats stats() const override;
  // Downloads the sampled IVMs' line, position, directions and matrix and decodes them on
  // the host (ivm::decode_copy).
  std::vector<PromotedSubproblem> sample_subproblems(int count) override;
  // The records the kernel wrote (drained at every synchronisation) and every IVM's open
  // record so far, split there (gpu/warp/device_cut.hpp).
  bool collect_cut(SearchCut& into) override;

  const GpuEngineInfo& info() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// The GPU engine behind the SearchEngine interface: one GpuEngine, or an EngineGroup of
// gpu_pools(options.pools) of them on the device (throws "built without CUDA" in builds without
// nvcc).
std::unique_ptr<SearchEngine> make_gpu_engine(const Instance& instance,
                                              const SearchSettings& settings,
                                              Incumbent& incumbent, const GpuOptions& options);

// What make_gpu_engine's engine chose (its first pool's, for a group of pools).
const GpuEngineInfo& engine_info(SearchEngine& engine);

}  // namespace permbb::gpu
