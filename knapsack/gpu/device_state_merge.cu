// The expanding-core search's merge on the GPU (StateMerger, state_list.hpp): the steps of
// merge_with_move_ranked (state_merge_ranked.hpp), one thread per candidate, with the rules of
// state_merge_rules.hpp written once for host and device:
//   1. place: every state, unmoved and moved, at its place in the merged order (a binary
//      search in the other half);
//   2. two running maxima (CUB exclusive scans with max): of the profits before each candidate,
//      and of the feasible ones;
//   3. judge: dominated, fathomed or kept, the bound through the core's neighbours and the
//      outside items' sums; per block, the counts (__syncthreads_count) and the largest bound
//      kept (a block reduction), one atomic each;
//   4. gather the sources of the kept candidates in order (an exclusive sum of the flags, a
//      scatter).
// The list stays in host memory between merges: the one-item completion, the weight-class DP
// and the decision arena read it there. What crosses the bus per merge is the input's weights
// and profits (16 bytes a state) and the kept states' sources (8 bytes each); the host writes
// the kept states from their sources, with their arena nodes in the order merge_with_move
// makes them (finish_merge).
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "device_buffer.hpp"
#include "knapsack_gpu.hpp"
#include "state_merge_rules.hpp"

namespace permbb::knapsack::gpu {
namespace {

using permbb::gpu::DeviceBuffer;

constexpr int kThreads = 256;
constexpr std::int64_t kLowest = std::numeric_limits<std::int64_t>::min();

unsigned blocks_for(std::int64_t threads) {
  return static_cast<unsigned>((threads + kThreads - 1) / kThreads);
}

__device__ std::int64_t thread_index() {
  return static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

// The candidates in merged order.
struct CandidateArrays {
  std::int64_t* weight;
  std::int64_t* profit;
  std::int64_t* source;
};

__global__ void place_kernel(const std::int64_t* weight, const std::int64_t* profit,
                             std::int64_t n, std::int64_t move_weight, std::int64_t move_profit,
                             CandidateArrays out) {
  const std::int64_t t = thread_index();
  if (t >= 2 * n) return;
  const bool moved = t >= n;
  const std::int64_t i = moved ? t - n : t;
  const std::int64_t place =
      moved ? merged_place_moved(weight, profit, n, move_weight, move_profit, i)
            : merged_place_unmoved(weight, profit, n, move_weight, move_profit, i);
  out.weight[place] = weight[i] + (moved ? move_weight : 0);
  out.profit[place] = profit[i] + (moved ? move_profit : 0);
  out.source[place] = moved ? moved_source(i) : i;
}

// The profits of the candidates that fit, the lowest value for the others.
__global__ void feasible_profit_kernel(CandidateArrays c, std::int64_t m, std::int64_t capacity,
                                       std::int64_t* out) {
  const std::int64_t t = thread_index();
  if (t < m) out[t] = c.weight[t] <= capacity ? c.profit[t] : kLowest;
}

struct MaxOf {
  template <class T>
  __device__ T operator()(T a, T b) const {
    return a > b ? a : b;
  }
};

struct MergeCounters {
  unsigned long long dominated;
  unsigned long long fathomed;
  long long upper;  // the largest clamped bound kept, -1 for none
};

__global__ void judge_kernel(CandidateArrays c, std::int64_t m, const std::int64_t* best_before,
                             const std::int64_t* feasible_before, MergeRule rule,
                             std::uint32_t* keep, MergeCounters* counters) {
  using BlockMax = cub::BlockReduce<long long, kThreads>;
  __shared__ typename BlockMax::TempStorage reduce_storage;
  const std::int64_t t = thread_index();
  bool dominated = false;
  bool fathomed = false;
  long long bound_kept = -1;
  if (t < m) {
    const std::int64_t profit = c.profit[t];
    dominated = profit <= best_before[t];
    if (!dominated) {
      const std::int64_t lower = rule.lower > feasible_before[t] ? rule.lower : feasible_before[t];
      const WideSigned bound =
          candidate_bound(profit, c.weight[t], lower, rule,
                          [&rule](std::int64_t room) { return rule.outside.best_profit(room); });
      fathomed = bound <= lower;
      if (!fathomed) bound_kept = clamp_bound(bound);
    }
    keep[t] = !dominated && !fathomed ? 1u : 0u;
  }
  const int block_dominated = __syncthreads_count(dominated);
  const int block_fathomed = __syncthreads_count(fathomed);
  const long long block_upper = BlockMax(reduce_storage).Reduce(bound_kept, MaxOf{});
  if (threadIdx.x != 0) return;
  if (block_dominated > 0) {
    atomicAdd(&counters->dominated, static_cast<unsigned long long>(block_dominated));
  }
  if (block_fathomed > 0) {
    atomicAdd(&counters->fathomed, static_cast<unsigned long long>(block_fathomed));
  }
  if (block_upper >= 0) atomicMax(&counters->upper, block_upper);
}

__global__ void gather_kernel(const std::int64_t* source, std::int64_t m,
                              const std::uint32_t* keep, const std::uint32_t* places,
                              std::int64_t* kept) {
  const std::int64_t t = thread_index();
  if (t < m && keep[t] != 0) kept[places[t]] = source[t];
}

// Grows `buffer` to at least `count` elements (half as much again, so that a list growing step
// by step reallocates rarely); false when the device is out of memory.
template <class T>
bool grow(DeviceBuffer<T>& buffer, std::int64_t count) {
  if (static_cast<std::int64_t>(buffer.size()) >= count) return true;
  const auto wanted = static_cast<std::size_t>(count + count / 2);
  return buffer.try_allocate(wanted) == cudaSuccess;
}

class DeviceStateMerger final : public StateMerger {
 public:
  // Creates the device's context here (cudaFree(nullptr)), so that a device without room for
  // one (its memory taken by other processes) fails at setup, where the caller can stand it
  // aside, not in the middle of a search.
  explicit DeviceStateMerger(int device) {
    PERMBB_CUDA_CHECK(cudaSetDevice(device));
    PERMBB_CUDA_CHECK(cudaFree(nullptr));
  }

  MergeOutcome merge(const StateList& in, const CoreMove& move, const MergeBounds& bounds,
                     DecisionArena& arena, StateList& out, const MergeStop& stop) override {
    const std::int64_t n = in.size();
    // 32-bit places and CUB item counts; a list this long (a billion states) stays on the host,
    // as does one the device has no room for, and an empty one (no kernel has work).
    if (n == 0 || 2 * n >= std::numeric_limits<std::int32_t>::max() || !reserve(n, bounds)) {
      release();
      return merge_with_move(in, move, bounds, arena, out, stop);
    }
    const std::int64_t m = 2 * n;
    in_weight_.upload(in.weight.data(), static_cast<std::size_t>(n));
    in_profit_.upload(in.profit.data(), static_cast<std::size_t>(n));
    const CandidateArrays candidates = arrays(candidate_);
    place_kernel<<<blocks_for(m), kThreads>>>(in_weight_.data(), in_profit_.data(), n,
                                              move.weight, move.profit, candidates);
    PERMBB_CUDA_CHECK_LAUNCH("place_kernel");
    scan_max(candidate_.profit(), best_before_.data(), m);
    feasible_profit_kernel<<<blocks_for(m), kThreads>>>(candidates, m, bounds.capacity,
                                                        scratch_.data());
    PERMBB_CUDA_CHECK_LAUNCH("feasible_profit_kernel");
    scan_max(scratch_.data(), feasible_before_.data(), m);
    const MergeCounters start{0, 0, -1};
    counters_.upload(&start, 1);
    judge_kernel<<<blocks_for(m), kThreads>>>(candidates, m, best_before_.data(),
                                              feasible_before_.data(), device_rule(bounds),
                                              keep_.data(), counters_.data());
    PERMBB_CUDA_CHECK_LAUNCH("judge_kernel");
    PERMBB_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_temp_.data(), scan_temp_bytes_,
                                                    keep_.data(), places_.data(),
                                                    static_cast<int>(m)));
    gather_kernel<<<blocks_for(m), kThreads>>>(candidates.source, m, keep_.data(),
                                               places_.data(), kept_sources_.data());
    PERMBB_CUDA_CHECK_LAUNCH("gather_kernel");
    return download(in, move, bounds, arena, out, m, stop);
  }

 private:
  // The three arrays of a candidate list in device memory.
  struct CandidateBuffers {
    DeviceBuffer<std::int64_t> weight_buffer, profit_buffer, source_buffer;
    std::int64_t* profit() const { return profit_buffer.data(); }
    bool grow_to(std::int64_t count) {
      return grow(weight_buffer, count) && grow(profit_buffer, count) &&
             grow(source_buffer, count);
    }
    void release() {
      weight_buffer.release();
      profit_buffer.release();
      source_buffer.release();
    }
  };

  static CandidateArrays arrays(const CandidateBuffers& b) {
    return {b.weight_buffer.data(), b.profit_buffer.data(), b.source_buffer.data()};
  }

  // The scans' temporary storage for m elements; 0 when the query fails (the device out of
  // memory even for it: the merge then stays on the host).
  static std::size_t scan_bytes(std::int64_t m) {
    std::size_t max_bytes = 0;
    std::size_t sum_bytes = 0;
    const cudaError_t max_query = cub::DeviceScan::ExclusiveScan(
        nullptr, max_bytes, static_cast<const std::int64_t*>(nullptr),
        static_cast<std::int64_t*>(nullptr), MaxOf{}, kLowest, static_cast<int>(m));
    const cudaError_t sum_query = cub::DeviceScan::ExclusiveSum(
        nullptr, sum_bytes, static_cast<const std::uint32_t*>(nullptr),
        static_cast<std::uint32_t*>(nullptr), static_cast<int>(m));
    if (max_query != cudaSuccess || sum_query != cudaSuccess) {
      cudaGetLastError();  // not sticky: clear it, as cuda_check does
      return 0;
    }
    return std::max(max_bytes, sum_bytes);
  }

  // Room for a merge of n states, and the outside items' sums; false when the device has none.
  bool reserve(std::int64_t n, const MergeBounds& bounds) {
    const std::int64_t m = 2 * n;
    const bool lists = grow(in_weight_, n) && grow(in_profit_, n) && candidate_.grow_to(m) &&
                       grow(kept_sources_, m) && grow(best_before_, m) && grow(feasible_before_, m) &&
                       grow(scratch_, m) && grow(keep_, m) && grow(places_, m) &&
                       grow(counters_, 1);
    if (!lists) return false;
    const std::size_t temp = scan_bytes(static_cast<std::int64_t>(keep_.size()));
    if (temp == 0) return false;
    if (scan_temp_.size() < temp && scan_temp_.try_allocate(temp) != cudaSuccess) return false;
    scan_temp_bytes_ = scan_temp_.size();
    if (bounds.outside == nullptr) return true;
    const ReachableSumsView sums = bounds.outside->view();
    return grow(intervals_, sums.count) && grow(best_below_, sums.count);
  }

  void release() {
    for (DeviceBuffer<std::int64_t>* b :
         {&in_weight_, &in_profit_, &best_before_, &feasible_before_, &scratch_}) {
      b->release();
    }
    candidate_.release();
    kept_sources_.release();
    keep_.release();
    places_.release();
    scan_temp_.release();
    intervals_.release();
    best_below_.release();
  }

  void scan_max(const std::int64_t* in, std::int64_t* out, std::int64_t m) {
    PERMBB_CUDA_CHECK(cub::DeviceScan::ExclusiveScan(scan_temp_.data(), scan_temp_bytes_, in, out,
                                                     MaxOf{}, kLowest, static_cast<int>(m)));
  }

  // bounds.rule() with the outside items' sums copied to the device.
  MergeRule device_rule(const MergeBounds& bounds) {
    MergeRule rule = bounds.rule();
    if (rule.outside.count == 0) return rule;
    const auto count = static_cast<std::size_t>(rule.outside.count);
    intervals_.upload(rule.outside.intervals, count);
    best_below_.upload(rule.outside.best_below, count);
    rule.outside.intervals = intervals_.data();
    rule.outside.best_below = best_below_.data();
    return rule;
  }

  MergeOutcome download(const StateList& in, const CoreMove& move, const MergeBounds& bounds,
                        DecisionArena& arena, StateList& out, std::int64_t m,
                        const MergeStop& stop) {
    std::uint32_t last_keep = 0;
    std::uint32_t last_place = 0;
    keep_.download(&last_keep, 1, static_cast<std::size_t>(m - 1));
    places_.download(&last_place, 1, static_cast<std::size_t>(m - 1));
    MergeCounters counters{};
    counters_.download(&counters, 1);
    const auto kept = static_cast<std::size_t>(last_place) + last_keep;
    sources_.resize(kept);
    kept_sources_.download(sources_.data(), kept);
    MergeOutcome outcome =
        finish_merge(in, move, bounds.capacity, bounds.lower, sources_, arena, out, stop);
    outcome.upper = counters.upper;
    outcome.dominated = static_cast<std::int64_t>(counters.dominated);
    outcome.fathomed = static_cast<std::int64_t>(counters.fathomed);
    return outcome;
  }

  DeviceBuffer<std::int64_t> in_weight_, in_profit_;
  CandidateBuffers candidate_;
  DeviceBuffer<std::int64_t> kept_sources_;
  DeviceBuffer<std::int64_t> best_before_, feasible_before_, scratch_;
  DeviceBuffer<std::uint32_t> keep_, places_;
  DeviceBuffer<unsigned char> scan_temp_;
  std::size_t scan_temp_bytes_ = 0;
  DeviceBuffer<MergeCounters> counters_;
  DeviceBuffer<SumInterval> intervals_;
  DeviceBuffer<WideSigned> best_below_;
  std::vector<std::int64_t> sources_;
};

}  // namespace

std::unique_ptr<StateMerger> make_device_state_merger(int device) {
  return std::make_unique<DeviceStateMerger>(device);
}

}  // namespace permbb::knapsack::gpu
