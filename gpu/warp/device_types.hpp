#pragma once
// The plain structs kernels receive by value: where the K IVMs live in device memory
// (PoolView), the small control block read back by the host each synchronisation (Control),
// and how a warp lays its IVM out in shared memory (WarpLayout). Host and device code.
#include <cstddef>
#include <cstdint>

#include "branching.hpp"
#include "device_cut.hpp"
#include "flowshop_types.hpp"
#include "flowshop_view.hpp"
#include "host_device.hpp"
#include "lb2.hpp"
#include "search_settings.hpp"
#include "work_queue.hpp"

namespace permbb::gpu {

// 2016 §3.3.1: an IVM cycles through exploring -> empty -> initializing -> exploring.
enum IvmState : int { kEmpty = 0, kExploring = 1, kInitializing = 2 };

// The K IVMs in global memory: one array per field, each IVM's entries contiguous (a warp
// reads its own IVM with coalesced accesses, and the host copies intervals field by field).
struct PoolView {
  int count = 0;  // K
  int n = 0;
  int m = 0;
  long long cells = 0;   // matrix cells per IVM: n(n+1)/2 (2016 Eq. 2)
  int cell_bytes = 1;    // 1: int8_t cells (n < 128), 2: int16_t
  int* line = nullptr;   // K
  int* state = nullptr;  // K, IvmState
  int* pos = nullptr;    // K x n
  int* end = nullptr;    // K x n
  int* dir = nullptr;    // K x n
  void* matrix = nullptr;    // K x cells
  Time* stack = nullptr;     // K x n levels x 3m: front, back, remain of each level
  Time* bounds = nullptr;    // K x kBoundsPerJob n: children bounds and LB2 scratch (when
                             // not in shared memory; see WarpExplorer)
  unsigned long long* decomposed = nullptr;  // K
  unsigned long long* leaves = nullptr;      // K
  int* best_schedule = nullptr;              // K x n: each IVM's last improving leaf
  double* length = nullptr;  // K: remaining interval as a fraction of n! (-1: not a victim)
  int* claimed = nullptr;    // K: 1 once chosen as a victim in this stealing phase
  int* scratch = nullptr;    // K x n: factoradic work space
  const int* min_steal = nullptr;  // n digits: the smallest interval worth stealing
  Time* lb2_scratch = nullptr;     // K x lb2_scratch_times(n, m) with LB2 (warp_lb2_shared.cuh)
};

// The incumbent on the device: (makespan << 32) | index of the IVM whose best_schedule holds
// it, kNoSchedule when the value came from the host. atomicMin keeps the pair consistent.
inline constexpr std::uint32_t kNoSchedule = 0xffffffffu;
PERMBB_HD unsigned long long make_best_key(Time value, std::uint32_t ivm) {
  return (static_cast<unsigned long long>(static_cast<std::uint32_t>(value)) << 32) | ivm;
}
PERMBB_HD Time key_value(unsigned long long key) { return static_cast<Time>(key >> 32); }
PERMBB_HD std::uint32_t key_ivm(unsigned long long key) {
  return static_cast<std::uint32_t>(key & 0xffffffffu);
}

// Which candidates a thief may take. Lengths count permutations, not nodes: an interval that
// is huge but pruned near its root holds little work.
//  - kMean (2022 §3.4): the first neighbour whose length reaches the mean of the exploring
//    IVMs' lengths. A few huge, nearly empty intervals lift the mean above every interval
//    that holds the real work, which then is never split (docs/scale.md, the thin GPU).
//  - kLargestNeighbour: the longest candidate among the neighbours, whatever its length
//    (candidates reach the minimum steal length in any case). A threshold from the
//    lengths' geometric mean was tried too: with many equal lengths it rounds above them all.
enum class StealRule : int { kMean = 0, kLargestNeighbour = 1 };

// Device counters; the first three are reset before each round's exploration kernel.
struct Control {
  int active = 0;         // IVMs still exploring after the round's exploration kernel
  int cut_pending = 0;    // recording: IVMs the cut pass stepped or started (not clean yet)
  int length_count = 0;   // victims measured in this round
  double length_sum = 0;  // and the sum of their lengths (for the average, 2022 §3.4)
  unsigned long long best_key = 0;
  unsigned long long steals = 0;
};
inline constexpr std::size_t kControlResetBytes = offsetof(Control, best_key);

// Where a warp keeps its IVM while it explores (2016 §4.3: "4-8 IVMs per block in shared
// memory"). kShared: IVM, children bounds and the per-level bound summaries in shared memory;
// kStackGlobal: the summaries stay in global memory; kGlobal: everything in global memory
// (for large n). Chosen from the device's shared memory, or forced (tests).
enum class Placement : int { kAuto = 0, kShared = 1, kStackGlobal = 2, kGlobal = 3 };

// Per IVM in global memory, pool.bounds holds kBoundsPerJob x n entries: the front and back
// children bounds, then for LB2 the compacted child list and the node's fixed-job flags.
inline constexpr int kBoundsPerJob = 4;

// Times per IVM of the LB2 kernels' scratch in global memory (warp_lb2_shared.cuh,
// Lb2Scratch): the changed sides of 2n children (m each), then the terms and W of n jobs.
PERMBB_HD long long lb2_scratch_times(int n, int m) { return 2LL * n * m + 2LL * n; }

// The persistent explorer's progress through its launch, one per team in the launch's shared
// memory (WarpLayout::progress), read and written by the team's lane 0 alone
// (warp_persistent.cuh, team_loop). In registers these 64-bit values stayed live across the
// exploration's steps, where the child bound's loop needs every register (docs/gpu.md, "No
// register to spare"). 16 bytes: the IVM's state stays in registers (every lane tests it at
// every step), whether the team is hungry follows from it, and the back-off lives only while
// the team polls.
struct TeamProgress {
  long long chunk;              // chunks explored and polls of the queue in this launch
  unsigned long long started;   // lane 0's clock at the launch's start
};
static_assert(sizeof(TeamProgress) == 16, "a team's slot is 16 bytes (make_warp_layout)");

// Byte offsets of one team's shared-memory workspace.
struct WarpLayout {
  int pos = 0, end = 0, dir = 0, line = 0;
  int lb_front = 0, lb_back = 0;  // lb_back = lb_front + n entries: lb[direction * n + i]
  int todo = -1;       // LB2: n ints, the children still to bound (-1: none)
  int scheduled = -1;  // LB2: n flags, the jobs fixed in the node being decomposed
  int stack = -1;   // -1: global
  int matrix = 0;
  int progress = -1;  // the persistent explorer: the team's TeamProgress (-1: none)
  int bytes = 0;    // 0: no workspace (the IVM in global memory, no progress slot)
};

PERMBB_HD int align16(long long bytes) { return static_cast<int>((bytes + 15) / 16 * 16); }

// The stack level whose 3m times hold the tails of the children being bounded (2m,
// warp_lb1.cuh, child_tails): the deepest, n - 1. A node is bounded at level n - 2 at most,
// and level n - 1 is written (the summary of a leaf's parent's child) before each read, so it
// is free scratch while children are bounded, and the tails cost no memory (an extra level
// cost an H200 an eighth of its resident teams on VFR30_15_2). With one job the root, at
// level 0, is bounded: a second level holds them.
PERMBB_HD int tails_level(int n) { return n < 2 ? 1 : n - 1; }

// Times of an IVM's stack: the summaries (front, back, remain: 3m each) of its n levels, or
// two with one job (tails_level).
PERMBB_HD long long stack_times(int n, int m) { return 3LL * m * (tails_level(n) + 1); }

// The workspace of a team: its IVM's fields where `placement` keeps them in shared memory,
// then, for the persistent explorer, its TeamProgress, 16-aligned after the last field (the
// only shared memory a team has with Placement::kGlobal). At 16 bytes a team, every Taillard
// and VRF size keeps its placement and resident blocks on an H200 (computed; docs/gpu.md, "No
// register to spare"), where 32 would move VFR40_15 with LB1 to the stack-global placement.
PERMBB_HD WarpLayout make_warp_layout(int n, int m, int cell_bytes, Placement placement,
                                      bool lb2, bool persistent) {
  const int progress_bytes = align16(sizeof(TeamProgress));
  WarpLayout l;
  if (placement == Placement::kGlobal) {
    if (persistent) {
      l.progress = 0;
      l.bytes = progress_bytes;
    }
    return l;
  }
  const int ints = static_cast<int>(sizeof(int));
  l.pos = 0;
  l.end = l.pos + n * ints;
  l.dir = l.end + n * ints;
  l.line = l.dir + n * ints;
  l.lb_front = align16(l.line + ints);
  l.lb_back = l.lb_front + n * ints;
  int next = align16(l.lb_back + n * ints);
  if (lb2) {
    l.todo = next;
    l.scheduled = l.todo + n * ints;
    next = align16(l.scheduled + n);
  }
  if (placement == Placement::kShared) {
    l.stack = next;
    next = align16(next + stack_times(n, m) * ints);
  }
  l.matrix = next;
  l.bytes = align16(next + static_cast<long long>(n) * (n + 1) / 2 * cell_bytes);
  if (persistent) {
    l.progress = l.bytes;
    l.bytes += progress_bytes;
  }
  return l;
}

// Bytes of the per-block shared copy of Johnson's tables: the pairs' machines, then the
// sequences (explore_kernel.cuh, johnson_in_shared).
PERMBB_HD int johnson_shared_bytes(const JohnsonView& johnson) {
  return align16(8LL * johnson.pairs) +
         align16(static_cast<long long>(sizeof(JohnsonEntry)) * johnson.pairs * johnson.stride);
}

// The device's JohnsonView::stride: an odd number of 16-byte entries, so that lanes reading
// the same rank of consecutive pairs (warp_lb2.cuh, finish_child_across_lanes) hit distinct
// shared-memory banks: a 16-byte load is served 8 lanes at a time, and 8 entries 4 * stride
// words apart cover all 32 banks exactly when stride is odd.
PERMBB_HD int device_johnson_stride(int jobs) { return jobs | 1; }

// How a warp selects the next node: ivm::advance on lane 0, or warp::advance (a ballot over
// the row and one warp-parallel comparison with the end vector; same results).
inline constexpr int kSelectLane0 = 0;
inline constexpr int kSelectWarp = 1;

// The bounding of the exploration kernel: LB1 only; LB2 for both children sets (the pairs
// are those of `johnson`); or LB1 for both sets then LB2 for the kept set's survivors.
enum class GpuBound : int { kLb1 = 0, kLb2 = 1, kLb1ThenLb2 = 2 };

// The kernel's bounding for a bound kind (lb2 and lb2-adjacent differ only in the pairs of
// the Johnson tables).
inline GpuBound gpu_bound_of(BoundKind bound) {
  switch (bound) {
    case BoundKind::kLb1: return GpuBound::kLb1;
    case BoundKind::kLb1ThenLb2: return GpuBound::kLb1ThenLb2;
    default: return GpuBound::kLb2;
  }
}

// How LB2 work is mapped onto the lanes of a warp (2016 §4.1): kStatic, a pass per direction
// with lane i on child i whatever its state (Algorithm 4); kRemap, the work compacted first,
// front and back children interleaved on consecutive lanes (Algorithm 5) and, for lb1+lb2,
// only the survivors of LB1 listed by a warp prefix sum (Algorithm 7, ballot and popc).
enum class GpuMapping : int { kStatic = 0, kRemap = 1 };

// Per-lane scratch of the LB2 child bound lives in registers/local memory: up to this many
// machines (every Taillard and VRF instance).
inline constexpr int kMaxGpuLb2Machines = 64;

// LB2's two phases (warp_lb2.cuh, bound_items_lb2): kLb2ScreenOff keeps one lane per child
// over every pair; N >= 0 screens each child with its first N pairs on its lane and finishes
// the uncut ones with the whole warp over the pairs. The default, measured on ta021-ta030 on
// an H200 (docs/performance.md, "LB2 on the GPU"): 1.6-1.9x faster than one lane per child,
// about the same for N from 0 to 4.
inline constexpr int kLb2ScreenOff = -1;
inline constexpr int kDefaultLb2Screen = 2;

// LB2 shared between a node's children (warp_lb2_shared.cuh), kRemap only: a pair's terms are
// built once for the node while at least this many of its children are below the cutoff; the
// rest finish as in the second phase of the screen. 0: never (the screen, or one lane per
// child). By default from kLb2SharedMinJobs jobs on, while kDefaultLb2Shared children are open:
// measured on an H200 (docs/gpu.md, "LB2 shared between children"), it made lb2 2.3x, 3.6x and
// 14x faster at 50, 100 and 200 jobs, and every threshold was slower at 20.
inline constexpr int kLb2SharedOff = 0;
inline constexpr int kDefaultLb2Shared = 16;
inline constexpr int kLb2SharedMinJobs = 50;

// The persistent explorer's launch (warp_persistent.cuh, docs/gpu.md "The persistent
// explorer"): each team explores chunks of `chunk_steps` steps, looking at the work queue and
// the clock between two, and leaves after `max_chunks` chunks (or polls of the queue) or
// `period_ns` nanoseconds from its start (0: no time limit), or once no work is left.
struct PersistParams {
  WorkQueueView queue;
  int chunk_steps = 128;
  int max_shares = 1;  // halves a team queues at one look, at most
  long long max_chunks = 1LL << 40;
  unsigned long long period_ns = 0;
};

// Launch-wide settings of the exploration kernel.
struct ExploreParams {
  FlowshopView data;  // global memory
  GpuBound bound = GpuBound::kLb1;
  GpuMapping mapping = GpuMapping::kRemap;
  int lb2_screen = kLb2ScreenOff;  // kRemap only
  int lb2_shared = kLb2SharedOff;  // kRemap only
  JohnsonView johnson;         // device memory (LB2 only)
  bool johnson_shared = false;  // a per-block copy of johnson's arrays in shared memory
  int johnson_bytes = 0;        // its size, 16-aligned (0 when not shared)
  BranchingRule rule = BranchingRule::kMinMin;
  Placement placement = Placement::kGlobal;  // never kAuto here
  WarpLayout layout;
  bool times_shared = false;  // a per-block copy of the processing times in shared memory
  int times_bytes = 0;        // its size, 16-aligned (0 when not shared)
  int steps = 0;              // steps per IVM in one launch
  int settle = 0;             // 1: run each IVM to a clean point instead (ivm::at_clean_point)
  int select = kSelectWarp;   // kSelectLane0 or kSelectWarp
  int warps_per_block = 4;    // the exploration kernel's blocks (kWarpsPerBlock, below)
  int team_width = 32;        // lanes per IVM: 32, 16 or 8 (LB1 only; kTeamWidths, below)
  Control* control = nullptr;
  CutBufferView cut;          // certificates: where the kernel records its cut (depth -1: not)
  int cut_pass = 0;           // recording: 1 for the cut pass, 0 for the exploring pass
  int persistent = 0;         // 1: the persistent explorer (its kernels, `persist`)
  PersistParams persist;
};

// The exploration kernel's blocks: 4 warps (2022 §3.2), except with Johnson's tables in shared
// memory, where one copy serves all the warps of a block: on 20 machines the 64 KB copy let
// blocks of 4 keep 12 warps resident per SM, blocks of 16 keep 32 (the register limit).
inline constexpr int kWarpsPerBlock = 4;
inline constexpr int kLb2WarpsPerBlock = 16;
inline constexpr int kMaxWarpsPerBlock = 16;

// Warp packing (docs/gpu.md, "Teams"): the LB1 kernel can drive an IVM with a team of 16 or
// 8 lanes, so that 2 or 4 IVMs share a warp; rows longer than the team take more passes, but
// most nodes of a tree lie deep, where rows are short. The LB2 kernels keep whole warps.
inline constexpr int kWholeWarp = 32;
inline constexpr int kTeamWidths[] = {kWholeWarp, 16, 8};
PERMBB_HD bool is_team_width(int width) { return width == kWholeWarp || width == 16 || width == 8; }

// The IVMs one block of the exploration kernel drives.
PERMBB_HD int ivms_per_block(const ExploreParams& params) {
  return params.warps_per_block * (kWholeWarp / params.team_width);
}

}  // namespace permbb::gpu
