#pragma once
// WarpExplorer: one team of lanes (a warp, or W = 16 or 8 lanes of one: warp packing,
// docs/gpu.md "Teams") drives one IVM through the operators of the CPU explorer
// (common/ivm_explorer.cpp), with the same node-counting rule (docs/architecture.md):
//   start()  root decomposition and the unfold to the start position, uncounted;
//   step()   select (warp::advance, or ivm::advance on lane 0), then decompose the selected
//            node: its bound summary from its parent's (warp scan), one decomposed node; at
//            row n-2 its leaf is evaluated (one leaf, pos[r]++); otherwise the next row is
//            generated, both children sets bounded, the direction chosen, the row pruned
//            (with one job the node selected in row 0 is itself the root's leaf);
//   settle() steps until ivm::at_clean_point, so that [pos, end) is exactly what is left.
// Selection is sequential by nature (2022 §3.2: one warp per IVM avoids divergence between
// IVMs; teams of one warp run the same step loop, each on its IVM); the team scans a row with
// a ballot instead of cell by cell, with ivm::advance's
// results (warp_ivm.cuh). Bounding is warp-parallel (2022 §3.3). The remaining sequential
// steps (descend, init_step, decode, at_clean_point) are ivm.hpp's, on lane 0. The IVM works
// in shared or global memory (WarpLayout); the kernel loads it before and stores it after a
// launch.
#include "device_types.hpp"
#include "ivm.hpp"
#include "lb1.hpp"
#include "warp_branching.cuh"
#include "warp_cut.cuh"
#include "warp_ivm.cuh"
#include "warp_lb1.cuh"
#include "warp_lb2.cuh"

namespace permbb::gpu {

// kLb2: the bounding of params.bound is LB2 or lb1+lb2 (the LB1-only kernel carries none of
// its code or scratch). kMode (device_cut.hpp, CutMode): whether the launch records its cut
// for a certificate (params.cut, warp_cut.cuh), and in which pass. A run with a certificate
// explores in two kernels: the exploring pass stops an IVM before a node at the cut level
// (and leaves its last record, and the records of a thief it started, to the cut pass), and
// the cut pass writes the records and decomposes that node. The exploring pass thus carries
// none of the records' code: in one kernel, it made the exploration loop spill registers
// (VFR30_15_2 20 % slower on an H100, docs/audit.md). The persistent explorer's recording
// kernel explores as an exploring pass and calls the cut pass's code, not inlined, where its
// team stopped (warp_persistent.cuh). A run without a certificate runs kernels without any of
// it. kTeam: the lanes driving the IVM, 32 for the LB2 kernels (their
// bounds spread a child's pairs over the whole warp). kPlacement: where the IVM lives, fixed
// when compiled, or kAuto for the one the launch chose (params.placement, never kAuto there):
// the LB2 kernels take it at launch, their time going to the bound's sweeps.
template <class Cell, Placement kPlacement, bool kLb2, int kTeam = warp::kSize,
          int kMode = kCutOff>
class WarpExplorer {
  static_assert(!kLb2 || kTeam == warp::kSize, "the LB2 kernels run one IVM per warp");
  static constexpr bool kRecord = records_cut(kMode);
  static constexpr bool kCutPass = kMode == kCutPassRecords;

 public:
  __device__ WarpExplorer(const PoolView& pool, int ivm, const ExploreParams& params,
                          const Time* times, const JohnsonView& johnson,
                          unsigned char* workspace)
      : pool_(pool),
        params_(params),
        ivm_(ivm),
        n_(pool.n),
        m_(pool.m),
        data_{pool.n, pool.m, times, params.data.min_heads, params.data.min_tails,
              params.data.total_times},
        johnson_(johnson),
        placement_(kPlacement == Placement::kAuto ? params.placement : kPlacement) {
    const WarpLayout& l = params.layout;
    if (placement_ == Placement::kGlobal) {
      v_ = home();
      stack_ = home_stack();
      lb_front_ = pool.bounds + static_cast<long long>(ivm) * kBoundsPerJob * n_;
      lb_back_ = lb_front_ + n_;
      todo_ = lb_back_ + n_;
      scheduled_ = reinterpret_cast<unsigned char*>(todo_ + n_);
      return;
    }
    v_ = {n_, reinterpret_cast<int*>(workspace + l.line), reinterpret_cast<int*>(workspace + l.pos),
          reinterpret_cast<int*>(workspace + l.end), reinterpret_cast<int*>(workspace + l.dir),
          reinterpret_cast<Cell*>(workspace + l.matrix)};
    stack_ = placement_ == Placement::kShared ? reinterpret_cast<Time*>(workspace + l.stack)
                                              : home_stack();
    lb_front_ = reinterpret_cast<Time*>(workspace + l.lb_front);
    lb_back_ = reinterpret_cast<Time*>(workspace + l.lb_back);
    if (kLb2) {
      todo_ = reinterpret_cast<int*>(workspace + l.todo);
      scheduled_ = workspace + l.scheduled;
    }
  }

  // Brings the IVM into the workspace: the interval only for an initializing IVM, else the
  // rows and summaries up to the current line. Nothing is pending after a load.
  __device__ void load(bool initializing) {
    pending_ = false;
    if (placement_ != Placement::kGlobal) {
      const ivm::View<Cell> h = home();
      warp::copy<kTeam>(h.pos, v_.pos, n_);
      warp::copy<kTeam>(h.end, v_.end, n_);
      if (!initializing) {
        if (lane0()) *v_.line = *h.line;
        warp::copy<kTeam>(h.dir, v_.dir, n_);
        warp::sync<kTeam>();
        const int line = *v_.line;
        warp::copy<kTeam>(h.matrix, v_.matrix, ivm::row_offset(line + 1, n_));
        if (placement_ == Placement::kShared) {
          warp::copy<kTeam>(home_stack(), stack_, 3LL * m_ * (line + 1));
        }
      }
    }
    warp::sync<kTeam>();
  }

  // Writes the IVM back with its new state and adds the node counts since the last store
  // (the counts are added once however often it is called).
  __device__ void store(int state) {
    if (placement_ != Placement::kGlobal && state != kEmpty) {
      const ivm::View<Cell> h = home();
      const int line = *v_.line;
      if (lane0()) *h.line = line;
      warp::copy<kTeam>(v_.pos, h.pos, n_);
      warp::copy<kTeam>(v_.end, h.end, n_);
      warp::copy<kTeam>(v_.dir, h.dir, n_);
      warp::copy<kTeam>(v_.matrix, h.matrix, ivm::row_offset(line + 1, n_));
      if (placement_ == Placement::kShared) {
        warp::copy<kTeam>(stack_, home_stack(), 3LL * m_ * (line + 1));
      }
    }
    if (lane0()) {
      pool_.state[ivm_] = state;
      pool_.decomposed[ivm_] += decomposed_;
      pool_.leaves[ivm_] += leaves_;
    }
    decomposed_ = 0;
    leaves_ = 0;
    warp::sync<kTeam>();
  }

  // IvmExplorer::start at [pos, end): false when the interval is empty.
  __device__ bool start() {
    bool open = false;
    upper_bound_ = read_upper_bound();
    if (lane0()) {
      if constexpr (kCutPass) close_record(true);
      *v_.line = 0;
      open = ivm::before_end(v_);
    }
    open = warp::broadcast_bool<kTeam>(open);
    warp::sync<kTeam>();
    if (!open) return false;
    warp::set_root_row<kTeam>(v_);
    if (lane0()) lb1_root(data_, front(0), back(0), remain(0));
    warp::sync<kTeam>();
    bound_and_prune_row(0, 0);
    unfold();
    if constexpr (kCutPass) after_start();
    return true;
  }

  // IvmExplorer::step: false once the interval is exhausted. Recording, exploring pass: true
  // without a step before a node at the cut level, left to the cut pass (pending()).
  __device__ bool step() {
    upper_bound_ = read_upper_bound();
    if (!advance()) return false;
    if (stop_at_cut_level()) return true;
    decompose_current();
    return true;
  }

  // IvmExplorer::normalize: the position moves to the next node to decompose, every digit in
  // range (work stealing cuts [pos, end) only then). False when exhausted.
  __device__ bool normalize() { return advance(); }

  // IvmExplorer::settle: false when exhausted, true at a clean point or (recording) before a
  // node at the cut level, left to the cut pass (the host settles again after it).
  __device__ bool settle() {
    while (true) {
      if (!advance()) return false;
      bool clean = false;
      if (lane0()) clean = ivm::at_clean_point(v_);
      if (warp::broadcast_bool<kTeam>(clean)) return true;
      upper_bound_ = read_upper_bound();
      if (stop_at_cut_level()) return true;
      decompose_current();
    }
  }

  // Recording, exploring pass: the IVM stopped before a node at the cut level.
  __device__ bool pending() const { return stops_at_cut(kMode) && pending_; }

  // Recording, exploring pass: a step left pending by a cut pass that found no room is
  // forgotten; this pass stops there again if it must (a settle that finds the IVM clean
  // there must not leave it to the cut pass, which would decompose a node it hands over).
  __device__ void forget_pending_step() {
    if (lane0() && cut_view().open[ivm_].pending == kPendingStep) {
      cut_view().open[ivm_].pending = kPendingNone;
    }
    warp::sync<kTeam>();
  }

  // Recording, exploring pass: the interval is exhausted; its last record is the cut pass's.
  __device__ void leave_close_pending() {
    if (lane0() && cut_view().open[ivm_].open) cut_view().open[ivm_].pending = kPendingClose;
    warp::sync<kTeam>();
  }

  // Recording, cut pass (device_cut.hpp, CutPending): the node the exploring pass stopped
  // before is recorded (IvmExplorer::note_cut_level), then decomposed.
  __device__ void step_at_cut_level() {
    upper_bound_ = read_upper_bound();
    enter_cut_level(*v_.line);
    decompose_current();
  }

  // Recording, cut pass: the record of the node the IVM was in closes, at the bound in force
  // now (never above that of its last decision).
  __device__ void close_exhausted() {
    upper_bound_ = read_upper_bound();
    if (lane0()) close_record(true);
    warp::sync<kTeam>();
  }

  // Recording, exploring pass: a thief started here, nothing counted yet. Its records (the
  // pruned cells of its rows above D, the record of the depth-D node it starts in) are the
  // cut pass's, at the upper bound it pruned with; it waits for them as it is.
  __device__ void leave_start_pending() {
    if (lane0()) {
      DeviceOpenCut& open = cut_view().open[ivm_];
      open.pending = kPendingStarted;
      open.started_ub = upper_bound_;
    }
    warp::sync<kTeam>();
  }

  // Recording, cut pass: the records of a start the exploring pass made, as start() would
  // have written them here: its rows above D bounded again, exactly, their direction chosen
  // again from the exact bounds, their pruned cells from the position on; then the record of
  // the depth-D node it starts in opens. The direction of a row with a child below the cutoff
  // never depends on the upper bound (branching.hpp, needs_exact_sums), so a row on the
  // start's path keeps its own; the start's last row may have had every child of both sides
  // at or above the cutoff, pruned whatever the direction, which the cut-off bounds then
  // chose arbitrarily: its pruned records take the direction the exact bounds give, as every
  // other explorer's records of that node and the audit's rebuild do.
  __device__ void record_start() {
    const int depth = cut_view().depth;
    const int rows = *v_.line + 1 < depth ? *v_.line + 1 : depth;
    for (int r = 0; r < rows; ++r) {
      const Time* kept = bound_row(r, r, true, kNoDirection);
      if (lane0()) cut::pruned_cells(cut_view(), v_, r, kept);
      warp::sync<kTeam>();
    }
    upper_bound_ = cut_view().open[ivm_].started_ub;
    after_start();
  }

  // Recording, cut pass: lane 0 looks at the buffer's room before the IVM writes (at most
  // cut_records_per_ivm records); the team follows its word. True: the host drains first.
  __device__ bool looked_short() {
    bool full = false;
    if (lane0()) {
      full = cut::out_of_room(cut_view());
      if (full) *cut_view().interrupted = 1;
    }
    return warp::broadcast_bool<kTeam>(full);
  }

  // Persistent explorer (warp_persistent.cuh), a normalised IVM: while hungry teams wait, the
  // right half of [pos, end) is queued for them, at most `limit` halves, each from an interval
  // at least the minimum steal length (the split of work stealing: steal_logic.hpp,
  // split_interval).
  __device__ void share(const WorkQueueView& queue, int limit) {
    if (lane0()) {
      int* half = pool_.scratch + static_cast<long long>(ivm_) * n_;
      for (int k = 0; k < limit; ++k) {
        factoradic::subtract(v_.end, v_.pos, half, n_);
        if (factoradic::compare(half, pool_.min_steal, n_) < 0) break;
        if (!queue_claim_request(queue)) break;
        factoradic::midpoint(v_.pos, v_.end, half, n_);
        queue_push(queue, half, v_.end);
        for (int d = 0; d < n_; ++d) v_.end[d] = half[d];
        atomicAdd(&params_.control->steals, 1ULL);
      }
    }
    warp::sync<kTeam>();
  }

  // Persistent explorer, an empty IVM: a queued interval becomes its own, to start. `leaving`:
  // the team's launch is over, it cancels its request or takes what it became
  // (work_queue.hpp, queue_leave). True when it took one.
  __device__ bool take(const WorkQueueView& queue, bool leaving) {
    bool took = false;
    if (lane0()) {
      took = leaving ? queue_leave(queue, v_.pos, v_.end) : queue_take(queue, v_.pos, v_.end);
      if (took) *v_.line = 0;  // stored as initializing: only the interval counts
    }
    took = warp::broadcast_bool<kTeam>(took);
    warp::sync<kTeam>();
    return took;
  }

 private:
  __device__ static bool lane0() { return warp::lane<kTeam>() == 0; }

  // Certificates (warp_cut.cuh), kRecord only: where the launch records, at depth D.
  __device__ const CutBufferView& cut_view() const { return params_.cut; }
  // The IVM's counters so far (this launch's counts are added at store()).
  __device__ unsigned long long decomposed() const { return pool_.decomposed[ivm_] + decomposed_; }
  __device__ unsigned long long leaves() const { return pool_.leaves[ivm_] + leaves_; }

  // The IVM's open record closes here with its levels below D (lane 0); `exhausted`: its
  // interval ended, so each open level holds a part of its node.
  __device__ void close_record(bool exhausted) {
    cut::close_levels(cut_view(), ivm_, cut_view().depth + 1, decomposed(), leaves(),
                      upper_bound_, exhausted);
    cut::close(cut_view(), ivm_, decomposed(), leaves(), upper_bound_);
  }

  // Recording, exploring pass: true before a node at depth <= D (its decomposition records),
  // or before a node at a split level whose predecessor there is to be recorded
  // (cut::enter_level_or_stop); the cut pass takes it (its pending step, counted in
  // Control::cut_pending).
  __device__ bool stop_at_cut_level() {
    if constexpr (!stops_at_cut(kMode)) return false;
    const int depth = *v_.line + 1;
    if (depth > cut_view().depth) {
      if (depth > cut_view().split_depth) return false;
      bool stop = false;
      if (lane0()) {
        stop = cut::enter_level_or_stop(cut_view(), ivm_, v_, depth, decomposed(), leaves(),
                                        upper_bound_);
      }
      if (!warp::broadcast_bool<kTeam>(stop)) return false;
    }
    if (lane0()) cut_view().open[ivm_].pending = kPendingStep;
    pending_ = true;
    warp::sync<kTeam>();
    return true;
  }

  // CutRecorder::after_start: the replay ended below D, inside a depth-D node the interval on
  // the left decomposed; the IVM's record of that node opens here, and a part of each node
  // on its path down to the split depth (the node it decomposes next it enters whole).
  __device__ void after_start() {
    const CutBufferView& cut = cut_view();
    const int line = *v_.line;
    if (lane0() && line + 1 > cut.depth) {
      open_record();
      const int deepest = line < cut.split_depth ? line : cut.split_depth;
      for (int e = cut.depth + 1; e <= deepest; ++e) {
        cut::open_level(cut, ivm_, v_, e, decomposed(), leaves(), upper_bound_, kLevelPart);
      }
      if (deepest < cut.depth + 1 && cut.depth + 1 <= cut.split_depth) {
        cut.open[ivm_].nested[cut.depth + 1].state = kLevelClosed;
      }
    }
    warp::sync<kTeam>();
  }

  // The IVM's record of the depth-D node selected in rows 0..D-1 opens here (lane 0).
  __device__ void open_record() {
    cut::open(cut_view(), ivm_, v_, decomposed(), leaves(), upper_bound_);
  }

  // IvmExplorer::note_cut_level: the node about to be decomposed in row r, at depth r + 1,
  // before it counts. Above D it is recorded as decomposed; at D its record opens; at a split
  // level, the nodes it leaves there and below are recorded if heavy, and its level opens.
  __device__ void enter_cut_level(int r) {
    const CutBufferView& cut = cut_view();
    if (lane0()) {
      if (r + 1 > cut.depth) {
        cut::close_levels(cut, ivm_, r + 1, decomposed(), leaves(), upper_bound_, false);
        cut::open_level(cut, ivm_, v_, r + 1, decomposed(), leaves(), upper_bound_, kLevelOpen);
      } else {
        close_record(false);
        if (r + 1 < cut.depth) {
          cut::above(cut, v_, r, upper_bound_);
        } else {
          open_record();
        }
      }
    }
    warp::sync<kTeam>();
  }

  // This IVM's part of the LB2 kernels' scratch in global memory (warp_lb2_shared.cuh).
  __device__ warp::Lb2Scratch lb2_scratch() const {
    if (pool_.lb2_scratch == nullptr) return {};
    return warp::lb2_scratch_at(pool_.lb2_scratch + ivm_ * lb2_scratch_times(n_, m_), n_, m_);
  }

  // The IVM's own storage in global memory.
  __device__ ivm::View<Cell> home() const {
    const long long at = static_cast<long long>(ivm_) * n_;
    return {n_, pool_.line + ivm_, pool_.pos + at, pool_.end + at, pool_.dir + at,
            static_cast<Cell*>(pool_.matrix) + pool_.cells * ivm_};
  }
  __device__ Time* home_stack() const {
    return pool_.stack + ivm_ * stack_times(n_, m_);
  }
  __device__ Time* front(int level) const { return stack_ + 3LL * m_ * level; }
  __device__ Time* back(int level) const { return front(level) + m_; }
  __device__ Time* remain(int level) const { return front(level) + 2 * m_; }
  // Scratch while children are bounded: their tails (device_types.hpp, tails_level).
  __device__ Time* tails() const { return front(tails_level(n_)); }

  // ivm::advance on lane 0, or its warp-parallel equivalent (params.select, docs/gpu.md).
  __device__ bool advance() {
    if (params_.select == kSelectWarp) return warp::advance<kTeam>(v_);
    bool found = false;
    if (lane0()) found = ivm::advance(v_);
    found = warp::broadcast_bool<kTeam>(found);
    warp::sync<kTeam>();
    return found;
  }

  // The pruning threshold: the device incumbent, which leaves of every IVM lower at once.
  // Every lane loads it (one transaction), so its latency overlaps the bounding before use.
  __device__ Time read_upper_bound() const {
    return key_value(*static_cast<volatile unsigned long long*>(&params_.control->best_key));
  }

  // The summary of the node selected in row r (level r+1) from its parent's (level r).
  __device__ void compute_node_costs(int r) {
    const int job = ivm::selected_job(v_, r);
    warp::child_summary<kTeam>(data_, front(r), back(r), remain(r), job, v_.dir[r], front(r + 1),
                        back(r + 1), remain(r + 1));
  }

  // IvmExplorer::bound_and_prune_row: children of the node at `level` (the jobs of row r)
  // bounded, the direction of row r chosen, row r pruned.
  __device__ void bound_and_prune_row(int r, int level) {
    // The rows of a recorded cut are bounded exactly (a pruned record carries its bound).
    const bool cut_row = kCutPass && r < cut_view().depth;
    const Time* kept = bound_row(r, level, cut_row, kNoDirection);
    warp::prune_row<kTeam>(v_, r, kept, upper_bound_);
    if constexpr (kCutPass) {
      if (cut_row) {
        if (lane0()) cut::pruned_cells(cut_view(), v_, r, kept);
        warp::sync<kTeam>();
      }
    }
  }

  static constexpr int kNoDirection = -1;

  // The children of the node at `level` (the jobs of row r) bounded: exactly, or with LB2's
  // early exit at the upper bound. The direction is chosen and written to row r, or with
  // `direction` >= 0 given (a row bounded again: the direction never depends on the upper
  // bound). Returns the bounds of the direction kept, per cell.
  __device__ const Time* bound_row(int r, int level, bool exact, int direction) {
    const Cell* cells = ivm::row(v_, r);
    const int count = ivm::row_length(r, n_);
    const BranchingRule rule = params_.rule;
    const bool both = needs_both_directions(rule);
    const bool want_front = both || rule == BranchingRule::kForward;
    const bool want_back = both || rule == BranchingRule::kBackward;
    if (!kLb2 || params_.bound == GpuBound::kLb1ThenLb2) {
      warp::bound_children<kTeam>(data_, front(level), back(level), remain(level), cells, count,
                                  want_front, want_back, lb_front_, lb_back_, tails());
    }
    warp::Lb2Node node{};
    if constexpr (kLb2) {
      const FreeJobBits free_jobs = warp::mark_fixed_jobs(cells, count, n_, scheduled_);
      node = {data_,           johnson_,  front(level),        back(level),
              remain(level),   scheduled_, free_jobs,          lb2_scratch(),
              params_.lb2_shared};
      if (params_.bound == GpuBound::kLb2) {
        const Time cutoff = exact ? kInfiniteTime : lb2_cutoff(rule, upper_bound_);
        warp::bound_children_lb2(node, cells, count, want_front, want_back, cutoff,
                                 params_.mapping, lb_front_, n_, params_.lb2_screen);
        // The direction must not depend on the upper bound: IvmExplorer::bound_and_prune_row.
        if (warp::needs_exact_sums(rule, lb_front_, lb_back_, count, cutoff)) {
          warp::bound_children_lb2(node, cells, count, want_front, want_back, kInfiniteTime,
                                   params_.mapping, lb_front_, n_, params_.lb2_screen, cutoff);
        }
      }
    }
    if (direction == kNoDirection) {
      direction = warp::choose_direction<kTeam>(rule, lb_front_, lb_back_, count);
      if (lane0()) v_.dir[r] = direction;
    }
    Time* kept = direction == kFront ? lb_front_ : lb_back_;
    if constexpr (kLb2) {
      if (params_.bound == GpuBound::kLb1ThenLb2) {
        // LB2 is never below LB1: a cut row's children bounded by LB2 alone prune the same.
        warp::refine_with_lb2(node, cells, count, direction,
                              exact ? kInfiniteTime : upper_bound_, params_.mapping, kept,
                              todo_, params_.lb2_screen);
      }
    }
    return kept;
  }

  // IvmExplorer::unfold: replays the path to the start position, uncounted.
  __device__ void unfold() {
    while (true) {
      bool descend = false;
      if (lane0()) descend = ivm::init_step(v_) == ivm::InitStep::kDescend;
      descend = warp::broadcast_bool<kTeam>(descend);
      warp::sync<kTeam>();
      if (!descend) return;
      const int r = *v_.line;
      compute_node_costs(r);
      warp::generate_row<kTeam>(v_, r);
      bound_and_prune_row(r + 1, r + 1);
      if (lane0()) ++*v_.line;
      warp::sync<kTeam>();
    }
  }

  // IvmExplorer::decompose_current.
  __device__ void decompose_current() {
    const int r = *v_.line;
    if (r == ivm::leaf_row(n_)) {
      // One job: the root (decomposed uncounted in start()) is the leaf parent.
      evaluate_leaf(r, ivm::selected_job(v_, r));
      if (lane0()) ++v_.pos[r];
      warp::sync<kTeam>();
      return;
    }
    compute_node_costs(r);
    ++decomposed_;
    if (r == ivm::leaf_parent_row(n_)) {
      evaluate_leaf(r + 1, ivm::job_of(ivm::row(v_, r)[1 - v_.pos[r]]));
      if (lane0()) ++v_.pos[r];
      warp::sync<kTeam>();
      return;
    }
    warp::generate_row<kTeam>(v_, r);
    bound_and_prune_row(r + 1, r + 1);
    if (lane0()) ivm::descend(v_);
    warp::sync<kTeam>();
  }

  // IvmExplorer::evaluate_leaf: the node summarised at `level` with `last_job` between its
  // prefix and suffix (rows 0..level-1 fixed its jobs). A better schedule is decoded into
  // this IVM's slot, then published with atomicMin on (makespan, IVM); the host picks it up
  // at its next look.
  __device__ void evaluate_leaf(int level, int last_job) {
    const bool suffix_empty = !warp::any_equal<kTeam>(v_.dir, 0, level, kBack);
    const Time makespan =
        warp::complete_makespan<kTeam>(data_, front(level), back(level), suffix_empty, last_job);
    ++leaves_;
    if constexpr (kRecord) {
      if (lane0()) cut::leaf(cut_view(), ivm_, makespan);
    }
    if (makespan >= upper_bound_) return;
    if (lane0()) {
      int suffix_begin = 0;
      ivm::decode(v_, pool_.best_schedule + static_cast<long long>(ivm_) * n_, &suffix_begin);
      __threadfence();
      atomicMin(&params_.control->best_key, make_best_key(makespan, static_cast<unsigned>(ivm_)));
    }
    warp::sync<kTeam>();
    upper_bound_ = read_upper_bound();
  }

  const PoolView& pool_;
  const ExploreParams& params_;
  const int ivm_;
  const int n_;
  const int m_;
  const FlowshopView data_;
  const JohnsonView johnson_;
  const Placement placement_;
  ivm::View<Cell> v_;
  Time* stack_ = nullptr;
  Time* lb_front_ = nullptr;
  Time* lb_back_ = nullptr;
  int* todo_ = nullptr;                  // LB2: compacted children
  unsigned char* scheduled_ = nullptr;   // LB2: the node's fixed jobs
  Time upper_bound_ = kInfiniteTime;
  unsigned decomposed_ = 0;  // this launch's counts
  unsigned leaves_ = 0;
  bool pending_ = false;  // recording, exploring pass: stopped before a node at the cut level
};

}  // namespace permbb::gpu
