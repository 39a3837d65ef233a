#pragma once
// One explorer's recording of the cut of its search tree (cut_record.hpp, docs/audit.md).
// The explorer tells it what it does at depth <= D only, and keeps counting as before: the
// counts of the depth-D node it is in are the explorer's counters when it leaves the node
// less those when it entered, so the hot path pays one comparison per node (no hashing).
#include <cstdint>
#include <utility>
#include <vector>

#include "cut_record.hpp"
#include "ivm.hpp"

namespace permbb {

class CutRecorder {
 public:
  using View = ivm::View<std::int16_t>;

  explicit CutRecorder(const CutRecording& settings) : settings_(settings) {}

  int depth() const { return settings_.depth; }
  const CutFaults& faults() const { return settings_.faults; }
  // True the first time only: each injected fault fires once per explorer.
  bool fire_fault() { return !std::exchange(fault_fired_, true); }

  // The explorer is about to decompose (and count) the node it points at in row r, at depth
  // r + 1 > D, with `ub` in force for the decisions on its children: the hot path.
  void note_decision(Time ub) { current_.ub_end = ub; }  // the bound only falls

  // The same for a node at depth r + 1 <= D, once close() has closed the node left behind:
  // a node above D is recorded as decomposed, one at D opens its record.
  void enter_cut_level(const View& v, int r, const NodeCounters& counters, Time ub);

  // start() replayed the path to its start position down to row v.line: when that row lies
  // below D, the explorer goes on inside a depth-D node it did not decompose (the interval
  // on the left did), and its record of that node opens here.
  void after_start(const View& v, const NodeCounters& counters, Time ub);

  // A cell of row r (depth r + 1 <= D) the explorer pruned with `bound`.
  void note_pruned(const View& v, int r, int cell, Time bound);

  void note_leaf(Time makespan) {
    if (makespan < current_.best) current_.best = makespan;
  }

  // Closes the open record at `counters`. Returns counts to add to the explorer's own
  // (nonzero only under CutFaults::count_twice).
  NodeCounters close(const NodeCounters& counters);

  // The records so far (close() them first); the recorder keeps none.
  std::vector<CutRecord> take();

  // For a take while the explorer goes on (a checkpoint): the open record's part up to
  // `committed` is closed and a new part of the same node opened there, unless it holds no
  // committed node (it was opened in a dive that a settle() left uncommitted, as
  // `uncommitted_dive` says there is one; a restart decomposes those nodes again).
  // `continues`: false once the explorer is exhausted (no new part). Returns counts to add
  // to the explorer's own, as close().
  NodeCounters split(const NodeCounters& committed, bool uncommitted_dive, bool continues);
  // The records so far, less those of nodes above D that lie on the path `v` points at at
  // depth >= `first_uncommitted_depth`: a settle() that stopped short left them uncommitted,
  // and they stay here until they are committed.
  std::vector<CutRecord> take_committed(const View& v, int first_uncommitted_depth);
  // The explorer leaves its interval (IvmExplorer::clear(), start()) after a settle() that
  // stopped short and drops the uncommitted nodes from its counts: their records go too (the
  // open part when it holds no committed node, the nodes above D on the uncommitted path),
  // since whoever restarts the interval decomposes and records them again.
  void drop_uncommitted(const View& v, int first_uncommitted_depth,
                        const NodeCounters& committed);

 private:
  void open(CutPath path, const NodeCounters& counters, Time ub);
  bool open_part_uncommitted(const NodeCounters& committed, bool uncommitted_dive) const;
  bool on_uncommitted_path(const CutRecord& r, const View& v, int first_uncommitted_depth) const;

  const CutRecording settings_;
  bool open_ = false;
  CutRecord current_;
  NodeCounters opened_at_;
  bool fault_fired_ = false;
  std::vector<CutRecord> records_;
};

// The path of the node the IVM points at in row r (rows 0..r selected).
CutPath path_of_node(const CutRecorder::View& v, int r);

}  // namespace permbb
