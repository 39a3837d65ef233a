#include "virtual_worker.hpp"

#include <algorithm>
#include <cmath>

#include "work_unit.hpp"

namespace permbb::scale {

double shared_host_rate(const WorkerModel& model, int workers) {
  const int sharing = std::clamp(workers, 1, 4);
  return model.nodes_per_second * (1 - model.host_loss * (sharing - 1) / 3.0);
}

void VirtualWorker::assign(std::int64_t unit_id, const std::vector<Interval>& intervals) {
  unit_id_ = unit_id;
  pieces_.clear();
  remaining_nodes_ = 0;
  for (const Interval& x : intervals) {
    if (x.begin >= x.end) continue;
    const std::uint64_t nodes = model_->nodes_in(x.begin, x.end);
    // In rounds, a piece without nodes is explored at once (its IVM prunes it away).
    if (shape_.steal_rule && nodes == 0) continue;
    pieces_.push_back({x, nodes});
    remaining_nodes_ += nodes;
  }
  if (shape_.steal_rule) {
    spread(pieces_, shape_.pieces, shape_.steal_trigger, *shape_.steal_rule, *model_);
  } else {
    split_largest_until_full();
  }
}

// Local steals: while fewer than `pieces` intervals are left and one of them holds two nodes
// or more, the one with the most nodes is halved by mass.
void VirtualWorker::split_largest_until_full() {
  while (static_cast<int>(pieces_.size()) < shape_.pieces) {
    auto largest =
        std::max_element(pieces_.begin(), pieces_.end(),
                         [](const Piece& a, const Piece& b) { return a.nodes < b.nodes; });
    if (largest == pieces_.end() || largest->nodes < 2) return;
    const Interval whole = largest->interval;
    const mpz_class middle = model_->advance(whole.begin, largest->nodes / 2, whole.end);
    if (middle <= whole.begin || middle >= whole.end) return;
    const std::uint64_t front = model_->nodes_in(whole.begin, middle);
    const std::uint64_t back = largest->nodes - front;
    *largest = {{whole.begin, middle}, front};
    pieces_.push_back({{middle, whole.end}, back});
  }
}

// The rate model, continuous in what is left (M): the full rate r while M is above
// dry = r x tail_seconds; then dM/dt = -r M / dry (the IVMs run dry in proportion) down to
// dry / 10; then a tenth of r to the end.
// In rounds, a lower bound (all pieces busy to the end): the run that ends then finds the
// work left and explores on.
double VirtualWorker::seconds_to_finish() const {
  const double r = shape_.nodes_per_second;
  if (shape_.steal_rule) {
    return remaining_nodes_ == 0
               ? 0
               : std::max(shape_.round_seconds, static_cast<double>(remaining_nodes_) / r);
  }
  const double dry = r * shape_.tail_seconds;
  double m = static_cast<double>(remaining_nodes_);
  double t = 0;
  if (m > dry) {
    t += (m - dry) / r;
    m = dry;
  }
  if (m > dry / 10) {
    t += dry / r * std::log(m / (dry / 10));
    m = dry / 10;
  }
  return t + m / (r / 10);
}

std::uint64_t VirtualWorker::nodes_within(double seconds) const {
  const double r = shape_.nodes_per_second;
  const double dry = r * shape_.tail_seconds;
  const double start = static_cast<double>(remaining_nodes_);
  double m = start;
  if (m > dry) {
    const double linear = std::min(seconds, (m - dry) / r);
    m -= linear * r;
    seconds -= linear;
  }
  if (seconds > 0 && m > dry / 10) {
    const double decay = std::min(seconds, dry / r * std::log(m / (dry / 10)));
    m *= std::exp(-r * decay / dry);
    seconds -= decay;
  }
  if (seconds > 0) m = std::max(0.0, m - seconds * r / 10);
  return static_cast<std::uint64_t>(std::llround(start - m));
}

double VirtualWorker::explore(double seconds) {
  if (pieces_.empty()) return 0;
  return shape_.steal_rule ? explore_in_rounds(seconds) : explore_ideal(seconds);
}

double VirtualWorker::explore_ideal(double seconds) {
  const double to_finish = seconds_to_finish();
  const std::uint64_t budget = nodes_within(seconds);
  // All of it (intervals without nodes take no time).
  if (seconds >= to_finish || budget >= remaining_nodes_) {
    counted_ += remaining_nodes_;
    remaining_nodes_ = 0;
    pieces_.clear();
    return std::min(seconds, to_finish);
  }
  std::vector<Piece> left;
  for (Piece& piece : pieces_) {
    const auto share = static_cast<std::uint64_t>(
        std::llround(static_cast<long double>(budget) * piece.nodes / remaining_nodes_));
    const mpz_class to = model_->advance(piece.interval.begin, share, piece.interval.end);
    const std::uint64_t explored = model_->nodes_in(piece.interval.begin, to);
    counted_ += explored;
    piece.nodes -= explored;
    piece.interval.begin = to;
    if (piece.interval.begin < piece.interval.end) left.push_back(std::move(piece));
  }
  pieces_ = std::move(left);
  recount_remaining();
  if (static_cast<int>(pieces_.size()) * 2 < shape_.pieces) split_largest_until_full();
  return seconds;
}

void VirtualWorker::recount_remaining() {
  remaining_nodes_ = 0;
  for (const Piece& piece : pieces_) remaining_nodes_ += piece.nodes;
}

double VirtualWorker::explore_in_rounds(double seconds) {
  double explored = 0;
  while (explored < seconds && !pieces_.empty()) {
    const double round = std::min(shape_.round_seconds, seconds - explored);
    explore_round(round);
    explored += round;
  }
  return explored;
}

// One round: every busy piece explores the same nodes (its IVMs run side by side), the
// worker's rate being busy_share^exponent of the full one; the pieces that ran dry leave,
// and a steal phase follows when fewer than the trigger are busy.
void VirtualWorker::explore_round(double seconds) {
  const double busy = std::min(1.0, static_cast<double>(pieces_.size()) / shape_.pieces);
  const double rate = shape_.nodes_per_second * std::pow(busy, shape_.busy_rate_exponent);
  round_seconds_ += seconds;
  busy_time_ += busy * seconds;
  if (busy < 0.5) thin_seconds_ += seconds;
  // At least a node each, so that every round makes progress.
  const auto per_piece = std::max<std::uint64_t>(
      1, static_cast<std::uint64_t>(std::llround(rate * seconds / pieces_.size())));
  std::vector<Piece> left;
  left.reserve(pieces_.size());
  for (Piece& piece : pieces_) {
    const mpz_class to = model_->advance(piece.interval.begin, std::min(per_piece, piece.nodes),
                                         piece.interval.end);
    const std::uint64_t explored = model_->nodes_in(piece.interval.begin, to);
    counted_ += explored;
    piece.nodes -= explored;
    piece.interval.begin = to;
    // What is left of a piece without nodes is pruned at once.
    if (piece.nodes > 0 && piece.interval.begin < piece.interval.end) {
      left.push_back(std::move(piece));
    }
  }
  pieces_ = std::move(left);
  if (static_cast<double>(pieces_.size()) < shape_.steal_trigger * shape_.pieces) {
    steal_phase(pieces_, shape_.pieces, *shape_.steal_rule, *model_);
  }
  recount_remaining();
}

std::vector<Interval> VirtualWorker::remaining_intervals() const {
  std::vector<Interval> out;
  out.reserve(pieces_.size());
  for (const Piece& piece : pieces_) out.push_back(piece.interval);
  std::sort(out.begin(), out.end(),
            [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
  return out;
}

cluster::WorkReport VirtualWorker::report() {
  cluster::WorkReport report;
  report.unit_id = unit_id_;
  report.decomposed = counted_;
  report.max_intervals = shape_.reported_ivms > 0 ? shape_.reported_ivms : shape_.pieces;
  report.intervals = remaining_intervals();
  counted_ = 0;
  return report;
}

// The real worker halves its largest intervals (WorkUnit::split): the right half by
// permutations, which holds some share of the interval's nodes. The model halves its largest
// pieces where the right part holds `handover_share` of the piece's nodes (a piece of fewer
// than two nodes at its middle), so that the share a handover moves is a calibrated figure
// rather than whatever the bins' draw gives (docs/scale.md, "The simulator, calibrated").
cluster::Handover VirtualWorker::handover(int pieces_to_halve) {
  std::sort(pieces_.begin(), pieces_.end(), [](const Piece& a, const Piece& b) {
    return a.interval.begin < b.interval.begin;
  });
  std::vector<Interval> intervals;
  for (const Piece& piece : pieces_) intervals.push_back(piece.interval);
  const std::vector<bool> chosen =
      largest_intervals(intervals, static_cast<std::size_t>(std::max(1, pieces_to_halve)));
  cluster::Handover handover;
  handover.unit_id = unit_id_;
  std::vector<Interval> kept;
  for (std::size_t j = 0; j < intervals.size(); ++j) {
    Interval& x = intervals[j];
    if (chosen[j]) {
      const mpz_class cut = handover_cut(pieces_[j]);
      handover.intervals.push_back({cut, x.end});
      x.end = cut;
    }
    if (x.begin < x.end) {
      handover.kept_size += x.end - x.begin;
      kept.push_back(std::move(x));
    }
  }
  assign(unit_id_, kept);
  return handover;
}

// Where a handover cuts a piece: its right part holds handover_share of the nodes.
mpz_class VirtualWorker::handover_cut(const Piece& piece) const {
  const Interval& x = piece.interval;
  mpz_class middle = x.begin + x.end;
  mpz_fdiv_q_2exp(middle.get_mpz_t(), middle.get_mpz_t(), 1);
  if (piece.nodes < 2 || shape_.handover_share <= 0) return middle;
  const auto share = static_cast<std::uint64_t>(std::llround(piece.nodes * shape_.handover_share));
  const std::uint64_t given = std::clamp<std::uint64_t>(share, 1, piece.nodes - 1);
  const mpz_class cut = model_->advance(x.begin, piece.nodes - given, x.end);
  return cut > x.begin && cut < x.end ? cut : middle;
}

cluster::Farewell VirtualWorker::farewell() {
  cluster::Farewell farewell;
  farewell.unit_id = unit_id_;
  farewell.decomposed = counted_;
  farewell.intervals = remaining_intervals();
  counted_ = 0;
  return farewell;
}

}  // namespace permbb::scale
