#include "ivm_explorer.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "branching.hpp"
#include "factoradic.hpp"
#include "ivm_sample.hpp"
#include "lb1.hpp"

namespace permbb {

IvmExplorer::IvmExplorer(const FlowshopTables& tables, const JohnsonTables* johnson,
                         const SearchSettings& settings, Incumbent& incumbent)
    : data_(tables.view()),
      settings_(settings),
      incumbent_(incumbent),
      n_(tables.jobs()),
      m_(tables.machines()),
      upper_bound_(incumbent.value()),
      pos_(n_, 0),
      end_(n_, 0),
      dir_(n_, kFront),
      matrix_(ivm::matrix_cells(n_)),
      costs_(static_cast<size_t>(3) * (n_ + 1) * m_),
      suffix_length_(n_ + 1, 0),
      lb_front_(n_),
      lb_back_(n_),
      scheduled_(n_, 0),
      leaf_schedule_(n_) {
  if (uses_lb2(settings_.bound)) {
    if (johnson == nullptr) throw std::invalid_argument("IvmExplorer: LB2 needs JohnsonTables");
    lb2_.emplace(data_, johnson->view());
  }
}

ivm::View<std::int16_t> IvmExplorer::view() {
  return {n_, &line_, pos_.data(), end_.data(), dir_.data(), matrix_.data()};
}

// The summary of the node selected in row r (level r+1) from its parent's (level r).
void IvmExplorer::compute_node_costs(int r) {
  const int job = ivm::selected_job(view(), r);
  const int parent = r;
  const int level = r + 1;
  if (dir_[r] == kFront) {
    lb1_append_front(data_, front(parent), job, front(level));
    std::copy_n(back(parent), m_, back(level));
    suffix_length_[level] = suffix_length_[parent];
  } else {
    std::copy_n(front(parent), m_, front(level));
    lb1_prepend_back(data_, back(parent), job, back(level));
    suffix_length_[level] = suffix_length_[parent] + 1;
  }
  lb1_remove_job(data_, remain(parent), job, remain(level));
}

// The bound of one child of the node at `level`: `job` added in `direction`, with LB1 only,
// or with LB2 (lb2_ set to the node) cut off at `cutoff`: min(LB2, cutoff).
Time IvmExplorer::child_bound(int level, int job, int direction, bool with_lb2, Time cutoff) {
  const Time* f = front(level);
  const Time* b = back(level);
  const Time* r = remain(level);
  if (!with_lb2) return lb1_child_bound(data_, f, b, r, job, direction);
  return lb2_->child_bound(f, b, r, job, direction, cutoff);
}

// Tells lb2_ the node whose children it bounds next (its unscheduled jobs: those of the row's
// `count` cells) and how many child bounds will be asked of it.
void IvmExplorer::set_lb2_node(const std::int16_t* cells, int count, int children) {
  std::fill(scheduled_.begin(), scheduled_.end(), 1);
  for (int i = 0; i < count; ++i) scheduled_[ivm::job_of(cells[i])] = 0;
  lb2_->set_node(scheduled_.data(), children);
}

// Bounds the children of the node at `level` (the jobs of row r), picks the branching
// direction of row r and prunes it (2022 §2.3, Figure 2). With lb1+lb2 the direction is
// chosen on LB1 bounds and LB2 refines only the kept set's children that LB1 cannot prune.
// LB2 stops at the upper bound, except where that would decide the direction (needs_exact_sums)
// and on the rows of a recorded cut (record_cut).
void IvmExplorer::bound_and_prune_row(int r, int level) {
  const auto v = view();
  const std::int16_t* cells = ivm::row(v, r);
  const int count = ivm::row_length(r, n_);
  const BoundKind bound = settings_.bound;
  const bool lb2_first = bound == BoundKind::kLb2 || bound == BoundKind::kLb2Adjacent;
  const bool cut_row = cut_ && r < cut_->depth();
  const Time cutoff = cut_row ? kInfiniteTime : lb2_cutoff(settings_.branching, upper_bound_);
  const bool both = needs_both_directions(settings_.branching);
  const bool want_front = both || settings_.branching == BranchingRule::kForward;
  const bool want_back = both || settings_.branching == BranchingRule::kBackward;
  if (lb2_first) set_lb2_node(cells, count, count * (int{want_front} + int{want_back}));
  for (int i = 0; i < count; ++i) {
    const int job = ivm::job_of(cells[i]);
    if (want_front) lb_front_[i] = child_bound(level, job, kFront, lb2_first, cutoff);
    if (want_back) lb_back_[i] = child_bound(level, job, kBack, lb2_first, cutoff);
  }
  if (lb2_first &&
      needs_exact_sums(settings_.branching, lb_front_.data(), lb_back_.data(), count, cutoff)) {
    for (int i = 0; i < count; ++i) {
      const int job = ivm::job_of(cells[i]);
      if (lb_front_[i] >= cutoff) {
        lb_front_[i] = child_bound(level, job, kFront, true, kInfiniteTime);
      }
      if (lb_back_[i] >= cutoff) {
        lb_back_[i] = child_bound(level, job, kBack, true, kInfiniteTime);
      }
    }
  }
  const int direction = choose_direction(settings_.branching, lb_front_.data(), lb_back_.data(),
                                         count);
  dir_[r] = direction;
  Time* kept = direction == kFront ? lb_front_.data() : lb_back_.data();
  if (bound == BoundKind::kLb1ThenLb2) {
    // LB2 is never below LB1, so bounding a cut row's children by LB2 alone prunes the same.
    const auto refined = [&](Time lb) { return cut_row || lb < upper_bound_; };
    const auto survivors = std::count_if(kept, kept + count, refined);
    if (survivors > 0) set_lb2_node(cells, count, static_cast<int>(survivors));
    const Time refine_cutoff = cut_row ? kInfiniteTime : upper_bound_;
    for (int i = 0; i < count; ++i) {
      if (refined(kept[i])) {
        kept[i] = child_bound(level, ivm::job_of(cells[i]), direction, true, refine_cutoff);
      }
    }
  }
  ivm::prune_row(v, r, kept, upper_bound_);
  if (cut_row) {
    if (cut_->faults().prune_below_ub) inject_prune_below_ub(r, kept);
    note_pruned_cells(r, kept);
  }
}

// The pruned cells of a cut row, from the position on: those before it lie in the interval
// on the left (a replayed row), whose explorer records them.
void IvmExplorer::note_pruned_cells(int r, const Time* bounds) {
  const auto v = view();
  const std::int16_t* cells = ivm::row(v, r);
  for (int i = pos_[r]; i < ivm::row_length(r, n_); ++i) {
    if (ivm::is_pruned(cells[i])) cut_->note_pruned(v, r, i, bounds[i]);
  }
}

// CutFaults::prune_below_ub: a bound that prunes too much on one code path. The first
// unpruned cell of a cut row is pruned and its bound claimed to be the upper bound.
void IvmExplorer::inject_prune_below_ub(int r, Time* bounds) {
  std::int16_t* cells = ivm::row(view(), r);
  for (int i = pos_[r]; i < ivm::row_length(r, n_); ++i) {
    if (ivm::is_pruned(cells[i]) || !cut_->fire_fault()) continue;
    cells[i] = ivm::pruned<std::int16_t>(ivm::job_of(cells[i]));
    bounds[i] = upper_bound_;
    return;
  }
}

bool IvmExplorer::start(const int* begin, const int* end) {
  drop_uncommitted();
  close_cut();
  std::copy_n(begin, n_, pos_.begin());
  std::copy_n(end, n_, end_.begin());
  for (int i = 0; i < n_; ++i) {
    const bool top_is_end = i == 0 && end[0] == n_;
    if (begin[i] < 0 || begin[i] >= n_ - i || end[i] < 0 || (end[i] >= n_ - i && !top_is_end)) {
      throw std::invalid_argument("IvmExplorer::start: digit " + std::to_string(i) +
                                  " out of range");
    }
  }
  upper_bound_ = incumbent_.value();
  line_ = 0;
  const auto v = view();
  exhausted_ = !ivm::before_end(v);
  if (exhausted_) return false;
  ivm::set_root_row(v);
  lb1_root(data_, front(0), back(0), remain(0));
  suffix_length_[0] = 0;
  bound_and_prune_row(0, 0);
  unfold();
  if (cut_) cut_->after_start(v, counters_, upper_bound_);
  return true;
}

// Initialisation at the start position: ivm::init_step says when to stop replaying.
void IvmExplorer::unfold() {
  const auto v = view();
  while (ivm::init_step(v) == ivm::InitStep::kDescend) {
    const int r = line_;
    compute_node_costs(r);
    ivm::generate_row(v, r);
    bound_and_prune_row(r + 1, r + 1);
    ++line_;
  }
}

// The leaf parent's only child: the node summarised at `level` (its prefix and suffix) with
// `last_job` between them. The IVM points at the leaf parent or, with one job, at the leaf
// itself; ivm::decode writes the same schedule either way.
void IvmExplorer::evaluate_leaf(int level, int last_job) {
  const Time makespan = complete_makespan(data_, front(level), back(level),
                                          suffix_length_[level] == 0, last_job);
  ++counters_.leaves;
  if (cut_) cut_->note_leaf(makespan);
  if (makespan < upper_bound_) {
    int suffix_begin = 0;
    ivm::decode(view(), leaf_schedule_.data(), &suffix_begin);
    incumbent_.offer(leaf_schedule_.data(), n_, makespan);
    upper_bound_ = incumbent_.value();
  }
}

// Certificates: the node about to be decomposed in row r, at depth r + 1, before it counts.
void IvmExplorer::note_cut_level(int r) {
  if (r + 1 > cut_->depth()) {
    cut_->note_decision(upper_bound_);
    return;
  }
  close_cut();
  cut_->enter_cut_level(view(), r, counters_, upper_bound_);
}

void IvmExplorer::decompose_current() {
  const int r = line_;
  if (cut_) note_cut_level(r);
  if (r == ivm::leaf_row(n_)) {
    // One job: the root, decomposed uncounted in start() like every root, is the leaf
    // parent; its leaf is evaluated here, once, in the interval that holds it.
    evaluate_leaf(r, ivm::selected_job(view(), r));
    ++pos_[r];
    return;
  }
  compute_node_costs(r);
  ++counters_.decomposed;
  if (r == ivm::leaf_parent_row(n_)) {
    evaluate_leaf(r + 1, ivm::job_of(ivm::row(view(), r)[1 - pos_[r]]));
    ++pos_[r];
    return;
  }
  const auto v = view();
  ivm::generate_row(v, r);
  bound_and_prune_row(r + 1, r + 1);
  ivm::descend(v);
}

bool IvmExplorer::step() {
  uncommitted_ = 0;
  if (exhausted_) return false;
  upper_bound_ = incumbent_.value();
  if (!ivm::advance(view())) {
    exhausted_ = true;
    return false;
  }
  decompose_current();
  return true;
}

std::uint64_t IvmExplorer::run(std::uint64_t max_steps) {
  std::uint64_t done = 0;
  while (done < max_steps && step()) ++done;
  return done;
}

bool IvmExplorer::settle(std::uint64_t max_steps) {
  uncommitted_ = 0;
  if (exhausted_) return true;
  const auto v = view();
  for (std::uint64_t steps = 0;; ++steps) {
    if (!ivm::advance(v)) {
      exhausted_ = true;
      return true;
    }
    if (ivm::at_clean_point(v)) return true;
    if (steps == max_steps) break;
    upper_bound_ = incumbent_.value();
    decompose_current();
  }
  // Pointing (after advance) at the first cell of row line_: the node selected in the row
  // above generated it and shares its first leaf, and so on up to the last clean point.
  for (int r = line_; r > 0 && pos_[r] == 0; --r) ++uncommitted_;
  return false;
}

NodeCounters IvmExplorer::committed_counters() const {
  NodeCounters committed = counters_;
  committed.decomposed -= uncommitted_;
  return committed;
}

bool IvmExplorer::normalize() {
  if (!exhausted_ && !ivm::advance(view())) exhausted_ = true;
  return !exhausted_;
}

bool IvmExplorer::steal_point(const int* min_length, int* cut) {
  if (!normalize()) return false;
  factoradic::subtract(end_.data(), pos_.data(), cut, n_);
  if (factoradic::compare(cut, min_length, n_) < 0) return false;
  factoradic::midpoint(pos_.data(), end_.data(), cut, n_);
  // The thief must start after the position. Away from a clean point the nodes whose first
  // leaf is the position are already decomposed and counted here, and a thief starting at
  // the position would count them again (a one-leaf interval [p, p+1) has its midpoint at p;
  // a minimum steal of 1 leaf let such steals through).
  return factoradic::compare(cut, pos_.data(), n_) > 0;
}

void IvmExplorer::set_end(const int* new_end) {
  std::copy_n(new_end, n_, end_.begin());
  if (!ivm::before_end(view())) exhausted_ = true;
}

PromotedSubproblem IvmExplorer::current_subproblem() { return ivm::decode_subproblem(view()); }

void IvmExplorer::record_cut(const CutRecording& recording) {
  if (recording.depth < 0 || recording.depth > std::max(0, n_ - 1)) {
    throw std::invalid_argument("IvmExplorer::record_cut: depth " +
                                std::to_string(recording.depth) + " outside [0, n-1]");
  }
  cut_ = std::make_unique<CutRecorder>(recording);
}

// The uncommitted nodes of a settle() that stopped short are the nodes on the path at
// depths line_ - uncommitted_ + 1 .. line_ (each row with its first cell selected was
// generated by the node above it); none when it did not stop short.
int IvmExplorer::first_uncommitted_depth() const {
  return uncommitted_ > 0 ? line_ - static_cast<int>(uncommitted_) + 1
                          : std::numeric_limits<int>::max();
}

// Counts and records alike, so that what a cluster worker reports after a handover (or a
// new unit) keeps its records and its counts in step.
void IvmExplorer::drop_uncommitted() {
  if (uncommitted_ == 0) return;
  if (cut_) cut_->drop_uncommitted(view(), first_uncommitted_depth(), committed_counters());
  counters_.decomposed -= uncommitted_;
  uncommitted_ = 0;
}

// What goes with committed_counters(); the records of uncommitted nodes stay.
std::vector<CutRecord> IvmExplorer::take_cut_records() {
  if (!cut_) return {};
  counters_ += cut_->split(committed_counters(), uncommitted_ > 0, !exhausted_);
  return cut_->take_committed(view(), first_uncommitted_depth());
}

}  // namespace permbb
