#pragma once
// Which engine fills the DP tables when the user names none: the GPU only where it is
// measured faster than all the host's cores. A GPU run pays a fixed cost (the CUDA context,
// about 0.1 s on an H200) that small bisections never earn back, so the choice looks at the
// size of the largest table the run will meet, estimated before any table is built (and
// before CUDA is touched): the table at T = LB, the lowest target the bisection can visit,
// where the most jobs are long and the rounding is finest. The break-even and the runs behind
// it are in docs/pcmax.md ("Benchmark").
#include <cstdint>

#include "pcmax_instance.hpp"

namespace permbb::pcmax {

// The entries of the DP table at T = max(ceil(sum t / m), max t) for this k; 0 when that
// target needs no table (no more long jobs than machines). TableShape::kUnbounded when the
// count passes 2^64.
std::uint64_t table_entries_at_lower_bound(const PcmaxInstance& instance, int k);

// From this many entries in the table at the lower bound, a whole bisection on the H200
// (quarter split) beats the CPU (all 16 cores of its host, plain bisection).
inline constexpr std::uint64_t kGpuPaysFromEntries = 2'000'000;

inline bool gpu_pays_for(std::uint64_t entries_at_lower_bound) {
  return entries_at_lower_bound >= kGpuPaysFromEntries;
}

}  // namespace permbb::pcmax
