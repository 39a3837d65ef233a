#include "engine_setup.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "ivm_pool.hpp"
#include "kernels.hpp"

namespace permbb::gpu {
namespace {

// Processing times go to shared memory (one copy per block) up to this size; larger tables
// are read from global memory. Lanes bound different children, so they read different jobs'
// times: constant memory would serialise those reads, shared memory serves them at once.
constexpr int kMaxSharedTimesBytes = 16 * 1024;
// Johnson's tables (LB2) go to shared memory up to this size when not forced either way. On
// an H100, ta030 with LB2 over all pairs (61 KB of tables) ran 1.8x faster with them in
// shared memory than from global memory, although fewer warps stay resident
// (docs/performance.md, "LB2 on the GPU").
constexpr int kMaxSharedJohnsonBytes = 96 * 1024;
// Shared-memory placements are taken only when this many warps stay resident per SM (or as
// many as registers allow, if fewer).
constexpr int kMinResidentWarpsPerSm = 24;
constexpr int kDefaultSteps = 256;
// The persistent explorer's steps between two looks at the work queue and the clock: a look
// is one load from global memory by lane 0, which the team waits for; hungry teams wait for
// the first donor that looks. On an H200 (exploration alone, docs/gpu.md "The persistent
// explorer"), 128 steps beat 4 to 64 on ta021, ta022, ta023, ta025, ta028 and ta030; 256 are
// as fast on the small trees and 1 % slower on ta023.
constexpr int kDefaultChunkSteps = 128;
// LB2 alone: its nodes cost 10-100x LB1's (as kDefaultLb2Steps). Over ta021-ta022, ta024-ta030
// at the optimum, 32 steps took 14.2 s, 8 to 64 steps 14.2-14.4 s and the rounds 15.5 s; at
// 128 the persistent explorer was slower than the rounds. lb1+lb2, whose nodes LB1 mostly
// prunes, was faster than the rounds at 128 (docs/performance.md, "GPU explorer v3").
constexpr int kDefaultLb2ChunkSteps = 32;
// LB2 nodes cost 10-100x LB1's: at 256 steps a launch lasted about 0.2 s on ta021 and the IVMs
// that ran dry early waited out the rest of it (ncu: 6 of 32 warps per SM active). 16-64
// steps were within 5 % of each other on ta021, ta023, ta026, ta029 (H200, lb2).
constexpr int kDefaultLb2Steps = 64;
// LB1's team width when none is asked for: whole warps. Teams of 16 or 8 lanes keep fewer
// lanes busy per instruction, not more (ncu on an H100: 20.2 and 17.8 threads per executed
// instruction against 22.8), because the teams of a warp diverge: each runs its own IVM's
// control flow, and the warp issues their paths one after the other. Over ta021-ta030 they
// took 6.77 s (16) and 6.02 s (8) against 6.20 s (32), and were slower on 50 to 200 jobs
// (docs/gpu.md, "Teams").
constexpr int kDefaultTeamWidth = kWholeWarp;

const char* placement_name(Placement p) {
  switch (p) {
    case Placement::kShared: return "shared";
    case Placement::kStackGlobal: return "stack-global";
    default: return "global";
  }
}

DeviceInfo select_device(int index) {
  const std::vector<DeviceInfo> devices = list_devices();
  if (devices.empty()) throw std::runtime_error("GPU explorer: no CUDA device is visible");
  if (index < 0 || index >= static_cast<int>(devices.size())) {
    throw std::invalid_argument("GPU explorer: device " + std::to_string(index) +
                                " does not exist (" + std::to_string(devices.size()) +
                                " visible)");
  }
  PERMBB_CUDA_CHECK(cudaSetDevice(index));
  return devices[index];
}

void upload_tables(const FlowshopTables& tables, DeviceData& data) {
  data.times_by_job.allocate(tables.times_by_job().size());
  data.times_by_job.upload(tables.times_by_job());
  data.min_heads.allocate(tables.min_heads().size());
  data.min_heads.upload(tables.min_heads());
  data.min_tails.allocate(tables.min_tails().size());
  data.min_tails.upload(tables.min_tails());
  data.total_times.allocate(tables.total_times().size());
  data.total_times.upload(tables.total_times());
}

// Resident warps per SM for a placement, 0 when its block does not fit at all. Every kernel
// the run launches may take that much shared memory: the persistent explorer settles with the
// rounds' kernel, and a recording run (params.cut.depth >= 0) follows each exploring pass with
// its cut pass. A kernel not configured fails to launch once a block's shared memory passes
// the default limit (48 KB).
int resident_warps_per_sm(const ExploreParams& params, int cell_bytes, const DeviceInfo& device) {
  if (explore_shared_bytes(params) > device.shared_memory_per_block) return 0;
  configure_explore_kernel(cell_bytes, params);
  if (params.persistent) {
    ExploreParams settling = params;
    settling.settle = 1;
    configure_explore_kernel(cell_bytes, settling);
  }
  if (params.cut.depth >= 0) {
    ExploreParams cut_pass = params;
    cut_pass.cut_pass = 1;
    configure_explore_kernel(cell_bytes, cut_pass);
  }
  return explore_blocks_per_sm(cell_bytes, params) * params.warps_per_block;
}

// LB2: Johnson's tables uploaded into `data`, params.johnson pointing at them, and whether
// the kernel copies them to shared memory.
void prepare_johnson(const JohnsonTables& johnson, int forced, ExploreParams& params,
                     DeviceData& data) {
  data.machine_a.allocate(johnson.machine_a().size());
  data.machine_a.upload(johnson.machine_a());
  data.machine_b.allocate(johnson.machine_b().size());
  data.machine_b.upload(johnson.machine_b());
  const int stride = device_johnson_stride(johnson.jobs());
  const std::vector<JohnsonEntry> sequence = johnson.sequence_with_stride(stride);
  data.sequence.allocate(sequence.size());
  data.sequence.upload(sequence);
  params.johnson = {johnson.pair_count(), johnson.jobs(), data.machine_a.data(),
                    data.machine_b.data(), data.sequence.data(), stride};
  if (forced < 0 || forced > 2) {
    throw std::invalid_argument("GPU explorer: Johnson placement must be 0..2");
  }
  const int bytes = johnson_shared_bytes(params.johnson);
  params.johnson_shared = forced == 1 || (forced == 0 && bytes <= kMaxSharedJohnsonBytes);
  params.johnson_bytes = params.johnson_shared ? bytes : 0;
}

// The exploration kernel's block size: the one asked for, or kLb2WarpsPerBlock where a block
// holds a copy of Johnson's tables (fewer copies per SM, more warps resident), else
// kWarpsPerBlock.
int warps_per_block(int requested, const ExploreParams& params) {
  if (requested < 0 || requested > kMaxWarpsPerBlock) {
    throw std::invalid_argument("GPU explorer: warps per block must be 1.." +
                                std::to_string(kMaxWarpsPerBlock));
  }
  if (requested > 0) return requested;
  return params.johnson_shared ? kLb2WarpsPerBlock : kWarpsPerBlock;
}

// The lanes per IVM: the one asked for, else kDefaultTeamWidth with LB1; the LB2 kernels
// run whole warps.
int team_width(int requested, GpuBound bound) {
  if (requested != 0 && !is_team_width(requested)) {
    throw std::invalid_argument("GPU explorer: a team is 8, 16 or 32 lanes, not " +
                                std::to_string(requested));
  }
  if (!PERMBB_GPU_TEAMS && requested != 0 && requested != kWholeWarp) {
    throw std::invalid_argument("GPU explorer: teams of " + std::to_string(requested) +
                                " lanes are not built in (configure with -DPERMBB_GPU_TEAMS=ON)");
  }
  if (bound != GpuBound::kLb1) {
    if (requested != 0 && requested != kWholeWarp) {
      throw std::invalid_argument("GPU explorer: teams of fewer than 32 lanes bound with LB1 only");
    }
    return kWholeWarp;
  }
  return requested != 0 ? requested : kDefaultTeamWidth;
}

// Fixes params.layout: the forced placement, or the first of shared / stack-global that
// keeps enough warps resident, else global. Returns the resident warps per SM.
int choose_placement(ExploreParams& params, int n, int m, int cell_bytes, Placement forced,
                     const DeviceInfo& device, Placement& chosen) {
  const bool lb2 = params.bound != GpuBound::kLb1;
  const bool persistent = params.persistent != 0;  // each team's progress in its workspace
  params.placement = Placement::kGlobal;
  params.layout = make_warp_layout(n, m, cell_bytes, Placement::kGlobal, lb2, persistent);
  const int unlimited = resident_warps_per_sm(params, cell_bytes, device);
  const int wanted = std::min(kMinResidentWarpsPerSm, unlimited);
  const Placement order[] = {Placement::kShared, Placement::kStackGlobal, Placement::kGlobal};
  for (Placement p : order) {
    if (forced != Placement::kAuto && p != forced) continue;
    params.placement = p;
    params.layout = make_warp_layout(n, m, cell_bytes, p, lb2, persistent);
    const int warps = resident_warps_per_sm(params, cell_bytes, device);
    const bool enough = warps >= wanted || p == Placement::kGlobal;
    if (warps > 0 && (enough || forced != Placement::kAuto)) {
      chosen = p;
      return warps;
    }
  }
  throw std::invalid_argument(std::string("GPU explorer: placement '") + placement_name(forced) +
                              "' needs more shared memory than a block may have");
}

// K: as many IVMs as teams stay resident (the persistent explorer: one team per IVM for the
// whole launch), or 4 x that (rounds: the block scheduler deals them out in waves).
int choose_ivms(int requested, int resident_teams, int n, int m, bool lb2, bool persistent) {
  if (requested > 0) return requested;
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  PERMBB_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const long long by_memory =
      static_cast<long long>(free_bytes) / 2 / IvmPool::bytes_per_ivm(n, m, lb2);
  const long long wanted = (persistent ? 1LL : 4LL) * resident_teams;
  const long long k = std::max<long long>(kWarpsPerBlock, std::min(wanted, by_memory));
  return static_cast<int>(k / kWarpsPerBlock * kWarpsPerBlock);
}

// Seconds since `since`, which moves on to now: one phase of the set-up after another.
double lap(std::chrono::steady_clock::time_point& since) {
  const auto now = std::chrono::steady_clock::now();
  const double seconds = std::chrono::duration<double>(now - since).count();
  since = now;
  return seconds;
}

}  // namespace

EngineSetup prepare_engine(const FlowshopTables& tables, const JohnsonTables* johnson,
                           const SearchSettings& settings, const GpuOptions& options,
                           DeviceData& data) {
  EngineSetup setup;
  GpuSetupSeconds& took = setup.info.setup_seconds;
  auto phase = std::chrono::steady_clock::now();
  setup.info.device = select_device(options.device);
  took.device = lap(phase);
  upload_tables(tables, data);
  took.tables = lap(phase);
  const int n = tables.jobs();
  const int m = tables.machines();
  const int cell_bytes = n < 128 ? 1 : 2;
  ExploreParams& params = setup.params;
  params.data = {n, m, data.times_by_job.data(), data.min_heads.data(), data.min_tails.data(),
                 data.total_times.data()};
  params.rule = settings.branching;
  params.bound = gpu_bound_of(settings.bound);
  params.mapping = options.remap ? GpuMapping::kRemap : GpuMapping::kStatic;
  const bool screened = options.lb2_screen >= 0 && options.remap;
  params.lb2_screen = screened ? options.lb2_screen : kLb2ScreenOff;
  const int shared_by_default = n >= kLb2SharedMinJobs ? kDefaultLb2Shared : kLb2SharedOff;
  const int shared_from = options.lb2_shared < 0 ? shared_by_default : options.lb2_shared;
  params.lb2_shared = options.remap ? shared_from : kLb2SharedOff;
  if (params.bound != GpuBound::kLb1) {
    if (johnson == nullptr) throw std::invalid_argument("GPU explorer: LB2 needs JohnsonTables");
    // The screen's own pairs should be the likeliest to cut: the root order (the host keeps
    // its order, so its bounds at or above a cutoff may differ from the device's: same pruning).
    if (params.lb2_screen == kLb2ScreenOff && params.lb2_shared == kLb2SharedOff) {
      prepare_johnson(*johnson, options.johnson_placement, params, data);
    } else {
      prepare_johnson(johnson->reordered(pairs_by_root_bound(tables.view(), *johnson)),
                      options.johnson_placement, params, data);
    }
  }
  params.warps_per_block = warps_per_block(options.warps_per_block, params);
  params.team_width = team_width(options.team_width, params.bound);
  params.select = options.warp_select ? kSelectWarp : kSelectLane0;
  params.persistent = options.persistent ? 1 : 0;
  // The recording kernels are chosen and configured by the cut's depth; GpuEngine points the
  // cut at its buffer once the pool is allocated.
  if (options.cut) params.cut.depth = options.cut->depth;
  const int default_chunk =
      params.bound == GpuBound::kLb2 ? kDefaultLb2ChunkSteps : kDefaultChunkSteps;
  params.persist.chunk_steps = options.chunk_steps > 0 ? options.chunk_steps : default_chunk;
  params.persist.max_shares = options.max_shares;
  const int default_steps = params.bound == GpuBound::kLb1 ? kDefaultSteps : kDefaultLb2Steps;
  params.steps = options.steps_per_launch > 0 ? options.steps_per_launch : default_steps;
  const int times_bytes = align16(4LL * n * m);
  params.times_shared = times_bytes <= kMaxSharedTimesBytes;
  params.times_bytes = params.times_shared ? times_bytes : 0;
  if (options.placement < 0 || options.placement > 3) {
    throw std::invalid_argument("GPU explorer: placement must be 0..3");
  }
  Placement chosen = Placement::kGlobal;
  const int warps_per_sm = choose_placement(params, n, m, cell_bytes,
                                            static_cast<Placement>(options.placement),
                                            setup.info.device, chosen);
  took.kernels = lap(phase);  // with Johnson's tables (LB2), uploaded above
  setup.info.placement = placement_name(chosen);
  setup.info.times_in_shared = params.times_shared;
  setup.info.johnson_in_shared = params.johnson_shared;
  setup.info.mapping = params.mapping == GpuMapping::kRemap ? "remap" : "static";
  setup.info.shared_bytes_per_block = explore_shared_bytes(params);
  setup.info.warps_per_block = params.warps_per_block;
  setup.info.team_width = params.team_width;
  setup.info.resident_warps = warps_per_sm * setup.info.device.multiprocessors;
  const int resident_teams = setup.info.resident_warps * (kWholeWarp / params.team_width);
  setup.info.ivms = choose_ivms(options.ivms, resident_teams, n, m,
                                params.bound != GpuBound::kLb1, params.persistent);
  setup.info.steps_per_launch = params.steps;
  setup.info.persistent = params.persistent;
  setup.info.chunk_steps = params.persist.chunk_steps;
  return setup;
}

Time makespan_of(const FlowshopTables& tables, const std::vector<int>& schedule) {
  const FlowshopView d = tables.view();
  std::vector<Time> done(d.machines, 0);
  for (int job : schedule) {
    done[0] += d.time(job, 0);
    for (int k = 1; k < d.machines; ++k) done[k] = std::max(done[k], done[k - 1]) + d.time(job, k);
  }
  return done.back();
}

}  // namespace permbb::gpu
