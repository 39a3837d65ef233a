#pragma once
// GpuEngine's exploration on the host: K IVMs in host memory, explored round by round with
// the very warp code of the exploration kernel (gpu/warp/warp_launch.cuh) on emulated warps
// (tests/gpu/warp_emulation.hpp) and the stealing functions of gpu/kernels/steal_logic.hpp,
// as GpuEngine's host loop launches them. Compiled with PERMBB_WARP_EMULATION=1.
#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "device_cut_records.hpp"
#include "factoradic.hpp"
#include "factoradic_mpz.hpp"
#include "flowshop_tables.hpp"
#include "johnson_tables.hpp"
#include "search_cut.hpp"
#include "steal_logic.hpp"
#include "warp_launch.cuh"
#include "work_split.hpp"

namespace permbb::gpu {

// GpuEngine's settings that shape the exploration (docs/gpu.md).
struct EmulatedGpuConfig {
  int ivms = 8;
  int steps = 3;
  Placement placement = Placement::kShared;
  double trigger = 0.8;
  int select = kSelectWarp;
  GpuMapping mapping = GpuMapping::kRemap;
  int lb2_screen = kLb2ScreenOff;
  int lb2_shared = kLb2SharedOff;  // LB2 shared between children while this many are open
  int team_width = 32;  // lanes per IVM (LB1: 32, 16 or 8)
  StealRule steal_rule = StealRule::kLargestNeighbour;
  // The persistent explorer (warp_persistent.cuh): each round one launch of `chunks` chunks
  // of `chunk_steps` steps per team, work shared on the device instead of a stealing phase.
  bool persistent = false;
  int chunk_steps = 2;
  long long chunks = 4;
  int max_shares = 1;  // PersistParams::max_shares
};

// K IVMs in host memory, explored round by round as GpuEngine does on the device; `Cell` is
// the matrix cell type GpuEngine picks (int8_t up to 127 jobs, int16_t beyond).
template <class Cell>
class EmulatedEngine {
 public:
  EmulatedEngine(const Instance& inst, BranchingRule rule, Time ub, const EmulatedGpuConfig& config,
                 BoundKind bound = BoundKind::kLb1)
      : tables_(inst),
        johnson_(inst, machine_pairs_for(bound)),
        n_(inst.jobs()),
        m_(inst.machines()),
        config_(config),
        k_(config.ivms),
        line_(k_),
        state_(k_),
        pos_(k_ * n_),
        end_(k_ * n_),
        dir_(k_ * n_),
        matrix_(k_ * ivm::matrix_cells(n_)),
        stack_(k_ * stack_times(n_, m_)),
        bounds_(static_cast<long long>(kBoundsPerJob) * k_ * n_),
        lb2_scratch_(k_ * lb2_scratch_times(n_, m_)),
        decomposed_(k_),
        leaves_(k_),
        best_(k_ * n_),
        length_(k_),
        claimed_(k_),
        scratch_(k_ * n_),
        min_(min_steal_digits(n_, 0)) {
    pool_ = {k_,
             n_,
             m_,
             ivm::matrix_cells(n_),
             static_cast<int>(sizeof(Cell)),
             line_.data(),
             state_.data(),
             pos_.data(),
             end_.data(),
             dir_.data(),
             matrix_.data(),
             stack_.data(),
             bounds_.data(),
             decomposed_.data(),
             leaves_.data(),
             best_.data(),
             length_.data(),
             claimed_.data(),
             scratch_.data(),
             min_.data()};
    control_.best_key = make_best_key(ub, kNoSchedule);
    params_.data = tables_.view();
    params_.rule = rule;
    params_.bound = gpu_bound_of(bound);
    params_.mapping = config.mapping;
    params_.lb2_screen = config.lb2_screen;
    params_.lb2_shared = config.lb2_shared;
    pool_.lb2_scratch = lb2_scratch_.data();
    // Johnson's sequences as the device holds them, padded to its stride.
    johnson_sequence_ = johnson_.sequence_with_stride(device_johnson_stride(n_));
    params_.johnson = johnson_.view();
    params_.johnson.sequence = johnson_sequence_.data();
    params_.johnson.stride = device_johnson_stride(n_);
    params_.placement = config.placement;
    params_.layout = make_warp_layout(n_, m_, sizeof(Cell), config.placement,
                                      params_.bound != GpuBound::kLb1, config.persistent);
    params_.steps = config.steps;
    params_.select = config.select;
    params_.team_width = config.team_width;
    params_.control = &control_;
    workspace_.resize(params_.layout.bytes + 16);
    params_.persistent = config.persistent ? 1 : 0;
    const int capacity = queue_capacity(k_);
    queue_ready_.assign(capacity, 0u);
    queue_digits_.assign(2LL * capacity * n_, 0);
    params_.persist.queue = {&queue_counters_, queue_ready_.data(), queue_digits_.data(), capacity,
                             n_};
    params_.persist.chunk_steps = config.chunk_steps;
    params_.persist.max_chunks = config.chunks;
    params_.persist.max_shares = config.max_shares;
  }

  // Certificates: the kernel records the cut at `recording.depth`, split where heavy as it
  // says (GpuEngine with GpuOptions::cut). `capacity` 0: GpuEngine's buffer; a smaller one (at
  // least the reserve plus one) makes IVMs stop short for want of room, and the host drain
  // and go on.
  void record_cut(const CutRecording& recording, unsigned long long capacity = 0) {
    const CutBufferSize size = cut_buffer_size(k_, n_, recording.depth, recording.split_depth);
    cut_buffer_.assign(capacity > 0 ? capacity : size.capacity, DeviceCutRecord{});
    cut_open_.assign(k_, DeviceOpenCut{});
    params_.cut = CutBufferView{};
    params_.cut.depth = recording.depth;
    params_.cut.split_depth = recording.split_depth;
    params_.cut.split_nodes = recording.split_nodes;
    params_.cut.records = cut_buffer_.data();
    params_.cut.capacity = cut_buffer_.size();
    params_.cut.reserve = size.reserve;
    params_.cut.count = &cut_count_;
    params_.cut.interrupted = &cut_interrupted_;
    params_.cut.open = cut_open_.data();
  }

  // GpuEngine::collect_cut.
  void collect_cut(SearchCut& into) {
    drain_cut();
    std::vector<CutRecord> records = std::move(cut_closed_);
    cut_closed_.clear();
    for (const DeviceCutRecord& r : cut_drained_) records.push_back(to_cut_record(r));
    cut_drained_.clear();
    split_open_records(cut_open_, decomposed_, leaves_, best(), params_.cut.depth, true, records);
    into.add(records);
  }
  std::uint64_t cut_interruptions() const { return cut_interruptions_; }

  void set_work(const std::vector<Interval>& intervals) {
    if (params_.cut.depth >= 0) {  // GpuEngine::set_work: the open records close
      drain_cut();
      split_open_records(cut_open_, decomposed_, leaves_, best(), params_.cut.depth, false,
                         cut_closed_);
    }
    std::fill(state_.begin(), state_.end(), kEmpty);
    const auto pieces = split_intervals(intervals, k_);
    const auto where = spread_indices(static_cast<int>(pieces.size()), k_);
    for (size_t e = 0; e < pieces.size(); ++e) {
      from_mpz(pieces[e].begin, n_, pos_.data() + where[e] * n_);
      from_mpz(pieces[e].end, n_, end_.data() + where[e] * n_);
      state_[where[e]] = kInitializing;
    }
  }

  // One round: the exploration kernel, then the stealing phase. False when all are empty.
  bool round() {
    control_.active = 0;
    control_.length_sum = 0;
    control_.length_count = 0;
    control_.cut_pending = 0;
    if (params_.persistent) {
      launch_persistent();
      launch_cut_pass(0);
      const bool stopped_short = drain_cut();
      return control_.active > 0 || stopped_short;
    }
    launch(0);
    launch_cut_pass(0);
    const int trigger = static_cast<int>(std::ceil(config_.trigger * k_));
    if (stealing_triggered(control_.active, trigger)) {
      control_.steals += steal_phase_on_host(pool_, config_.steal_rule);
    }
    const bool stopped_short = drain_cut();
    return control_.active > 0 || stopped_short;
  }

  // GpuEngine::settle.
  void settle() {
    bool again = false;
    do {
      control_.cut_pending = 0;
      launch(1);
      launch_cut_pass(1);
      again = control_.cut_pending > 0;
      again = drain_cut() || again;
    } while (again);
  }

  std::vector<Interval> remaining() const {
    std::vector<Interval> out;
    for (int i = 0; i < k_; ++i) {
      const int* a = pos_.data() + i * n_;
      const int* b = end_.data() + i * n_;
      if (state_[i] != kEmpty && factoradic::compare(a, b, n_) < 0) {
        out.push_back({to_mpz(a, n_), to_mpz(b, n_)});
      }
    }
    return out;
  }

  std::uint64_t decomposed() const { return sum(decomposed_); }
  std::uint64_t leaves() const { return sum(leaves_); }
  std::uint64_t steals() const { return control_.steals; }
  Time best() const { return key_value(control_.best_key); }
  // The schedule of best(), empty when the value is still the initial upper bound.
  std::vector<int> best_schedule() const {
    if (key_ivm(control_.best_key) == kNoSchedule) return {};
    const int at = static_cast<int>(key_ivm(control_.best_key)) * n_;
    return std::vector<int>(best_.begin() + at, best_.begin() + at + n_);
  }

 private:
  // GpuEngine::drain_cut.
  bool drain_cut() {
    if (params_.cut.depth < 0) return false;
    cut_drained_.insert(cut_drained_.end(), cut_buffer_.begin(),
                        cut_buffer_.begin() + static_cast<std::ptrdiff_t>(cut_count_));
    cut_count_ = 0;
    const bool stopped_short = cut_interrupted_ != 0;
    cut_interruptions_ += stopped_short ? 1 : 0;
    cut_interrupted_ = 0;
    return stopped_short;
  }

  static std::uint64_t sum(const std::vector<unsigned long long>& v) {
    std::uint64_t s = 0;
    for (auto x : v) s += x;
    return s;
  }

  // The exploration kernel (explore_kernel.cuh), or with params_.cut_pass the cut pass.
  void launch(int settle) {
    params_.settle = settle;
    std::mt19937 garbage(static_cast<unsigned>(control_.steals + 1));
    const bool exploring_pass = params_.cut.depth >= 0 && !params_.cut_pass;
    for (int i = 0; i < k_; ++i) {
      for (auto& b : workspace_) b = static_cast<unsigned char>(garbage());  // stale shared memory
      int state = 0;
      emulation::run_warp(kernel_body(i, workspace_.data(), state), team_width());
      const bool has_work = state == kExploring || (exploring_pass && state == kInitializing);
      if (!params_.cut_pass && has_work) ++control_.active;
    }
  }

  // kernels.cu, launch_persistent: the queue reset, the holders counted, then the K teams side
  // by side (their warps taking turns), each in a workspace of its own.
  void launch_persistent() {
    queue_counters_ = WorkQueueCounters{};
    std::fill(queue_ready_.begin(), queue_ready_.end(), 0u);
    for (int i = 0; i < k_; ++i) {
      if (state_[i] != kEmpty) queue_add_holder(params_.persist.queue);
    }
    std::mt19937 garbage(static_cast<unsigned>(control_.steals + 7));
    std::vector<std::vector<unsigned char>> workspaces(k_, workspace_);
    std::vector<int> states(k_, 0);
    std::vector<std::function<void()>> teams;
    for (int i = 0; i < k_; ++i) {
      for (auto& b : workspaces[i]) b = static_cast<unsigned char>(garbage());
      teams.push_back(kernel_body(i, workspaces[i].data(), states[i]));
    }
    emulation::run_warps(teams, team_width());
    for (int i = 0; i < k_; ++i) control_.active += states[i] != kEmpty ? 1 : 0;
  }

  // GpuEngine::launch_cut_pass: recording only.
  void launch_cut_pass(int settle) {
    if (params_.cut.depth < 0) return;
    params_.cut_pass = 1;
    launch(settle);
    params_.cut_pass = 0;
  }

  int team_width() const { return params_.bound != GpuBound::kLb1 ? 32 : params_.team_width; }

  // The kernel's instantiation for the bound and team width (explore_kernel.cuh): LB1 in teams
  // of 32, 16 or 8 lanes (each team an emulated warp of its width) at a placement fixed when
  // compiled, the LB2 kernels in whole warps at the placement of params_. What one team runs.
  std::function<void()> kernel_body(int i, unsigned char* ws, int& state) {
    if (params_.bound != GpuBound::kLb1) return placed<true, 32, Placement::kAuto>(i, ws, state);
    switch (params_.team_width) {
      case 8: return lb1_body<8>(i, ws, state);
      case 16: return lb1_body<16>(i, ws, state);
      default: return lb1_body<32>(i, ws, state);
    }
  }

  template <int kTeam>
  std::function<void()> lb1_body(int i, unsigned char* ws, int& state) {
    switch (config_.placement) {
      case Placement::kShared: return placed<false, kTeam, Placement::kShared>(i, ws, state);
      case Placement::kStackGlobal:
        return placed<false, kTeam, Placement::kStackGlobal>(i, ws, state);
      default: return placed<false, kTeam, Placement::kGlobal>(i, ws, state);
    }
  }

  template <bool kLb2, int kTeam, Placement kPlacement>
  std::function<void()> placed(int i, unsigned char* ws, int& state) {
    if (params_.cut.depth < 0) {
      return params_.persistent && !params_.settle
                 ? body<kLb2, kTeam, kPlacement, kPersistent>(i, ws, state)
                 : body<kLb2, kTeam, kPlacement, kCutOff>(i, ws, state);
    }
    if (params_.cut_pass) return body<kLb2, kTeam, kPlacement, kCutPassRecords>(i, ws, state);
    return params_.persistent && !params_.settle
               ? body<kLb2, kTeam, kPlacement, kPersistentRecord>(i, ws, state)
               : body<kLb2, kTeam, kPlacement, kCutExplore>(i, ws, state);
  }

  template <bool kLb2, int kTeam, Placement kPlacement, int kMode>
  std::function<void()> body(int i, unsigned char* ws, int& state) {
    return [this, i, ws, &state] {
      const Time* times = tables_.view().times_by_job;
      const JohnsonView johnson = params_.johnson;
      state = explore_team<Cell, kPlacement, kLb2, kTeam, kMode>(pool_, params_, times, johnson,
                                                                 ws, i);
    };
  }

  FlowshopTables tables_;
  JohnsonTables johnson_;
  std::vector<JohnsonEntry> johnson_sequence_;
  int n_, m_;
  EmulatedGpuConfig config_;
  int k_;
  std::vector<int> line_, state_, pos_, end_, dir_;
  std::vector<Cell> matrix_;
  std::vector<Time> stack_, bounds_, lb2_scratch_;
  std::vector<unsigned long long> decomposed_, leaves_;
  std::vector<int> best_;
  std::vector<double> length_;
  std::vector<int> claimed_, scratch_, min_;
  std::vector<unsigned char> workspace_;
  WorkQueueCounters queue_counters_;
  std::vector<unsigned> queue_ready_;
  std::vector<int> queue_digits_;
  PoolView pool_;
  Control control_;
  ExploreParams params_;
  std::vector<DeviceCutRecord> cut_buffer_, cut_drained_;
  std::vector<DeviceOpenCut> cut_open_;
  std::vector<CutRecord> cut_closed_;
  unsigned long long cut_count_ = 0;
  int cut_interrupted_ = 0;
  std::uint64_t cut_interruptions_ = 0;
};

}  // namespace permbb::gpu
