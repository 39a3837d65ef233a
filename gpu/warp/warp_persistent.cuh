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
#include "warp_explorer.cuh"
#include "warp_primitives.cuh"
#include "work_queue.hpp"

namespace permbb::gpu {

// Whether a team's launch is over: its chunks spent, or its time (lane 0's clock, so that the
// team agrees).
template <int kTeam>
__device__ bool persistent_launch_over(const PersistParams& persist, long long chunk,
                                       unsigned long long started) {
  if (chunk >= persist.max_chunks) return true;
  if (persist.period_ns == 0) return false;
  const unsigned long long now = warp::broadcast<kTeam>(warp::clock_ns());
  return now - started >= persist.period_ns;
}

// Lane 0 reads a queue word; the team follows its answer.
template <int kTeam, class Read>
__device__ bool team_reads(Read read) {
  bool answer = false;
  if (warp::lane<kTeam>() == 0) answer = read();
  return warp::broadcast_bool<kTeam>(answer);
}

// A hungry team's first pause between two polls of the queue, doubled while nothing comes up
// to kMaxBackOffNs. Thousands of teams poll one word when work is scarce (the start and the
// end of a search); at 8 us apart they load it about 5 x 10^8 times a second, and a queued
// interval waits at most about one step of a team's exploration. Longer pauses (up to 32 us)
// measured the same (docs/performance.md, "GPU explorer v3").
constexpr unsigned kFirstBackOffNs = 256;
constexpr unsigned kMaxBackOffNs = 8192;

// One team's launch of the persistent explorer on IVM `ivm`. Returns the IVM's new state.
template <class Cell, Placement kPlacement, bool kLb2, int kTeam>
__device__ int explore_persistent(const PoolView& pool, const ExploreParams& params,
                                  const Time* times, const JohnsonView& johnson,
                                  unsigned char* workspace, int ivm) {
  const PersistParams& persist = params.persist;
  const WorkQueueView& queue = persist.queue;
  const bool lane0 = warp::lane<kTeam>() == 0;
  int state = pool.state[ivm];
  WarpExplorer<Cell, kPlacement, kLb2, kTeam, kPersistent> explorer(pool, ivm, params, times,
                                                                    johnson, workspace);
  if (state != kEmpty) explorer.load(state == kInitializing);
  const unsigned long long started = warp::broadcast<kTeam>(warp::clock_ns());
  bool hungry = state == kEmpty;
  if (hungry && lane0) queue_ask(queue);  // not a holder: the launch counted none here
  unsigned back_off_ns = kFirstBackOffNs;
  for (long long chunk = 0;; ++chunk) {
    const bool over = persistent_launch_over<kTeam>(persist, chunk, started);
    if (hungry) {
      if (explorer.take(queue, over)) {
        state = kInitializing;
        hungry = false;
        back_off_ns = kFirstBackOffNs;
      } else if (over || team_reads<kTeam>([&] { return queue_search_over(queue); })) {
        break;
      } else {
        warp::back_off<kTeam>(back_off_ns);
        back_off_ns = back_off_ns < kMaxBackOffNs / 2 ? 2 * back_off_ns : kMaxBackOffNs;
        continue;
      }
    }
    if (over) break;
    if (state == kInitializing) state = explorer.start() ? kExploring : kEmpty;
    for (int s = 0; s < persist.chunk_steps && state == kExploring; ++s) {
      if (!explorer.step()) state = kEmpty;
    }
    if (state == kExploring && team_reads<kTeam>([&] { return queue_has_requests(queue); })) {
      if (explorer.normalize()) {
        explorer.share(queue, persist.max_shares);
      } else {
        state = kEmpty;
      }
    }
    if (state == kEmpty) {
      if (lane0) queue_go_hungry(queue);
      hungry = true;
    }
    warp::let_others_run<kTeam>();
  }
  if (state == kExploring && !explorer.normalize()) state = kEmpty;
  explorer.store(state);
  return state;
}

}  // namespace permbb::gpu
