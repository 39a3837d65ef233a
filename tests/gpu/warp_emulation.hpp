#pragma once
// Host emulation of one CUDA warp, for CPU-side tests of the warp-level code: the lanes (32,
// or the 16 or 8 of one team, gpu/warp/warp_primitives.cuh) run as cooperative fibers
// (ucontext) on one thread, switching round-robin at every warp collective (__shfl*_sync,
// __any_sync, __syncwarp). Team code runs on an emulated warp of exactly its width. A
// collective reached by only some lanes (divergent code on the device) makes run_warp throw
// std::logic_error instead of hanging. Only one warp runs at a time, so the device atomics
// are plain read-modify-writes. Several warps can take turns (run_warps, for the persistent
// kernel's teams): a warp hands the thread to the next one at yield_warp() only, so what a
// lane does between two collectives is atomic to the other warps. Never used in the library;
// warp_primitives.cuh includes it when PERMBB_WARP_EMULATION is defined.
#include <ucontext.h>

#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

// The only CUDA qualifiers the warp code uses, as a host compiler needs them: the emulation
// needs no CUDA toolkit, so the CPU-only CI runs the warp code too.
#ifndef __device__
#define __device__
#endif
#ifndef __forceinline__
#define __forceinline__ inline __attribute__((always_inline))

#endif

namespace permbb::gpu::emulation {

struct Warp {
  static constexpr int kLanes = 32;  // at most
  int lane_count = kLanes;           // this run's
  ucontext_t main{};
  ucontext_t lanes[kLanes]{};
  std::vector<char> stacks[kLanes];
  int current = 0;
  int phase[kLanes]{};
  bool finished[kLanes]{};
  alignas(8) unsigned char slots[2][kLanes][8]{};
  std::function<void()> body;
  std::string error;  // set by fail(): run_warp throws it
  bool interleaved = false;  // run_warps: yield_warp() hands the thread to the next warp
  bool yielded = false;      // the last turn ended at yield_warp(), not with the lanes' end
};

inline Warp*& current_warp() {
  static Warp* warp = nullptr;
  return warp;
}

inline int lane_id() { return current_warp()->current; }
inline int lane_count() { return current_warp()->lane_count; }

// Abandons the warp: control returns to run_warp, which throws `message`. Exceptions cannot
// cross the fibers' stacks, so this is how a lane fails; the lane is never resumed.
inline void fail(const std::string& message) {
  Warp& w = *current_warp();
  w.error = "warp emulation: " + message;
  swapcontext(&w.lanes[w.current], &w.main);
}

// Hands control to the next lane (lane 31 to lane 0): when a lane resumes, every lane has
// reached the same collective.
inline void arrive() {
  Warp& w = *current_warp();
  const int me = w.current;
  const int next = (me + 1) % w.lane_count;
  if (w.finished[next]) {
    fail("lane " + std::to_string(me) + " reached a collective that lane " +
         std::to_string(next) + " never will");
    return;
  }
  w.current = next;
  swapcontext(&w.lanes[me], &w.lanes[next]);
}

// A lane's fiber; it must never return (uc_link is null: returning would end the thread).
inline void lane_main() {
  Warp& w = *current_warp();
  w.body();
  const int me = w.current;
  w.finished[me] = true;
  if (me == w.lane_count - 1) {
    swapcontext(&w.lanes[me], &w.main);
  } else if (w.finished[me + 1]) {
    fail("lane " + std::to_string(me + 1) + " finished while lane " + std::to_string(me) +
         " was in a collective");
  } else {
    w.current = me + 1;
    swapcontext(&w.lanes[me], &w.lanes[me + 1]);
  }
  for (;;) fail("a finished lane was resumed (divergent collective)");
}

// Sets `w` up to run `body` on `lanes` lanes (32, or a team's 16 or 8), from lane 0.
inline void start_lanes(Warp& w, const std::function<void()>& body, int lanes) {
  if (lanes != 8 && lanes != 16 && lanes != 32) {
    throw std::invalid_argument("warp emulation: a warp or team has 8, 16 or 32 lanes");
  }
  w.body = body;
  w.lane_count = lanes;
  w.error.clear();
  w.current = 0;
  for (int l = 0; l < lanes; ++l) {
    w.phase[l] = 0;
    w.finished[l] = false;
    w.stacks[l].resize(256 * 1024);
    getcontext(&w.lanes[l]);
    w.lanes[l].uc_stack.ss_sp = w.stacks[l].data();
    w.lanes[l].uc_stack.ss_size = w.stacks[l].size();
    w.lanes[l].uc_link = nullptr;
    makecontext(&w.lanes[l], lane_main, 0);
  }
}

// Runs `w`'s lanes until they finish or (interleaved) yield; true when they finished.
inline bool resume_lanes(Warp& w) {
  current_warp() = &w;
  w.yielded = false;
  swapcontext(&w.main, &w.lanes[w.current]);
  if (!w.error.empty()) throw std::logic_error(w.error);
  if (w.yielded) return false;
  for (int l = 0; l < w.lane_count; ++l) {
    if (!w.finished[l]) {
      throw std::logic_error("warp emulation: lane " + std::to_string(l) + " did not finish");
    }
  }
  return true;
}

// Runs `body` as the `lanes` lanes of one warp (32, or a team's 16 or 8).
inline void run_warp(const std::function<void()>& body, int lanes = Warp::kLanes) {
  static Warp warp;
  start_lanes(warp, body, lanes);
  resume_lanes(warp);
}

// Runs each body as a warp of `lanes` lanes, the warps taking turns (round-robin) at every
// yield_warp(), as the teams of a persistent kernel run side by side on the device. Throws
// once `max_turns` turns have passed (a team waiting for something that never comes).
inline void run_warps(const std::vector<std::function<void()>>& bodies, int lanes,
                      long long max_turns = 100000000) {
  std::vector<std::unique_ptr<Warp>> warps;
  for (const auto& body : bodies) {
    warps.push_back(std::make_unique<Warp>());
    warps.back()->interleaved = true;
    start_lanes(*warps.back(), body, lanes);
  }
  std::vector<bool> done(warps.size(), false);
  std::size_t left = warps.size();
  for (long long turn = 0; left > 0; ++turn) {
    if (turn >= max_turns) throw std::logic_error("warp emulation: the warps never finished");
    const std::size_t i = static_cast<std::size_t>(turn) % warps.size();
    if (done[i]) continue;
    if (resume_lanes(*warps[i])) {
      done[i] = true;
      --left;
    }
  }
}

// A collective of every lane that, in run_warps, then hands the thread to the next warp (lane 0
// resumes first on this warp's next turn); elsewhere a plain __syncwarp.
inline void yield_warp() {
  Warp& w = *current_warp();
  const int me = w.current;
  if (!w.interleaved || me + 1 < w.lane_count) {
    arrive();
    return;
  }
  w.current = 0;
  w.yielded = true;
  swapcontext(&w.lanes[me], &w.main);
}

// Team code of width W must run on an emulated warp of W lanes (its lane ids and ballots
// are then the team's own).
inline void expect_lanes(int width) {
  if (current_warp()->lane_count != width) {
    fail("a team of " + std::to_string(width) + " lanes ran on an emulated warp of " +
         std::to_string(current_warp()->lane_count));
  }
}

// Deposits `value`, waits for every lane, returns the slot of phase buffer for inspection.
template <class T>
inline unsigned char (*exchange(T value))[8] {
  static_assert(sizeof(T) <= 8, "warp emulation exchanges at most 8 bytes");
  Warp& w = *current_warp();
  const int me = w.current;
  const int buffer = w.phase[me]++ & 1;
  std::memcpy(w.slots[buffer][me], &value, sizeof(T));
  arrive();
  return w.slots[buffer];
}

template <class T>
inline T read_slot(unsigned char (*slots)[8], int lane) {
  T out;
  std::memcpy(&out, slots[lane], sizeof(T));
  return out;
}

}  // namespace permbb::gpu::emulation

// The width argument splits the warp into segments of `width` lanes, as on the device.
template <class T>
inline T __shfl_sync(unsigned, T value, int source, int width = 32) {
  const int me = permbb::gpu::emulation::lane_id();
  auto* slots = permbb::gpu::emulation::exchange(value);
  const int segment = me & ~(width - 1);
  return permbb::gpu::emulation::read_slot<T>(slots, segment + (source & (width - 1)));
}

template <class T>
inline T __shfl_up_sync(unsigned, T value, unsigned delta, int width = 32) {
  const int me = permbb::gpu::emulation::lane_id();
  auto* slots = permbb::gpu::emulation::exchange(value);
  return (me & (width - 1)) >= static_cast<int>(delta)
             ? permbb::gpu::emulation::read_slot<T>(slots, me - static_cast<int>(delta))
             : value;
}

template <class T>
inline T __shfl_down_sync(unsigned, T value, unsigned delta, int width = 32) {
  const int me = permbb::gpu::emulation::lane_id();
  auto* slots = permbb::gpu::emulation::exchange(value);
  return (me & (width - 1)) + static_cast<int>(delta) < width
             ? permbb::gpu::emulation::read_slot<T>(slots, me + static_cast<int>(delta))
             : value;
}

template <class T>
inline T __shfl_xor_sync(unsigned, T value, int mask, int width = 32) {
  const int me = permbb::gpu::emulation::lane_id();
  auto* slots = permbb::gpu::emulation::exchange(value);
  const int other = me ^ mask;
  const bool same_segment = (other & ~(width - 1)) == (me & ~(width - 1));
  return same_segment && other < permbb::gpu::emulation::lane_count()
             ? permbb::gpu::emulation::read_slot<T>(slots, other)
             : value;
}

inline int __any_sync(unsigned, int predicate) {
  auto* slots = permbb::gpu::emulation::exchange(predicate);
  for (int l = 0; l < permbb::gpu::emulation::lane_count(); ++l) {
    if (permbb::gpu::emulation::read_slot<int>(slots, l) != 0) return 1;
  }
  return 0;
}

inline unsigned __ballot_sync(unsigned, int predicate) {
  auto* slots = permbb::gpu::emulation::exchange(predicate);
  unsigned mask = 0;
  for (int l = 0; l < permbb::gpu::emulation::lane_count(); ++l) {
    if (permbb::gpu::emulation::read_slot<int>(slots, l) != 0) mask |= 1u << l;
  }
  return mask;
}

inline void __syncwarp(unsigned = 0xffffffffu) { permbb::gpu::emulation::exchange(0); }

inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __ffs(unsigned x) { return __builtin_ffs(static_cast<int>(x)); }

inline void __threadfence() {}

inline unsigned long long atomicMin(unsigned long long* address, unsigned long long value) {
  const unsigned long long old = *address;
  if (value < old) *address = value;
  return old;
}

inline int atomicAdd(int* address, int value) {
  const int old = *address;
  *address = old + value;
  return old;
}

inline unsigned long long atomicAdd(unsigned long long* address, unsigned long long value) {
  const unsigned long long old = *address;
  *address = old + value;
  return old;
}
