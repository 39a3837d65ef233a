#pragma once
// The persistent explorer's team loop (docs/gpu.md, "The persistent explorer"). A launch has
// one team per IVM, as many teams as the device keeps resident; each team keeps its IVM in its
// workspace for the whole launch and explores it in chunks of steps. Between two chunks it
// looks at the work queue (work_queue.hpp): when hungry teams wait, it queues halves of its
// interval for them. A team whose IVM runs dry asks for work and polls the queue, then starts
// the interval it takes (the thieves of 2022 §3.4, without a stealing phase between
// launches). A team leaves at the launch's deadline (or after its chunks), or once nothing is
// held or queued anywhere; it leaves its IVM normalised, as the rounds' exploration kernel does,
// so that a settle, remaining() and the host's bookkeeping see the same states.
//
// Node counting (docs/architecture.md) is the rounds' kernel's: a queued half is the right
// half of a normalised interval, cut strictly above its position (steal_logic.hpp), and a
// taken interval is started (replayed uncounted) like a thief's.
#include "device_types.hpp"
#include "warp_cut_pass.cuh"
#include "warp_explorer.cuh"
#include "warp_primitives.cuh"
#include "work_queue.hpp"

// A function of the device code that nvcc compiles on its own, not inlined (the host tests
// inline what they like).
#if defined(__CUDACC__)
#define PERMBB_NOT_INLINED __noinline__
#else
#define PERMBB_NOT_INLINED
#endif

namespace permbb::gpu {

// Lane 0 reads a queue word or its team's progress; the team follows its answer.
template <int kTeam, class Read>
__device__ bool team_reads(Read read) {
  bool answer = false;
  if (warp::lane<kTeam>() == 0) answer = read();
  return warp::broadcast_bool<kTeam>(answer);
}

// A team's progress through its launch (TeamProgress: chunk count and start clock), in its
// slot of the launch's shared memory (WarpLayout::progress) rather than in registers, where
// the two 64-bit values stayed live across every step and cost the child bound's loop its
// early loads (docs/gpu.md, "No register to spare"). Lane 0 alone reads and writes the slot
// and the team learns the answers by a shuffle (team_reads): no other lane touches it, so it
// needs no barrier (a hazard for racecheck were other lanes to read it unsynchronised).
inline __device__ TeamProgress* team_progress(const ExploreParams& params,
                                              unsigned char* workspace) {
  return reinterpret_cast<TeamProgress*>(workspace + params.layout.progress);
}

// Whether a team's launch is over: its chunks spent, or its time (lane 0's clock).
template <int kTeam>
__device__ bool persistent_launch_over(const PersistParams& persist,
                                       const TeamProgress* progress) {
  return team_reads<kTeam>([&] {
    if (progress->chunk >= persist.max_chunks) return true;
    return persist.period_ns != 0 && warp::clock_ns() - progress->started >= persist.period_ns;
  });
}

// The team's next chunk (or poll of the queue).
template <int kTeam>
__device__ void next_chunk(TeamProgress* progress) {
  if (warp::lane<kTeam>() == 0) ++progress->chunk;
}

// A hungry team's first pause between two polls of the queue, doubled while nothing comes up
// to kMaxBackOffNs. Thousands of teams poll one word when work is scarce (the start and the
// end of a search); at 8 us apart they load it about 5 x 10^8 times a second, and a queued
// interval waits at most about one step of a team's exploration. Longer pauses (up to 32 us)
// measured the same (docs/performance.md, "GPU explorer v3").
constexpr unsigned kFirstBackOffNs = 256;
constexpr unsigned kMaxBackOffNs = 8192;

// Recording (kPersistentRecord): the cut pass's code (warp_cut_pass.cuh) run by a team on its
// IVM, stored in global memory, where the team stopped (before a node at the cut level, its
// interval exhausted, or an interval taken), instead of in a launch of its own after the
// exploring pass: a team that took work would otherwise wait for the launch's end before it
// starts (docs/audit.md, "Recording with the persistent explorer"). Not inlined, and called
// where the team's explorer is gone (team_loop returned), so that the exploration loop keeps
// its registers. `done` false: the buffer had no room; the team leaves its launch, and the
// host's cut pass does the rest after a drain.
struct CutPassResult {
  int state;
  bool done;
};

template <class Cell, Placement kPlacement, bool kLb2, int kTeam>
PERMBB_NOT_INLINED __device__ CutPassResult cut_pass_here(const PoolView& pool,
                                                          const ExploreParams& params,
                                                          const Time* times, JohnsonView johnson,
                                                          unsigned char* workspace, int ivm) {
  const int state = cut_pass_ivm<Cell, kPlacement, kLb2, kTeam>(pool, params, times, johnson,
                                                                workspace, ivm);
  int pending = kPendingNone;
  if (warp::lane<kTeam>() == 0) pending = params.cut.open[ivm].pending;
  pending = warp::broadcast<kTeam>(pending);
  return {state, !cut_pass_takes(state, pending, 0)};
}

// A hungry team (it asked for work and holds none) polls the queue, pausing between two
// polls, until it takes an interval (true) or leaves (false): its launch is over (`over`; it
// then cancels its request or takes the interval the request became) or no work is left
// anywhere. Each poll counts as a chunk. The pause lives only here, not across the steps.
template <int kTeam, class Explorer>
__device__ bool take_work(Explorer& explorer, const PersistParams& persist,
                          TeamProgress* progress, bool& over) {
  unsigned back_off_ns = kFirstBackOffNs;
  while (!explorer.take(persist.queue, over)) {
    if (over || team_reads<kTeam>([&] { return queue_search_over(persist.queue); })) {
      return false;
    }
    warp::back_off<kTeam>(back_off_ns);
    back_off_ns = back_off_ns < kMaxBackOffNs / 2 ? 2 * back_off_ns : kMaxBackOffNs;
    next_chunk<kTeam>(progress);
    over = persistent_launch_over<kTeam>(persist, progress);
  }
  return true;
}

// The team loop: explores the IVM in chunks, shares and takes work, until the launch ends
// for the team (true) or, recording, the IVM needs the cut pass's code (false: the IVM is
// stored as `state`, with what is pending marked as for the rounds' cut pass). `state` stays
// in a register (every lane tests it at every step); an empty IVM's team is hungry: it has
// asked for work (explore_persistent, or below as it runs dry). The progress is in shared
// memory (team_progress).
template <class Cell, Placement kPlacement, bool kLb2, int kTeam, int kMode>
__device__ bool team_loop(const PoolView& pool, const ExploreParams& params, const Time* times,
                          const JohnsonView& johnson, unsigned char* workspace, int ivm,
                          int& state) {
  constexpr bool kRecord = kMode == kPersistentRecord;
  const PersistParams& persist = params.persist;
  const WorkQueueView& queue = persist.queue;
  TeamProgress* const progress = team_progress(params, workspace);
  WarpExplorer<Cell, kPlacement, kLb2, kTeam, kMode> explorer(pool, ivm, params, times, johnson,
                                                              workspace);
  if (state != kEmpty) explorer.load(state == kInitializing);
  for (;; next_chunk<kTeam>(progress)) {
    bool over = persistent_launch_over<kTeam>(persist, progress);
    if (state == kEmpty) {
      if (!take_work<kTeam>(explorer, persist, progress, over)) break;
      state = kInitializing;
    }
    if (over) break;
    if (state == kInitializing) {
      if constexpr (kRecord) {
        explorer.store(kInitializing);  // the cut pass's code starts it
        next_chunk<kTeam>(progress);
        return false;
      }
      state = explorer.start() ? kExploring : kEmpty;
    }
    for (int s = 0; s < persist.chunk_steps && state == kExploring; ++s) {
      if (!explorer.step()) {
        state = kEmpty;
      } else if constexpr (kRecord) {
        if (explorer.pending()) {
          explorer.store(kExploring);  // the cut pass's code takes the step
          next_chunk<kTeam>(progress);
          return false;
        }
      }
    }
    if (state == kExploring && team_reads<kTeam>([&] { return queue_has_requests(queue); })) {
      if (explorer.normalize()) {
        explorer.share(queue, persist.max_shares);
      } else {
        state = kEmpty;
      }
    }
    if (state == kEmpty) {
      if constexpr (kRecord) {
        explorer.leave_close_pending();  // its last record closes before it takes other work
        explorer.store(kEmpty);
        next_chunk<kTeam>(progress);
        return false;
      }
      if (warp::lane<kTeam>() == 0) queue_go_hungry(queue);
    }
    warp::let_others_run<kTeam>();
  }
  if (state == kExploring && !explorer.normalize()) state = kEmpty;
  if constexpr (kRecord) {
    if (state == kEmpty) explorer.leave_close_pending();  // the host's cut pass closes it
  }
  explorer.store(state);
  return true;
}

// One team's launch of the persistent explorer on IVM `ivm` (kMode kPersistent, or
// kPersistentRecord: recording, cut_pass_here wherever the team loop stops for it, and first
// for what a cut pass short of room left and an interval to start). Returns the IVM's new
// state.
template <class Cell, Placement kPlacement, bool kLb2, int kTeam, int kMode>
__device__ int explore_persistent(const PoolView& pool, const ExploreParams& params,
                                  const Time* times, const JohnsonView& johnson,
                                  unsigned char* workspace, int ivm) {
  constexpr bool kRecord = kMode == kPersistentRecord;
  const WorkQueueView& queue = params.persist.queue;
  const bool lane0 = warp::lane<kTeam>() == 0;
  int state = pool.state[ivm];
  const bool holder = state != kEmpty;  // as the launch counted it
  if (lane0) *team_progress(params, workspace) = {0, warp::clock_ns()};
  if constexpr (kRecord) {
    const CutPassResult r =
        cut_pass_here<Cell, kPlacement, kLb2, kTeam>(pool, params, times, johnson, workspace, ivm);
    if (!r.done) return r.state;
    state = r.state;
  }
  if (state == kEmpty && lane0) {  // the team is hungry
    if (holder) {
      queue_go_hungry(queue);  // recording: the interval the cut pass's code took ran dry
    } else {
      queue_ask(queue);
    }
  }
  if constexpr (!kRecord) {
    team_loop<Cell, kPlacement, kLb2, kTeam, kMode>(pool, params, times, johnson, workspace, ivm,
                                                    state);
    return state;
  }
  while (!team_loop<Cell, kPlacement, kLb2, kTeam, kMode>(pool, params, times, johnson,
                                                          workspace, ivm, state)) {
    // The team holds an interval (it stopped before a node at the cut level, took one, or
    // ran dry).
    const CutPassResult r =
        cut_pass_here<Cell, kPlacement, kLb2, kTeam>(pool, params, times, johnson, workspace, ivm);
    state = r.state;
    if (r.state == kEmpty && lane0) {  // the team is hungry
      if (r.done) {
        queue_go_hungry(queue);
      } else {
        queue_drop_holder(queue);
      }
    }
    if (!r.done) return r.state;  // leaves with its interval, if any, for the host's cut pass
  }
  return state;
}

}  // namespace permbb::gpu
