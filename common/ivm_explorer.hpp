#pragma once
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "cut_recorder.hpp"
#include "flowshop_tables.hpp"
#include "incumbent.hpp"
#include "ivm.hpp"
#include "johnson_tables.hpp"
#include "lb2_children.hpp"
#include "node_counters.hpp"
#include "promoted_subproblem.hpp"
#include "search_settings.hpp"

namespace permbb {

// A sequential depth-first branch-and-bound over one interval [begin, end) of [0, n!), on an
// IVM (ivm.hpp). Each step selects the next node, bounds both children sets, keeps one by the
// branching rule and prunes against the shared incumbent; a leaf better than the incumbent
// replaces it. The hot path allocates nothing and uses no GMP: the per-depth bound summaries
// (lb1.hpp) are kept on a stack, so a node costs O(m) plus O(m) per child.
class IvmExplorer {
 public:
  // `johnson` is needed for the LB2 bounds and ignored for LB1. Any n >= 1.
  IvmExplorer(const FlowshopTables& tables, const JohnsonTables* johnson,
              const SearchSettings& settings, Incumbent& incumbent);

  int jobs() const { return n_; }

  // Starts exploring [begin, end): factoradic digit vectors of n digits (factoradic.hpp),
  // end may be n!. Replays the path to `begin` without counting it (2016 §2.4). Returns
  // false when the interval is empty.
  bool start(const int* begin, const int* end);

  // Decomposes the next node. Returns false once the interval is exhausted.
  bool step();

  // Up to `max_steps` steps; returns the number done (fewer only when exhausted).
  std::uint64_t run(std::uint64_t max_steps);

  bool exhausted() const { return exhausted_; }

  // Drops the interval, and with it the nodes a settle() that stopped short left
  // uncommitted, their counts and their cut records (whoever restarts the interval
  // decomposes and records them again): the explorer is exhausted until the next start().
  void clear() {
    drop_uncommitted();
    close_cut();
    exhausted_ = true;
  }

  // Pausing: continues until the position is a clean point (ivm::at_clean_point), so that
  // the remaining interval restarts without decomposing a node twice. That takes at most n
  // steps, but a dive through thousands of levels may take a minute: after `max_steps`
  // steps it stops short (returns false) and leaves the nodes decomposed since the last
  // clean point uncommitted (committed_counters()). Returns true at a clean point.
  bool settle(std::uint64_t max_steps = std::numeric_limits<std::uint64_t>::max());

  // The interval not yet explored: [position(), end()). Exact after settle(): after one that
  // stopped short it still holds every leaf left, and a restart from it decomposes the
  // uncommitted nodes again (the path down from the last clean point shares its first leaf).
  const int* position() const { return pos_.data(); }
  const int* end() const { return end_.data(); }

  // Moves the position to the next node to decompose, so every digit is in range (after a
  // leaf the last digit may have run past its row). Returns false if the interval is
  // exhausted. Work stealing calls it before cutting [position, end).
  bool normalize();

  // Work stealing: the explorer keeps [position, new_end); new_end must not be behind the
  // position (callers check with factoradic::compare).
  void set_end(const int* new_end);

  // Work stealing: writes the midpoint `cut` of [position, end) (normalized first) where a
  // thief may take [cut, end), and returns true; false when the interval is exhausted,
  // shorter than `min_length` (factoradic digits) or its midpoint is the position itself.
  bool steal_point(const int* min_length, int* cut);

  const NodeCounters& counters() const { return counters_; }
  // The counters that go with [position(), end()) in a checkpoint: counters() less the
  // uncommitted nodes of a settle() that stopped short. Equal to counters() otherwise.
  NodeCounters committed_counters() const;

  // The node the IVM points at, decoded (2016 §3.3.3): prefix, unscheduled, suffix.
  PromotedSubproblem current_subproblem();

  // Certificates (docs/audit.md): from now on, records the cut of the tree at
  // `recording.depth` (cut_recorder.hpp). Call before start(). The rows whose children lie
  // at depth <= D are then bounded exactly (no early exit at the upper bound), so that their
  // branching never depends on the bound and pruned subproblems carry their true bound;
  // pruning, counts and directions below D are as without recording.
  void record_cut(const CutRecording& recording);
  // The records that go with committed_counters(), taken: the subproblem being explored
  // split at its committed counts (its record goes on from there while the explorer does),
  // the records of uncommitted nodes kept until they are committed. Called while paused, at
  // checkpoints and at the end; the parts taken merge by addition (SearchCut).
  std::vector<CutRecord> take_cut_records();

 private:
  ivm::View<std::int16_t> view();
  Time* front(int level) { return costs_.data() + (3 * level) * m_; }
  Time* back(int level) { return costs_.data() + (3 * level + 1) * m_; }
  Time* remain(int level) { return costs_.data() + (3 * level + 2) * m_; }

  void compute_node_costs(int r);
  void bound_and_prune_row(int r, int level);
  void set_lb2_node(const std::int16_t* cells, int count, int children);
  Time child_bound(int level, int job, int direction, bool with_lb2, Time cutoff);
  void decompose_current();
  void evaluate_leaf(int level, int last_job);
  void unfold();
  void note_cut_level(int r);
  void note_pruned_cells(int r, const Time* bounds);
  void inject_prune_below_ub(int r, Time* bounds);
  void close_cut() {
    if (cut_) counters_ += cut_->close(counters_);
  }
  void drop_uncommitted();
  int first_uncommitted_depth() const;

  const FlowshopView data_;
  const SearchSettings settings_;
  Incumbent& incumbent_;
  const int n_;
  const int m_;
  Time upper_bound_;
  bool exhausted_ = true;

  int line_ = 0;
  std::vector<int> pos_;
  std::vector<int> end_;
  std::vector<int> dir_;
  std::vector<std::int16_t> matrix_;
  // Bound summaries per level: level 0 is the root, level r+1 the node selected in row r.
  std::vector<Time> costs_;
  std::vector<int> suffix_length_;  // per level
  std::vector<Time> lb_front_;
  std::vector<Time> lb_back_;
  std::vector<unsigned char> scheduled_;  // LB2: jobs fixed in the node being decomposed
  std::optional<Lb2Children> lb2_;         // LB2 bounds only
  std::vector<int> leaf_schedule_;
  NodeCounters counters_;
  std::uint64_t uncommitted_ = 0;  // set by a settle() that stopped short, until the next step
  std::unique_ptr<CutRecorder> cut_;  // null unless record_cut()
};

}  // namespace permbb
