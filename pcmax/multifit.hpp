#pragma once
// MULTIFIT (Coffman, Garey & Johnson 1978, SIAM J. Comput. 7(1)): P||Cmax as bin packing.
// First Fit Decreasing packs the jobs into bins of capacity C; the smallest C for which FFD
// needs at most m bins is searched by bisection over [C_L, C_U],
//
//     C_L = max(ceil(sum t / m), max t),   C_U = max(ceil(2 sum t / m), max t),
//
// for a fixed number of iterations (the paper's analysis: within 1.22 + 2^-iterations of OPT;
// 7 is the usual count). FFD succeeds at C_U: a job t that fits no bin finds every bin
// loaded beyond C_U - t; if t <= C_U / 2 that is beyond C_U / 2 >= sum / m on all m bins, and
// if t > C_U / 2 every bin already holds a job of at least t > C_U / 2 (longest first) — the
// jobs would weigh more than their sum either way. So the search always has a schedule; the
// one returned is FFD's at the smallest C that succeeded.
#include "pcmax_instance.hpp"
#include "schedule_builder.hpp"

namespace permbb::pcmax {

inline constexpr int kMultifitIterations = 7;

// FFD with capacity `capacity`: jobs longest first (lowest index on ties), each into the first
// bin (machine) whose load plus its time is at most the capacity. Returns false, leaving
// `schedule` unspecified, when a job fits none of the m bins. O(n log m): a tournament tree
// of the bins' residual capacities finds the first bin with room.
bool first_fit_decreasing(const PcmaxInstance& instance, Duration capacity,
                          PcmaxSchedule& schedule);

// MULTIFIT's schedule with `iterations` bisection steps.
PcmaxSchedule build_multifit_schedule(const PcmaxInstance& instance,
                                      int iterations = kMultifitIterations);

}  // namespace permbb::pcmax
