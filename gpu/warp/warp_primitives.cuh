#pragma once
// Warp layer (CUB-like: thread / warp / block / device): the collective operations a team of
// lanes uses when it handles one IVM or one subproblem. A team is a whole warp (W = 32) or an
// aligned slice of one (W = 16 or 8: lanes [t W, (t+1) W) of the warp): several IVMs then
// share a warp, each on its own team (warp packing, docs/gpu.md "Teams"). Every function takes
// the team width as its first template argument (32 when omitted) and must be called by all W
// lanes of the team with team-uniform arguments (convergent control flow within the team;
// teams of one warp are independent and may diverge: their collectives name only their lanes).
#if defined(PERMBB_WARP_EMULATION)
#include "warp_emulation.hpp"  // host fibers stand in for lanes (CPU-side tests only)
#else
#include <cuda_runtime.h>
#endif

#include "flowshop_types.hpp"

namespace permbb::gpu::warp {

inline constexpr int kSize = 32;
inline constexpr unsigned kAll = 0xffffffffu;

// The team widths the exploration kernel is built for (device_types.hpp, kTeamWidths).
template <int W>
inline constexpr bool kIsTeamWidth = W == 8 || W == 16 || W == 32;

// This lane's index within its team, 0..W-1.
template <int W = kSize>
__device__ __forceinline__ int lane() {
  static_assert(kIsTeamWidth<W>, "a team is 8, 16 or 32 lanes");
#if defined(PERMBB_WARP_EMULATION)
  return emulation::lane_id();  // the emulated warp has exactly W lanes (team_mask checks)
#else
  return static_cast<int>(threadIdx.x) & (W - 1);
#endif
}

// The first lane of this team within its warp.
template <int W>
__device__ __forceinline__ int team_base() {
#if defined(PERMBB_WARP_EMULATION)
  return 0;
#else
  return static_cast<int>(threadIdx.x) & (kSize - 1) & ~(W - 1);
#endif
}

// The lanes of this team, as the *_sync intrinsics want them.
template <int W = kSize>
__device__ __forceinline__ unsigned team_mask() {
#if defined(PERMBB_WARP_EMULATION)
  emulation::expect_lanes(W);
#endif
  if constexpr (W == kSize) {
    return kAll;
  } else {
    return ((1u << W) - 1u) << team_base<W>();
  }
}

template <int W = kSize>
__device__ __forceinline__ void sync() {
  __syncwarp(team_mask<W>());
}

// Teams of the persistent kernel side by side (warp_persistent.cuh). In the emulation, where
// one warp runs at a time, the next warp's turn (tests/gpu/warp_emulation.hpp, run_warps);
// on the device nothing: the warps are scheduled by the hardware.
template <int W = kSize>
__device__ __forceinline__ void let_others_run() {
#if defined(PERMBB_WARP_EMULATION)
  emulation::yield_warp();
#endif
}

// A team that polls (the persistent kernel's hungry teams) waits about `ns` nanoseconds
// before it looks again, leaving the issue slots and the polled word's cache line to the teams
// that work; in the emulation the next warp runs.
template <int W = kSize>
__device__ __forceinline__ void back_off(unsigned ns) {
#if defined(PERMBB_WARP_EMULATION)
  (void)ns;
  emulation::yield_warp();
#else
  __nanosleep(ns);
  __syncwarp(team_mask<W>());
#endif
}

// The device's global timer in nanoseconds, the same for every SM; 0 in the emulation,
// whose launches end after a number of turns instead.
__device__ __forceinline__ unsigned long long clock_ns() {
#if defined(PERMBB_WARP_EMULATION)
  return 0;
#else
  unsigned long long ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
#endif
}

// Bit l set when lane l of this team has `predicate` true.
template <int W = kSize>
__device__ __forceinline__ unsigned ballot(bool predicate) {
  const unsigned bits = __ballot_sync(team_mask<W>(), predicate);
  if constexpr (W == kSize) {
    return bits;
  } else {
    return (bits >> team_base<W>()) & ((1u << W) - 1u);
  }
}

template <int W = kSize>
__device__ __forceinline__ bool any(bool predicate) {
  return __any_sync(team_mask<W>(), predicate) != 0;
}

// The value of lane `source` (of this team) in every lane of the team.
template <int W = kSize, class T>
__device__ __forceinline__ T broadcast(T value, int source = 0) {
  return __shfl_sync(team_mask<W>(), value, source, W);
}

template <int W = kSize>
__device__ __forceinline__ bool broadcast_bool(bool value, int source = 0) {
  return __shfl_sync(team_mask<W>(), static_cast<int>(value), source, W) != 0;
}

// `combine` over the values of the team's lanes, returned to each of them (a butterfly of
// shuffles).
template <int W = kSize, class T, class Combine>
__device__ __forceinline__ T all_reduce(T value, Combine combine) {
  const unsigned mask = team_mask<W>();
  for (int offset = W / 2; offset > 0; offset /= 2) {
    value = combine(value, __shfl_xor_sync(mask, value, offset, W));
  }
  return value;
}

template <int W = kSize, class T>
__device__ __forceinline__ T sum(T value) {
  return all_reduce<W>(value, [](T x, T y) { return x + y; });
}

template <int W = kSize, class T>
__device__ __forceinline__ T min(T value) {
  return all_reduce<W>(value, [](T x, T y) { return y < x ? y : x; });
}

template <int W = kSize, class T>
__device__ __forceinline__ T max(T value) {
  return all_reduce<W>(value, [](T x, T y) { return y > x ? y : x; });
}

template <int W = kSize, class T>
__device__ __forceinline__ T bit_or(T value) {
  return all_reduce<W>(value, [](T x, T y) { return x | y; });
}

// `combine` over the values of lanes 0..l of the team, in lane l (an inclusive scan).
template <int W = kSize, class T, class Combine>
__device__ __forceinline__ T inclusive_scan(T value, Combine combine) {
  const unsigned mask = team_mask<W>();
  const int l = lane<W>();
  for (int offset = 1; offset < W; offset *= 2) {
    const T lower = __shfl_up_sync(mask, value, offset, W);
    if (l >= offset) value = combine(lower, value);
  }
  return value;
}

// `combine` over the values of lanes l..W-1 of the team, in lane l (a suffix scan).
template <int W = kSize, class T, class Combine>
__device__ __forceinline__ T inclusive_suffix_scan(T value, Combine combine) {
  const unsigned mask = team_mask<W>();
  const int l = lane<W>();
  for (int offset = 1; offset < W; offset *= 2) {
    const T higher = __shfl_down_sync(mask, value, offset, W);
    if (l + offset < W) value = combine(value, higher);
  }
  return value;
}

// Inclusive scan over the team's lanes of the max-plus recurrence x_l = max(a_l, x_{l-1} + b_l):
// the pair (a, b) stands for the map x -> max(a, x + b), and composing the maps of lanes
// i < j gives (max(a_j, a_i + b_j), b_i + b_j), which is associative. On return `a` holds
// x_l with x_{-1} = -infinity, and `b` the sum of b over lanes 0..l. This is the warp-parallel
// completion-time evaluation of 2022 §3.3 (Bożejko's wavefront, Figure 7) along machines.
template <int W = kSize>
__device__ __forceinline__ void max_plus_scan(Time& a, Time& b) {
  const unsigned mask = team_mask<W>();
  const int l = lane<W>();
  for (int offset = 1; offset < W; offset *= 2) {
    const Time a_up = __shfl_up_sync(mask, a, offset, W);
    const Time b_up = __shfl_up_sync(mask, b, offset, W);
    if (l >= offset) {
      const Time through = a_up + b;
      a = through > a ? through : a;
      b = b_up + b;
    }
  }
}

}  // namespace permbb::gpu::warp
