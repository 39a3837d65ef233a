#pragma once
// The exploration kernel's side of a certificate (device_cut.hpp): what lane 0 of an IVM's
// team writes, at the moments common/ivm_explorer.cpp tells its CutRecorder, with the same
// meaning (cut_record.hpp). WarpExplorer calls these only in the cut pass of a recording run
// (note_leaf in its exploring pass too), from lane 0; the team syncs after.
#include "cut_record.hpp"
#include "device_cut.hpp"
#include "ivm.hpp"

namespace permbb::gpu::cut {

// The path of the node selected in rows 0..rows-1 (depth `rows`).
template <class Cell>
__device__ void write_path(std::int16_t* path, const ivm::View<Cell>& v, int rows) {
  for (int i = 0; i < rows; ++i) path[i] = cut_step(ivm::selected_job(v, i), v.dir[i]);
}

// A slot of the buffer: out_of_room() looked before, so it is below the capacity.
__device__ inline DeviceCutRecord& append(const CutBufferView& cut) {
  return cut.records[atomicAdd(cut.count, 1ULL)];
}

// True when the buffer could not take what every IVM may write before its next look: the
// IVM stops short and the host drains the buffer (lane 0 looks; the team follows its word).
__device__ inline bool out_of_room(const CutBufferView& cut) {
  const unsigned long long used = *static_cast<volatile unsigned long long*>(cut.count);
  return used + cut.reserve > cut.capacity;
}

// CutRecorder::close: the IVM leaves the depth-D node it explored (its counters now).
__device__ inline void close(const CutBufferView& cut, int ivm, unsigned long long decomposed,
                             unsigned long long leaves, Time ub) {
  DeviceOpenCut& open = cut.open[ivm];
  if (!open.open) return;
  open.open = 0;
  DeviceCutRecord& r = append(cut);
  for (int i = 0; i < cut.depth; ++i) r.path[i] = open.path[i];
  r.length = cut.depth;
  r.kind = kCutExplored;
  r.bound = 0;
  r.ub_start = open.ub_start;
  r.ub_end = ub;  // the bound only falls: never above the one of the last decision
  r.best = open.best;
  r.decomposed = decomposed - open.decomposed;
  r.leaves = leaves - open.leaves;
}

// CutRecorder::open: the IVM enters the depth-D node selected in rows 0..D-1.
template <class Cell>
__device__ void open(const CutBufferView& cut, int ivm, const ivm::View<Cell>& v,
                     unsigned long long decomposed, unsigned long long leaves, Time ub) {
  DeviceOpenCut& open = cut.open[ivm];
  write_path(open.path, v, cut.depth);
  open.open = 1;
  open.ub_start = ub;
  open.best = kInfiniteTime;
  open.decomposed = decomposed;
  open.leaves = leaves;
}

// CutRecorder::enter_cut_level for a node above D (row r, depth r + 1 < D): decomposed once.
template <class Cell>
__device__ void above(const CutBufferView& cut, const ivm::View<Cell>& v, int r, Time ub) {
  DeviceCutRecord& rec = append(cut);
  write_path(rec.path, v, r + 1);
  rec.length = r + 1;
  rec.kind = kCutAbove;
  rec.bound = 0;
  rec.ub_start = ub;
  rec.ub_end = ub;
  rec.best = kInfiniteTime;
  rec.decomposed = 1;
  rec.leaves = 0;
}

// IvmExplorer::note_pruned_cells: the pruned cells of row r < D from the position on (those
// before it lie in the interval on the left, whose explorer records them), each with its
// exact bound.
template <class Cell>
__device__ void pruned_cells(const CutBufferView& cut, const ivm::View<Cell>& v, int r,
                             const Time* bounds) {
  const Cell* cells = ivm::row(v, r);
  for (int i = v.pos[r]; i < ivm::row_length(r, v.n); ++i) {
    if (!ivm::is_pruned(cells[i])) continue;
    DeviceCutRecord& rec = append(cut);
    write_path(rec.path, v, r);
    rec.path[r] = cut_step(ivm::job_of(cells[i]), v.dir[r]);
    rec.length = r + 1;
    rec.kind = kCutPruned;
    rec.bound = bounds[i];
    rec.ub_start = 0;
    rec.ub_end = kInfiniteTime;
    rec.best = kInfiniteTime;
    rec.decomposed = 0;
    rec.leaves = 0;
  }
}

// CutRecorder::note_leaf (the exploring pass: a read, and rarely a write, per leaf), for the
// depth-D record and every open level below it.
__device__ inline void leaf(const CutBufferView& cut, int ivm, Time makespan) {
  DeviceOpenCut& open = cut.open[ivm];
  if (makespan < open.best) open.best = makespan;
  for (int e = cut.depth + 1; e <= cut.split_depth && open.nested[e].state != kLevelClosed; ++e) {
    if (makespan < open.nested[e].best) open.nested[e].best = makespan;
  }
}

// Split where heavy (device_cut.hpp, DeviceNestedLevel): whether the node of level `l`, left
// at the IVM's counter `decomposed`, is recorded.
__device__ inline bool level_recorded(const CutBufferView& cut, const DeviceNestedLevel& l,
                                      unsigned long long decomposed) {
  return l.state == kLevelPart || decomposed - l.decomposed >= cut.split_nodes;
}

// The IVM enters the node selected in row e-1 (depth e, D < e <= the split depth), or starts
// inside it (`state` kLevelPart); the level below is closed (a light node's open levels below
// it are forgotten with it).
template <class Cell>
__device__ void open_level(const CutBufferView& cut, int ivm, const ivm::View<Cell>& v, int e,
                           unsigned long long decomposed, unsigned long long leaves, Time ub,
                           LevelState state) {
  DeviceOpenCut& open = cut.open[ivm];
  DeviceNestedLevel& l = open.nested[e];
  l.decomposed = decomposed;
  l.leaves = leaves;
  l.ub_start = ub;
  l.best = kInfiniteTime;
  l.step = cut_step(ivm::selected_job(v, e - 1), v.dir[e - 1]);
  l.state = state;
  if (e + 1 <= cut.split_depth) open.nested[e + 1].state = kLevelClosed;
}

// The exploring pass, about to enter the node at depth e (D < e <= the split depth): true when
// the node it leaves at that depth is to be recorded (the IVM stops; the cut pass records);
// otherwise that node, light and whole, is forgotten and the level opens for the new one.
// One read and one write of the IVM's levels per node entered at those depths.
template <class Cell>
__device__ bool enter_level_or_stop(const CutBufferView& cut, int ivm, const ivm::View<Cell>& v,
                                    int e, unsigned long long decomposed,
                                    unsigned long long leaves, Time ub) {
  const DeviceNestedLevel& l = cut.open[ivm].nested[e];
  if (l.state != kLevelClosed && level_recorded(cut, l, decomposed)) return true;
  open_level(cut, ivm, v, e, decomposed, leaves, ub, kLevelOpen);
  return false;
}

// The record of level e: the depth-D record's path, then the levels' steps.
__device__ inline void write_level(const CutBufferView& cut, const DeviceOpenCut& open, int e,
                                   unsigned long long decomposed, unsigned long long leaves,
                                   Time ub) {
  const DeviceNestedLevel& l = open.nested[e];
  DeviceCutRecord& r = append(cut);
  for (int i = 0; i < cut.depth; ++i) r.path[i] = open.path[i];
  for (int i = cut.depth + 1; i <= e; ++i) r.path[i - 1] = open.nested[i].step;
  r.length = e;
  r.kind = l.state == kLevelOpen ? kCutExplored : kCutStartedPart;
  r.bound = 0;
  r.ub_start = l.ub_start;
  r.ub_end = ub;
  r.best = l.best;
  r.decomposed = decomposed - l.decomposed;
  r.leaves = leaves - l.leaves;
}

// The IVM leaves its open nodes at depths >= e (D < e): each is recorded when heavy or a
// part, every one of them a part when `part` (its interval ended inside them), and closes.
__device__ inline void close_levels(const CutBufferView& cut, int ivm, int e,
                                    unsigned long long decomposed, unsigned long long leaves,
                                    Time ub, bool part) {
  DeviceOpenCut& open = cut.open[ivm];
  for (int d = e; d <= cut.split_depth && open.nested[d].state != kLevelClosed; ++d) {
    if (part || level_recorded(cut, open.nested[d], decomposed)) {
      write_level(cut, open, d, decomposed, leaves, ub);
    }
    open.nested[d].state = kLevelClosed;
  }
}

}  // namespace permbb::gpu::cut
