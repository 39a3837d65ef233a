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

// CutRecorder::note_leaf (the exploring pass: a read, and rarely a write, per leaf).
__device__ inline void leaf(const CutBufferView& cut, int ivm, Time makespan) {
  DeviceOpenCut& open = cut.open[ivm];
  if (makespan < open.best) open.best = makespan;
}

}  // namespace permbb::gpu::cut
