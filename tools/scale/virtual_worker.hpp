#pragma once
// A simulated GPU worker (2022 §4.2): it explores its unit at a calibrated rate, on a work
// model instead of a tree, and talks to the coordinator as worker/worker_process.cpp does:
// WORK checkpoints with what is left of its unit and the nodes counted since the last one,
// a Farewell at the end. Its K IVMs are `pieces` intervals explored side by side, in one of
// two ways (WorkerModel::steal_rule):
//  - ideal: cut from the unit by node mass, each explored at a share of the rate
//    proportional to its mass (the device's local stealing keeps every IVM busy); when half
//    the pieces ran dry the largest are halved again by mass;
//  - in rounds with a steal rule: every busy piece explores the same nodes a round, the
//    worker's rate following the share of busy pieces, and a steal phase (local_steals.hpp)
//    halves pieces by permutations when fewer than the trigger are busy, as the GPU does.
// A GiveRequest is answered by a Handover.
#include <cstdint>
#include <optional>
#include <vector>

#include "interval.hpp"
#include "local_steals.hpp"
#include "protocol.hpp"
#include "work_model.hpp"

namespace permbb::scale {

struct WorkerModel {
  double nodes_per_second = 7.7e8;  // one H200 on VFR30_15_2 (127.7 G nodes in 166 s)
  int pieces = 64;                  // intervals tracked per worker (the IVMs, in coarse)
  double slice_seconds = 0.2;       // between looks at the mailbox (a GPU worker's slice)
  double checkpoint_seconds = 5;    // min_steal_checkpoint_seconds of the builds fitted (now 30)
  // The IVMs run dry at the end of a unit: below nodes_per_second x tail_seconds nodes left,
  // the rate falls in proportion to what is left, down to a tenth of it.
  double tail_seconds = 0.05;
  // What a real worker pays on its side (docs/scale.md, "Four GPUs"; cluster.worker_times of
  // a real run): the engine is paused while it builds a checkpoint with work, and while it
  // builds a handover; a worker that gets a new unit explores nothing for refill_seconds
  // (its IVMs unfold and the device's steals spread the unit over them).
  double checkpoint_pause_seconds = 0;
  double handover_pause_seconds = 0;
  double refill_seconds = 0;
  // How soon a give or checkpoint request ends a run: after this many seconds (the engine's
  // pause, --interrupt-slices), or, when negative, at the next slice boundary.
  double interrupt_seconds = -1;
  // The rate each GPU loses when four share a host (the four-at-once control: one minus each
  // one's rate against one alone); with g GPUs a host, (g - 1) / 3 of it, four at most.
  double host_loss = 0;
  // The share of a halved interval's nodes its right half holds (a handover moves that share
  // of each interval it halves).
  double handover_share = 0.5;
  // The K_max a checkpoint gives (what a GiveRequest, a split and a trim then measure in
  // intervals): the real IVM count, as worker_process.cpp reports it, or, when 0, `pieces`.
  // The fits before used 0: a GiveRequest then asked for at most `pieces` real intervals, so
  // that a handover under H = all intervals halved pieces / (K / pieces) pieces, not all.
  int reported_ivms = 0;
  // The GPU's own stealing (local_steals.hpp): none for the ideal worker (every piece busy,
  // the fits before), else the rule its steal phases follow. In rounds, tail_seconds has no
  // part: a unit's end shows as pieces running dry, which lowers the rate.
  std::optional<StealRule> steal_rule;
  double round_seconds = 0.01;  // between two steal phases (the explore kernel's round)
  double steal_trigger = 0.8;   // a phase runs while fewer than this share of pieces is busy
  // A GPU's rate against the share b of its IVMs that are busy: b^exponent of the full rate
  // (the runs' thin GPU: 38 % busy at 0.76 of the rate of one 81 % busy, exponent 0.37-0.42).
  double busy_rate_exponent = 0.4;
};

// One GPU's rate when `workers` GPUs share hosts of four.
double shared_host_rate(const WorkerModel& model, int workers);

class VirtualWorker {
 public:
  // `nodes_per_second`: this worker's rate (shared_host_rate of the shape).
  VirtualWorker(const WorkModel& model, const WorkerModel& shape, double nodes_per_second)
      : model_(&model), shape_(shape) {
    shape_.nodes_per_second = nodes_per_second;
  }

  // A WORK reply: the unit that replaces this worker's, cut into pieces by node mass.
  void assign(std::int64_t unit_id, const std::vector<Interval>& intervals);
  bool has_work() const { return !pieces_.empty(); }
  std::int64_t unit_id() const { return unit_id_; }

  // Explores for `seconds`, or until its work runs out; returns the seconds it explored. The
  // nodes it explored are counted for the next report.
  double explore(double seconds);
  // How long it takes to explore all of its work from now.
  double seconds_to_finish() const;

  // A checkpoint (remaining intervals, sorted, and the nodes since the last report) or the
  // farewell; both reset the counts.
  cluster::WorkReport report();
  cluster::Farewell farewell();
  // A GiveRequest's answer (worker/worker_process.cpp): what is left is split by
  // WorkUnit::split as the real worker splits its IVMs' intervals, the worker goes on with the
  // kept part (cut into pieces again) and hands over the other, with the nodes since the last
  // report.
  // `pieces_to_halve`: the real worker halves its H largest of K intervals, which the model
  // holds as the H / (K / pieces) largest of its pieces (at least one).
  cluster::Handover handover(int pieces_to_halve);

  std::uint64_t remaining_nodes() const { return remaining_nodes_; }
  // Pieces holding work now (all of them for the ideal worker).
  int busy_pieces() const { return static_cast<int>(pieces_.size()); }
  // Over the rounds explored so far (in rounds only; cluster.worker_times of a real run): the
  // mean share of busy pieces, and the seconds with fewer than half of them busy ("thin").
  double mean_busy_share() const { return round_seconds_ > 0 ? busy_time_ / round_seconds_ : 1; }
  double thin_seconds() const { return thin_seconds_; }

 private:
  void split_largest_until_full();
  double explore_ideal(double seconds);
  double explore_in_rounds(double seconds);
  void explore_round(double seconds);
  void recount_remaining();
  mpz_class handover_cut(const Piece& piece) const;
  std::uint64_t nodes_within(double seconds) const;
  std::vector<Interval> remaining_intervals() const;

  const WorkModel* model_;
  WorkerModel shape_;
  std::int64_t unit_id_ = 0;
  std::vector<Piece> pieces_;
  std::uint64_t remaining_nodes_ = 0;
  std::uint64_t counted_ = 0;  // since the last report
  double round_seconds_ = 0;   // explored in rounds
  double busy_time_ = 0;       // the same, weighted by the share of busy pieces
  double thin_seconds_ = 0;
};

}  // namespace permbb::scale
