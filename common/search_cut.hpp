#pragma once
// The cut of a whole search, for its certificate (docs/audit.md): the records of every
// explorer (cut_record.hpp), merged by node, then made into a partition of the permutations:
//
//  - records of one node add up: counts by addition, the upper bounds in force as the
//    highest start and the lowest end, the best makespan as the least; a node pruned by any
//    explorer is pruned (its bound is a property of the node);
//  - a pruned node stands for its whole subtree: what explorers recorded below it (an
//    explorer with a higher upper bound explored part of it, or another replayed it after a
//    split and pruned it) becomes the pruned subproblem's `surplus`, counted but not
//    re-explored by an audit;
//  - the nodes above the cut depth that were decomposed are counted (nodes_above_cut);
//  - records below the cut depth (nested: an explorer's heavy part of a node's subtree,
//    counted inclusively) become explored subproblems nested in the one above them, each
//    counting its subtree less its nested ones' (exclusive counts), so that all counts still
//    add up to the run's.
//
// Engines feed it with add(); GPU explorers, cluster ranks and restart links (each a set of
// records) merge the same way.
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "cut_record.hpp"

namespace permbb {

// One subproblem of the certificate's cut: the jobs fixed first (prefix, in schedule order)
// and last (suffix, in schedule order).
struct CutSubproblem {
  std::vector<int> prefix;
  std::vector<int> suffix;
  bool pruned = false;
  Time bound = 0;      // pruned: its bound
  NodeCounters nodes;  // explored: counted under it less its nested ones; pruned: surplus
  Time ub_start = 0;   // explored: the highest upper bound in force while it was explored
  Time ub_end = 0;     // explored: the lowest
  Time best = kInfiniteTime;  // explored: the best makespan met in it
};

struct CutPartition {
  int depth = 0;
  std::vector<CutSubproblem> subproblems;  // in path order: nested ones follow theirs
  std::uint64_t nodes_above_cut = 0;
};

class SearchCut {
 public:
  explicit SearchCut(int depth) : depth_(depth) {}

  int depth() const { return depth_; }
  void add(const std::vector<CutRecord>& records);
  // Throws std::logic_error for a pruned record below the depth (only explored nodes nest).
  void add(const CutRecord& record);
  std::size_t records() const { return merged_.size(); }

  // The records merged so far, one per node: what a checkpoint or a message carries. Adding
  // a snapshot to an empty SearchCut gives this one back; records added after it merge with
  // it as they would have here (a subproblem split between restart links or ranks adds up).
  CutRecords snapshot() const;
  // Throws std::invalid_argument when `cut` lies at another depth.
  void add(const CutRecords& cut);

  // The partition; with merge_up_to > 0, every subtree of at most that many decomposed nodes
  // whose pruned nodes absorbed nothing (the topmost such) becomes one explored subproblem,
  // its counts added and its upper bounds' range the widest of its nodes', reaching down to
  // the bounds of its pruned nodes (pruned, maybe, under a lower bound than their parent
  // saw, by a replay after a split): fewer, larger
  // subproblems where the tree is light, the depth's fine ones where it is heavy
  // (docs/audit.md, "The cut"). A subtree holding a kept nested record is not merged: its
  // depth-D records' totals already count the nested records' nodes, and staying apart they
  // keep the nesting under explored subproblems at the depth.
  //
  // Nested records of fewer than `fold_below` decomposed nodes (merged) are dropped: their
  // nodes stay in the nearest kept record above them (0 keeps them all). Every explored
  // subproblem then counts its merged total less the totals of its nearest kept nested
  // records; std::logic_error when that goes negative, or when a nested record has no
  // explored record above it at the depth (a broken recording). Nested records below a
  // pruned node are absorbed in it: its surplus adds only the records at depth <= D, whose
  // counts include them.
  CutPartition partition(std::uint64_t merge_up_to = 0, std::uint64_t fold_below = 0) const;

 private:
  int depth_;
  std::map<CutPath, CutRecord> merged_;  // ordered: a node's descendants follow it
};

// The cut holding `records` (a snapshot: a checkpoint's, a coordinator's), at their depth;
// none without records. What a restart link, rank 0 and the certificate's writer start from.
std::optional<SearchCut> search_cut_of(const std::optional<CutRecords>& records);
// And back: the snapshot of `cut`, none without a cut (what a checkpoint saves).
std::optional<CutRecords> snapshot_of(const std::optional<SearchCut>& cut);

// The prefix and suffix (schedule order) of the node a path leads to.
void subproblem_of(const CutPath& path, std::vector<int>& prefix, std::vector<int>& suffix);

}  // namespace permbb
