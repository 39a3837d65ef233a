#pragma once
// Warp layer (CUB-like: thread / warp / block / device): the collective operations a warp
// uses when it handles one IVM or one subproblem. Every function must be called by all 32
// lanes of the warp with warp-uniform arguments (convergent control flow).
#if defined(PERMBB_WARP_EMULATION)
#include "warp_emulation.hpp"  // host fibers stand in for lanes (CPU-side tests only)
#else
#include <cuda_runtime.h>
#endif

#include "flowshop_types.hpp"

namespace permbb::gpu::warp {

inline constexpr int kSize = 32;
inline constexpr unsigned kAll = 0xffffffffu;

__device__ __forceinline__ int lane() {
#if defined(PERMBB_WARP_EMULATION)
  return emulation::lane_id();
#else
  return static_cast<int>(threadIdx.x) & (kSize - 1);
#endif
}

// The value of lane `source` in every lane.
template <class T>
__device__ __forceinline__ T broadcast(T value, int source = 0) {
  return __shfl_sync(kAll, value, source);
}

__device__ __forceinline__ bool broadcast_bool(bool value, int source = 0) {
  return __shfl_sync(kAll, static_cast<int>(value), source) != 0;
}

// `combine` over the values of all lanes, returned to every lane (a butterfly of shuffles).
template <class T, class Combine>
__device__ __forceinline__ T all_reduce(T value, Combine combine) {
  for (int offset = kSize / 2; offset > 0; offset /= 2) {
    value = combine(value, __shfl_xor_sync(kAll, value, offset));
  }
  return value;
}

template <class T>
__device__ __forceinline__ T sum(T value) {
  return all_reduce(value, [](T x, T y) { return x + y; });
}

template <class T>
__device__ __forceinline__ T min(T value) {
  return all_reduce(value, [](T x, T y) { return y < x ? y : x; });
}

template <class T>
__device__ __forceinline__ T max(T value) {
  return all_reduce(value, [](T x, T y) { return y > x ? y : x; });
}

template <class T>
__device__ __forceinline__ T bit_or(T value) {
  return all_reduce(value, [](T x, T y) { return x | y; });
}

// Inclusive scan over the lanes of the max-plus recurrence x_l = max(a_l, x_{l-1} + b_l):
// the pair (a, b) stands for the map x -> max(a, x + b), and composing the maps of lanes
// i < j gives (max(a_j, a_i + b_j), b_i + b_j), which is associative. On return `a` holds
// x_l with x_{-1} = -infinity, and `b` the sum of b over lanes 0..l. This is the warp-parallel
// completion-time evaluation of 2022 §3.3 (Bożejko's wavefront, Figure 7) along machines.
__device__ __forceinline__ void max_plus_scan(Time& a, Time& b) {
  const int l = lane();
  for (int offset = 1; offset < kSize; offset *= 2) {
    const Time a_up = __shfl_up_sync(kAll, a, offset);
    const Time b_up = __shfl_up_sync(kAll, b, offset);
    if (l >= offset) {
      const Time through = a_up + b;
      a = through > a ? through : a;
      b = b_up + b;
    }
  }
}

}  // namespace permbb::gpu::warp
