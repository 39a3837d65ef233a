#pragma once
// What an explorer records of the cut of its search tree for a certificate (docs/audit.md):
// the subproblems at a fixed depth D (the cut depth), each explored or pruned, and the nodes
// above D that it decomposed; the GPU explorer also records nested explored nodes below D
// where its part of them was heavy (split where heavy, CutRecording). Records of one node from
// several explorers (an interval split inside the node's subtree), threads, GPUs or ranks merge
// by addition (SearchCut).
#include <cstdint>
#include <vector>

#include "flowshop_types.hpp"
#include "host_device.hpp"
#include "node_counters.hpp"

namespace permbb {

// A node of the branching tree by the steps from the root that made it: per step, the job
// fixed and its direction, as `job * 2 + direction` (branching.hpp's kFront = 0, kBack = 1).
// Paths identify nodes however the tree's branching directions fall.
using CutPath = std::vector<std::int16_t>;

// Host and device: the GPU explorer writes paths too (gpu/warp/warp_cut.cuh).
PERMBB_HD std::int16_t cut_step(int job, int direction) {
  return static_cast<std::int16_t>(job * 2 + direction);
}
inline int step_job(std::int16_t step) { return step / 2; }
inline int step_direction(std::int16_t step) { return step % 2; }

// One explorer's record of one node at depth <= D:
//  - explored (pruned == false) at depth D: the nodes decomposed and leaves evaluated in its
//    subtree (itself included), the upper bounds in force while this explorer did so (the
//    highest, at its first decision there, and the lowest, at its last) and the best
//    makespan it met there;
//  - explored above D: the node itself, decomposed (nodes.decomposed == 1);
//  - pruned: its bound, computed exactly (no early exit), at least the upper bound then.
struct CutRecord {
  CutPath path;
  bool pruned = false;
  Time bound = 0;
  NodeCounters nodes;
  Time ub_start = 0;
  Time ub_end = kInfiniteTime;
  Time best = kInfiniteTime;
  // A nested record (below D): whether the explorer entered the node (its part counts the
  // node's own decomposition), not only started inside it. A node no explorer entered was
  // pruned by the one whose interval held its start, under a bound that fell meanwhile, and
  // is never a subproblem of its own (SearchCut::partition folds it).
  bool entered = true;

  // Spelled out: the CUDA sources that include this compile as C++17 (no defaulted ==).
  friend bool operator==(const CutRecord& a, const CutRecord& b) {
    return a.path == b.path && a.pruned == b.pruned && a.bound == b.bound && a.nodes == b.nodes &&
           a.ub_start == b.ub_start && a.ub_end == b.ub_end && a.best == b.best &&
           a.entered == b.entered;
  }
};

// Faults the tests inject into a recording run, to see the audit refute each (docs/audit.md).
// Never set by the command line. Each fires once per explorer.
struct CutFaults {
  bool drop_interval = false;   // the engine drops the second interval of its work
  bool prune_below_ub = false;  // prune one subproblem of the cut whose bound is below UB
  bool count_twice = false;     // count one explored subproblem's subtree twice
  bool corrupt_bound = false;   // record one pruned subproblem's bound one too high
};

// The records of a search so far, merged by node (SearchCut::snapshot): what a checkpoint
// carries from one link of a restart chain to the next, and a worker sends its coordinator.
struct CutRecords {
  int depth = 0;
  std::vector<CutRecord> records;  // one per node, in the order of their paths

  friend bool operator==(const CutRecords& a, const CutRecords& b) {
    return a.depth == b.depth && a.records == b.records;
  }
};

struct CutRecording {
  int depth = 0;  // D: the explored subproblems have D jobs fixed
  CutFaults faults;
  // Split where heavy (the GPU explorer, docs/audit.md): a node below D, down to this depth,
  // in whose subtree an explorer decomposed at least `split_nodes` nodes gets a nested
  // explored record of its own. split_depth <= depth: none.
  int split_depth = 0;
  std::uint64_t split_nodes = 0;
};

// The cut depth for n jobs and at most `max_subproblems` subproblems: the deepest D <= n-1
// whose n (n-1) ... (n-D+1) nodes do not exceed the limit. The cut holds at most that many
// subproblems (a pruned node above D stands for all its descendants), whatever the search.
int cut_depth_for(int jobs, std::uint64_t max_subproblems);

// The deepest split level (CutRecording::split_depth) for n jobs and a cut at `depth`: the one
// asked for (0: kDefaultSplitLevels below the cut), never below a leaf's parent (n - 2).
inline constexpr int kDefaultSplitLevels = 8;
int split_depth_for(int jobs, int depth, int requested);

}  // namespace permbb
