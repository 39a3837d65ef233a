#pragma once
// Certificates on the GPU (docs/audit.md, "The GPU explorer"): what the exploration kernel
// writes of the cut of its search tree, as common/cut_recorder.hpp does for a CPU explorer.
// Each IVM keeps the record of the depth-D node it is in open in global memory
// (DeviceOpenCut), touched only when the IVM decomposes a node at depth <= D, prunes a cell
// of a row above D, or evaluates a leaf; finished records are appended to one buffer that
// the host drains at every synchronisation (gpu/engine/device_cut_buffer.hpp). Host and
// device code.
#include <cstdint>

#include "flowshop_types.hpp"
#include "host_device.hpp"

namespace permbb::gpu {

// The deepest cut the GPU records (paths are fixed arrays on the device). The default cut
// (10^6 subproblems) is at most 9 deep for every n.
inline constexpr int kMaxGpuCutDepth = 16;

// The kernels of a run (WarpExplorer's kMode): without a certificate; recording, the
// exploring pass (it stops an IVM before a node at the cut level); recording, the cut pass
// (it writes the records and decomposes that node); without a certificate, the persistent
// explorer (warp_persistent.cuh: its teams share work on the device until a deadline);
// recording, the persistent explorer (its teams stop before a node at the cut level as the
// exploring pass does, and run the cut pass's code on their IVM there and then).
enum CutMode : int {
  kCutOff = 0,
  kCutExplore = 1,
  kCutPassRecords = 2,
  kPersistent = 3,
  kPersistentRecord = 4
};

// Whether a kernel mode records a certificate's cut.
PERMBB_HD constexpr bool records_cut(int mode) {
  return mode == kCutExplore || mode == kCutPassRecords || mode == kPersistentRecord;
}

// Whether a kernel mode explores as a recording run's exploring pass: it stops an IVM before
// a node at the cut level and leaves the records to the cut pass's code.
PERMBB_HD constexpr bool stops_at_cut(int mode) {
  return mode == kCutExplore || mode == kPersistentRecord;
}

// Whether a kernel mode is the persistent explorer's.
PERMBB_HD constexpr bool is_persistent(int mode) {
  return mode == kPersistent || mode == kPersistentRecord;
}

// What the exploring pass leaves to the cut pass, per IVM (DeviceOpenCut::pending): a step
// before a node at the cut level, the close of its last record, or the records of a start
// (a thief started in the exploring pass, its rows above D still to record).
enum CutPending : int {
  kPendingNone = 0,
  kPendingStep = 1,
  kPendingClose = 2,
  kPendingStarted = 3
};

// What a finished record says of its node (cut_record.hpp's three cases; a part of a node
// below D that the IVM did not enter, only started inside, is CutRecord::entered false).
enum DeviceCutKind : int {
  kCutExplored = 0,
  kCutAbove = 1,
  kCutPruned = 2,
  kCutStartedPart = 3
};

// One finished record: the node by its path (cut_step(job, direction) per step), and for
//  - kCutExplored: the IVM's counts in the node's subtree, the upper bounds in force from
//    the first decision there to the last, and the best makespan met;
//  - kCutAbove: a node above D, decomposed once, at upper bound ub_start;
//  - kCutPruned: its exact bound.
struct DeviceCutRecord {
  std::int16_t path[kMaxGpuCutDepth];
  int length;
  int kind;
  Time bound;
  Time ub_start;
  Time ub_end;
  Time best;
  unsigned long long decomposed;
  unsigned long long leaves;
};

// Split where heavy (docs/audit.md): below the cut depth D, down to the split depth, an IVM
// keeps one level per depth of the path it is on: the node's own step, the IVM's counters and
// the upper bound when it entered the node, the best makespan since. A level is recorded (a
// nested explored record, counts inclusive of its subtree) when the IVM leaves its node
// having decomposed at least `split_nodes` nodes in it, or when it holds a part of the node
// only (kLevelPart: the IVM started inside it, or a checkpoint split it, or the interval
// ended inside it): the other parts are recorded too, whatever their size, so that the parts
// of a node add up. A light whole node is forgotten: its nodes count in its parent's record.
// kLevelOpen: the IVM entered the node (decomposed it); kLevelPart: it started inside it, or
// goes on after a checkpoint split it.
enum LevelState : std::int16_t { kLevelClosed = 0, kLevelOpen = 1, kLevelPart = 2 };

struct DeviceNestedLevel {
  unsigned long long decomposed;  // the IVM's counters when it entered the node
  unsigned long long leaves;
  Time ub_start;
  Time best;
  std::int16_t step;   // cut_step of the node's own job and direction
  std::int16_t state;  // LevelState
};

// An IVM's open record of the depth-D node it explores: its path, and the IVM's counters,
// the upper bound and the best makespan since it was opened; and its levels below D
// (nested[e] for the node at depth e, D < e <= the split depth).
struct DeviceOpenCut {
  std::int16_t path[kMaxGpuCutDepth];
  int open;
  int pending;  // CutPending: what the cut pass does for this IVM
  Time started_ub;  // kPendingStarted: the upper bound its start pruned with
  Time ub_start;
  Time best;
  unsigned long long decomposed;  // the IVM's counters when opened
  unsigned long long leaves;
  DeviceNestedLevel nested[kMaxGpuCutDepth + 1];
};

// Where the kernel records (ExploreParams::cut). depth < 0: the run records nothing.
// Only the cut pass writes records, an IVM at most cut_records_per_ivm of them per pass, and
// it looks at `count` first: it waits (and raises `interrupted`) when the room left could not
// take that from every IVM at once, so the buffer never overflows.
struct CutBufferView {
  int depth = -1;
  int split_depth = 0;                    // the deepest nested level; <= depth: none
  unsigned long long split_nodes = 0;     // a node left with this many decomposed is recorded
  DeviceCutRecord* records = nullptr;
  unsigned long long capacity = 0;
  unsigned long long reserve = 0;         // ivms x reserve_per_ivm
  unsigned long long* count = nullptr;    // records appended since the host's last drain
  int* interrupted = nullptr;             // an IVM stopped short for want of room
  DeviceOpenCut* open = nullptr;          // one per IVM
};

// The most records one IVM writes in one step (a record closed with its nested levels, one
// opened or an inner node, the pruned cells of one row) or in its start (the pruned cells of
// every row above D).
PERMBB_HD long long cut_records_per_ivm(int n, int depth, int split_depth) {
  const int nested = split_depth > depth ? split_depth - depth : 0;
  return static_cast<long long>(depth + 1) * n + 2 + nested;
}

}  // namespace permbb::gpu
