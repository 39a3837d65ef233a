// GpuEngine: the host side of PBB@GPU (2022 §3.1, Figure 6). The host prepares the device
// (tables, K IVMs, the initial partition) and then only launches rounds and reads a few
// bytes back: per round an exploration kernel (each IVM decomposes `steps` nodes) and a
// stealing phase that the device itself skips unless fewer than 80% of the IVMs explore.
// Many rounds go back to back between two synchronisations; at each one the host reads the
// Control block (active IVMs, the device incumbent, steals), hands a better schedule to the
// Incumbent, pushes a lower bound learnt elsewhere, and checks the budget and stop flag.
// The persistent explorer (the default, with a certificate too) makes each period one launch
// whose teams share work on the device (warp_persistent.cuh) instead of rounds.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <iterator>
#include <stdexcept>
#include <string>

#include "cuda_check.hpp"
#include "device_cut_buffer.hpp"
#include "device_cut_records.hpp"
#include "engine_group.hpp"
#include "engine_setup.hpp"
#include "factoradic.hpp"
#include "factoradic_mpz.hpp"
#include "flowshop_tables.hpp"
#include "gpu_engine.hpp"
#include "ivm_pool.hpp"
#include "ivm_sample.hpp"
#include "johnson_tables.hpp"
#include "kernels.hpp"
#include "work_split.hpp"

namespace permbb::gpu {
namespace {

// The persistent explorer's launch: as long as a period of the rounds (10-40 ms), so that the
// host hands a better schedule on, takes a lower bound in and pauses as promptly; as short as
// the budget left, down to a few steps of every team (a budget of 0: one short launch, as the
// rounds run one round).
constexpr double kPersistentPeriod = 0.02;
constexpr double kMinPersistentPeriod = 50e-6;

}  // namespace

class GpuEngine::Impl {
 public:
  Impl(const Instance& instance, const SearchSettings& settings, Incumbent& incumbent,
       const GpuOptions& options)
      : incumbent_(incumbent), tables_(instance), n_(instance.jobs()), m_(instance.machines()) {
    if (uses_lb2(settings.bound) && m_ > kMaxGpuLb2Machines) {
      throw std::invalid_argument("the GPU explorer bounds with " + to_string(settings.bound) +
                                  " up to " + std::to_string(kMaxGpuLb2Machines) +
                                  " machines; this instance has " + std::to_string(m_));
    }
    if (uses_lb2(settings.bound)) {
      johnson_ = std::make_unique<JohnsonTables>(instance, machine_pairs_for(settings.bound));
    }
    setup_ = prepare_engine(tables_, johnson_.get(), settings, options, device_data_);
    device_ = setup_.info.device.index;
    const auto allocating = std::chrono::steady_clock::now();
    pool_ = std::make_unique<IvmPool>(setup_.info.ivms, n_, m_,
                                      min_steal_digits(n_, options.min_steal_leaves),
                                      setup_.params.bound != GpuBound::kLb1);
    trigger_ = static_cast<int>(std::ceil(options.steal_trigger * setup_.info.ivms));
    steal_rule_ = options.steal_rule;
    if (options.cut) {
      cut_ = std::make_unique<DeviceCutBuffer>(pool_->count(), n_, *options.cut);
      setup_.params.cut = cut_->view();
    }
    if (setup_.params.persistent) allocate_work_queue();
    control_.allocate(1);
    PERMBB_CUDA_CHECK(cudaMallocHost(&host_, sizeof(Control)));
    *host_ = Control{};
    host_->best_key = make_best_key(incumbent_.value(), kNoSchedule);
    device_value_ = incumbent_.value();
    control_.upload(host_, 1);
    setup_.params.control = control_.data();
    // A blocking stream: ordered after the synchronous copies and memsets of the default stream.
    PERMBB_CUDA_CHECK(cudaStreamCreate(&stream_));
    setup_.info.setup_seconds.memory =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - allocating).count();
  }

  ~Impl() {
    cudaSetDevice(device_);
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
    if (host_ != nullptr) cudaFreeHost(host_);
  }

  const GpuEngineInfo& info() const { return setup_.info; }

  void set_work(const std::vector<Interval>& intervals) {
    PERMBB_CUDA_CHECK(cudaSetDevice(device_));
    if (cut_) {
      std::vector<CutRecord> parts = end_open_cut(false);
      std::move(parts.begin(), parts.end(), std::back_inserter(closed_));
    }
    queue_.clear();
    pool_->clear_states();
    std::vector<Interval> pieces = split_intervals(intervals, pool_->count());
    const int direct = std::min<int>(static_cast<int>(pieces.size()), pool_->count());
    queue_.assign(pieces.begin() + direct, pieces.end());
    pieces.resize(direct);
    assign(spread_indices(direct, pool_->count()), pieces);
    host_->active = 0;
  }

  bool explore(std::chrono::duration<double> budget) {
    PERMBB_CUDA_CHECK(cudaSetDevice(device_));
    stop_.store(false);
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(budget);
    while (true) {
      refill_from_queue();
      push_upper_bound();
      const auto started = Clock::now();
      const double left = std::chrono::duration<double>(deadline - started).count();
      const int rounds = setup_.params.persistent ? 1 : rounds_within(left);
      if (setup_.params.persistent) {
        launch_persistent_period(left);
      } else {
        for (int r = 0; r < rounds; ++r) launch_round();
      }
      read_control();
      pull_best();
      const bool stopped_short = drain_cut();  // IVMs that did not start yet are not active
      if (host_->active == 0 && queue_.empty() && !stopped_short) return true;
      const auto now = Clock::now();
      if (!setup_.params.persistent) {
        adapt_rounds(std::chrono::duration<double>(now - started).count(), rounds);
      }
      if (stop_.load() || now >= deadline) {
        settle();
        // The settle may have finished the last intervals: complete then, as above.
        return !ivms_hold_work() && queue_.empty();
      }
    }
  }

  std::vector<Interval> remaining() {
    PERMBB_CUDA_CHECK(cudaSetDevice(device_));
    const auto states = pool_->download_states();
    const auto pos = pool_->download_positions();
    const auto end = pool_->download_ends();
    std::vector<Interval> out(queue_.begin(), queue_.end());
    for (int i = 0; i < pool_->count(); ++i) {
      const int* a = pos.data() + static_cast<std::size_t>(i) * n_;
      const int* b = end.data() + static_cast<std::size_t>(i) * n_;
      if (states[i] == kEmpty || factoradic::compare(a, b, n_) >= 0) continue;
      out.push_back({to_mpz(a, n_), to_mpz(b, n_)});
    }
    std::sort(out.begin(), out.end(),
              [](const Interval& x, const Interval& y) { return x.begin < y.begin; });
    return out;
  }

  void request_stop() { stop_.store(true); }

  // Paused: every IVM is settled (or empty). IVMs exploring a non-empty interval are the
  // candidates; `count` of them, spread over the pool, are copied back and decoded.
  std::vector<PromotedSubproblem> sample_subproblems(int count) {
    std::vector<PromotedSubproblem> out;
    if (count <= 0) return out;
    PERMBB_CUDA_CHECK(cudaSetDevice(device_));
    const auto states = pool_->download_states();
    const auto pos = pool_->download_positions();
    const auto end = pool_->download_ends();
    std::vector<int> busy;
    for (int i = 0; i < pool_->count(); ++i) {
      const int* a = pos.data() + static_cast<std::size_t>(i) * n_;
      const int* b = end.data() + static_cast<std::size_t>(i) * n_;
      if (states[i] == kExploring && factoradic::compare(a, b, n_) < 0) busy.push_back(i);
    }
    const int total = static_cast<int>(busy.size());
    const int take = std::min(count, total);
    for (int k = 0; k < take; ++k) {
      const int ivm = busy[static_cast<std::size_t>(k) * total / take];
      const IvmCopy copy = pool_->download_ivm(ivm);
      PromotedSubproblem sample;
      if (pool_->view().cell_bytes == 1) {
        sample = ivm::decode_copy(n_, copy.line, copy.pos.data(), copy.dir.data(),
                                  copy.matrix_bytes.data());
      } else {
        std::vector<std::int16_t> cells(copy.matrix_bytes.size() / 2);
        std::memcpy(cells.data(), copy.matrix_bytes.data(), cells.size() * 2);
        sample = ivm::decode_copy(n_, copy.line, copy.pos.data(), copy.dir.data(), cells.data());
      }
      if (!sample.empty()) out.push_back(std::move(sample));
    }
    return out;
  }

  // Paused (settled): the records drained so far and every open record's part up to now.
  bool collect_cut(SearchCut& into) {
    if (!cut_) return false;
    PERMBB_CUDA_CHECK(cudaSetDevice(device_));
    std::vector<CutRecord> records = end_open_cut(true);
    records.reserve(records.size() + drained_.size() + closed_.size());
    for (const DeviceCutRecord& r : drained_) records.push_back(to_cut_record(r));
    drained_.clear();
    std::move(closed_.begin(), closed_.end(), std::back_inserter(records));
    closed_.clear();
    into.add(records);
    return true;
  }

  EngineStats stats() const {
    PERMBB_CUDA_CHECK(cudaSetDevice(device_));
    EngineStats s;
    s.nodes.decomposed = pool_->total_decomposed();
    s.nodes.leaves = pool_->total_leaves();
    s.steals = host_->steals;
    s.explorers = pool_->count();
    s.active_explorers = host_->active;
    return s;
  }

 private:
  void launch_round() {
    PERMBB_CUDA_CHECK(cudaMemsetAsync(control_.data(), 0, kControlResetBytes, stream_));
    launch_explore(pool_->view(), setup_.params, stream_);
    launch_cut_pass(setup_.params);
    launch_steal(pool_->view(), control_.data(), trigger_, steal_rule_, stream_);
  }

  // The persistent explorer: one launch whose teams leave after kPersistentPeriod (less
  // when less of the budget is left) or once no work is left; they share work on the device.
  // Recording, its teams run the cut pass's code as they go; the cut pass after the launch
  // does what a team short of room for its records left, and starts the intervals teams took
  // as they left.
  void launch_persistent_period(double left) {
    PERMBB_CUDA_CHECK(cudaMemsetAsync(control_.data(), 0, kControlResetBytes, stream_));
    const double period = std::clamp(left, kMinPersistentPeriod, kPersistentPeriod);
    setup_.params.persist.period_ns = static_cast<unsigned long long>(period * 1e9);
    launch_persistent(pool_->view(), setup_.params, stream_);
    launch_cut_pass(setup_.params);  // recording: what teams short of room left, and starts
  }

  // The persistent explorer's work queue: room for every team's interval (work_queue.hpp).
  void allocate_work_queue() {
    const int capacity = queue_capacity(pool_->count());
    queue_counters_.allocate(1);
    queue_ready_.allocate(capacity);
    queue_digits_.allocate(2LL * capacity * n_);
    setup_.params.persist.queue = {queue_counters_.data(), queue_ready_.data(),
                                   queue_digits_.data(), capacity, n_};
  }

  // Recording: the cut pass after an exploring pass (WarpExplorer, kCutPassRecords).
  void launch_cut_pass(const ExploreParams& exploring) {
    if (!cut_) return;
    ExploreParams params = exploring;
    params.cut_pass = 1;
    launch_explore(pool_->view(), params, stream_);
  }

  void read_control() {
    PERMBB_CUDA_CHECK(
        cudaMemcpyAsync(host_, control_.data(), sizeof(Control), cudaMemcpyDeviceToHost, stream_));
    PERMBB_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  // Paused at clean points (ivm::at_clean_point): remaining() is then exact. (Again while
  // IVMs stopped short of a clean point for want of room for their records.)
  void settle() {
    ExploreParams params = setup_.params;
    params.settle = 1;
    bool again = false;
    do {
      PERMBB_CUDA_CHECK(cudaMemsetAsync(control_.data(), 0, kControlResetBytes, stream_));
      launch_explore(pool_->view(), params, stream_);
      launch_cut_pass(params);
      read_control();
      pull_best();
      again = host_->cut_pending > 0;  // IVMs the cut pass stepped or started: maybe not clean
      again = drain_cut() || again;
    } while (again);
  }

  // After a settle: whether an IVM still holds an interval, exploring (the settle's kernel
  // counted those in Control::active) or waiting to start it (those only its state tells).
  bool ivms_hold_work() {
    if (host_->active > 0) return true;
    const std::vector<int> states = pool_->download_states();
    return std::any_of(states.begin(), states.end(), [](int state) { return state != kEmpty; });
  }

  // Certificates: the records written since the last drain, kept as written (converted when
  // collected). True when an IVM stopped short for want of room.
  bool drain_cut() { return cut_ && cut_->drain(drained_); }

  // Paused: the open records' parts so far, at the device's upper bound; `reopen`: they go
  // on (a checkpoint), else they close (the IVMs' work is about to be replaced).
  std::vector<CutRecord> end_open_cut(bool reopen) {
    std::vector<CutRecord> parts;
    read_control();
    drain_cut();
    cut_->split_open(pool_->download_decomposed(), pool_->download_leaves(),
                     key_value(host_->best_key), reopen, parts);
    return parts;
  }

  // A schedule the device found, checked on the host, goes to the Incumbent.
  void pull_best() {
    const Time value = key_value(host_->best_key);
    const std::uint32_t ivm = key_ivm(host_->best_key);
    if (ivm != kNoSchedule && value < incumbent_.value()) {
      const std::vector<int> schedule = pool_->download_schedule(static_cast<int>(ivm));
      const Time checked = makespan_of(tables_, schedule);
      if (checked != value) {
        throw std::logic_error("GPU explorer: a schedule reported with makespan " +
                               std::to_string(value) + " has makespan " + std::to_string(checked));
      }
      incumbent_.offer(schedule, value);
    }
    device_value_ = value;
  }

  // A bound lowered elsewhere (heuristics, other ranks) reaches the device.
  void push_upper_bound() {
    const Time value = incumbent_.value();
    if (value >= device_value_) return;
    host_->best_key = make_best_key(value, kNoSchedule);
    PERMBB_CUDA_CHECK(cudaMemcpyAsync(&control_.data()->best_key, &host_->best_key,
                                      sizeof(host_->best_key), cudaMemcpyHostToDevice, stream_));
    PERMBB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    device_value_ = value;
  }

  // Queued intervals (more than K were given) go to empty IVMs.
  void refill_from_queue() {
    if (queue_.empty()) return;
    const auto states = pool_->download_states();
    std::vector<int> indices;
    std::vector<Interval> intervals;
    for (int i = 0; i < pool_->count() && !queue_.empty(); ++i) {
      if (states[i] != kEmpty) continue;
      indices.push_back(i);
      intervals.push_back(queue_.front());
      queue_.pop_front();
    }
    assign(indices, intervals);
  }

  void assign(const std::vector<int>& indices, const std::vector<Interval>& intervals) {
    if (indices.empty()) return;
    std::vector<int> digits(2 * static_cast<std::size_t>(n_) * indices.size());
    for (std::size_t e = 0; e < indices.size(); ++e) {
      from_mpz(intervals[e].begin, n_, digits.data() + 2 * n_ * e);
      from_mpz(intervals[e].end, n_, digits.data() + 2 * n_ * e + n_);
    }
    DeviceBuffer<int> device_indices(indices.size());
    DeviceBuffer<int> device_digits(digits.size());
    device_indices.upload(indices);
    device_digits.upload(digits);
    launch_assign(pool_->view(), device_indices.data(), device_digits.data(),
                  static_cast<int>(indices.size()), stream_);
    PERMBB_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  // Rounds for the next synchronisation period: rounds_, but not far past the deadline.
  int rounds_within(double left) const {
    if (per_round_ <= 0) return rounds_;
    const double affordable = std::max(0.0, left) / per_round_ + 1;
    return std::max(1, std::min(rounds_, static_cast<int>(std::min(affordable, 1e6))));
  }

  // About 10-40 ms between synchronisations: few bytes read back per many rounds, yet a
  // prompt pause and a fresh incumbent on the host.
  void adapt_rounds(double period, int rounds) {
    per_round_ = period / rounds;
    if (period < 0.01 && rounds == rounds_) rounds_ = std::min(rounds_ * 2, 4096);
    if (period > 0.04) rounds_ = std::max(rounds / 2, 1);
  }

  Incumbent& incumbent_;
  const FlowshopTables tables_;
  std::unique_ptr<JohnsonTables> johnson_;  // LB2 bounds only
  const int n_;
  const int m_;
  DeviceData device_data_;
  EngineSetup setup_;
  int device_ = 0;
  std::unique_ptr<IvmPool> pool_;
  int trigger_ = 0;
  StealRule steal_rule_ = StealRule::kLargestNeighbour;
  DeviceBuffer<Control> control_;
  Control* host_ = nullptr;  // pinned
  cudaStream_t stream_ = nullptr;
  std::deque<Interval> queue_;
  std::atomic<bool> stop_{false};
  int rounds_ = 1;
  double per_round_ = 0;  // seconds, last measured
  Time device_value_ = kInfiniteTime;
  DeviceBuffer<WorkQueueCounters> queue_counters_;  // the persistent explorer's
  DeviceBuffer<unsigned> queue_ready_;
  DeviceBuffer<int> queue_digits_;
  std::unique_ptr<DeviceCutBuffer> cut_;   // certificates only
  std::vector<DeviceCutRecord> drained_;  // records drained, not yet collected
  std::vector<CutRecord> closed_;          // open records closed by set_work, not yet collected
};

GpuEngine::GpuEngine(const Instance& instance, const SearchSettings& settings,
                     Incumbent& incumbent, const GpuOptions& options)
    : impl_(std::make_unique<Impl>(instance, settings, incumbent, options)) {}
GpuEngine::~GpuEngine() = default;
void GpuEngine::set_work(const std::vector<Interval>& intervals) { impl_->set_work(intervals); }
bool GpuEngine::explore(std::chrono::duration<double> budget) { return impl_->explore(budget); }
std::vector<Interval> GpuEngine::remaining() { return impl_->remaining(); }
void GpuEngine::request_stop() { impl_->request_stop(); }
EngineStats GpuEngine::stats() const { return impl_->stats(); }
std::vector<PromotedSubproblem> GpuEngine::sample_subproblems(int count) {
  return impl_->sample_subproblems(count);
}
bool GpuEngine::collect_cut(SearchCut& into) { return impl_->collect_cut(into); }
const GpuEngineInfo& GpuEngine::info() const { return impl_->info(); }

std::unique_ptr<SearchEngine> make_gpu_engine(const Instance& instance,
                                              const SearchSettings& settings,
                                              Incumbent& incumbent, const GpuOptions& options) {
  const int pools = gpu_pools(options.pools);
  if (pools == 1) return std::make_unique<GpuEngine>(instance, settings, incumbent, options);
  std::vector<std::unique_ptr<SearchEngine>> members;
  for (int i = 0; i < pools; ++i) {
    members.push_back(std::make_unique<GpuEngine>(instance, settings, incumbent, options));
  }
  return std::make_unique<EngineGroup>(std::move(members));
}

const GpuEngineInfo& engine_info(SearchEngine& engine) {
  if (auto* group = dynamic_cast<EngineGroup*>(&engine)) return engine_info(group->member(0));
  return dynamic_cast<GpuEngine&>(engine).info();
}

}  // namespace permbb::gpu
