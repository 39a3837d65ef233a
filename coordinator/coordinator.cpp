#include "coordinator.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "factoradic_mpz.hpp"

namespace permbb::cluster {
namespace {

bool is_schedule(int jobs, const std::vector<int>& permutation) {
  if (permutation.size() != static_cast<std::size_t>(jobs)) return false;
  std::vector<bool> seen(permutation.size(), false);
  for (int job : permutation) {
    if (job < 0 || job >= jobs || seen[job]) return false;
    seen[job] = true;
  }
  return true;
}

// All intervals of all units lie in [0, n!] and no two overlap: a file of intervals or a
// checkpoint may be corrupt, and the coverage invariant starts from here.
void check_units(int jobs, const std::vector<WorkUnit>& units) {
  std::vector<const Interval*> all;
  for (const WorkUnit& unit : units) {
    for (const Interval& x : unit.intervals()) all.push_back(&x);
  }
  std::sort(all.begin(), all.end(),
            [](const Interval* a, const Interval* b) { return a->begin < b->begin; });
  const mpz_class limit = factorial(jobs);
  for (std::size_t j = 0; j < all.size(); ++j) {
    if (sgn(all[j]->begin) < 0 || all[j]->end > limit) {
      throw std::invalid_argument("coordinator: interval " + to_string(*all[j]) +
                                  " lies outside [0, " + std::to_string(jobs) + "!]");
    }
    if (j > 0 && all[j]->begin < all[j - 1]->end) {
      throw std::invalid_argument("coordinator: intervals " + to_string(*all[j - 1]) + " and " +
                                  to_string(*all[j]) + " overlap");
    }
  }
}

// Validates what a coordinator is built from; returns `jobs`.
int checked_jobs(int jobs, int workers, const CoordinatorState& state) {
  if (jobs < 1 || jobs > kMaxJobs) {
    throw std::invalid_argument("coordinator: " + std::to_string(jobs) + " jobs");
  }
  if (workers < 1) {
    throw std::invalid_argument("coordinator: " + std::to_string(workers) + " workers");
  }
  if (!state.best.permutation.empty() && !is_schedule(jobs, state.best.permutation)) {
    throw std::invalid_argument("coordinator: the initial best is not a schedule of " +
                                std::to_string(jobs) + " jobs");
  }
  check_units(jobs, state.units);
  return jobs;
}

}  // namespace

Coordinator::Coordinator(int jobs, int workers, std::vector<Interval> initial_work,
                         Schedule initial_best, CoordinatorSettings settings)
    : Coordinator(
          jobs, workers,
          CoordinatorState{{WorkUnit(1, std::move(initial_work))}, std::move(initial_best), {}},
          std::move(settings)) {}

Coordinator::Coordinator(int jobs, int workers, CoordinatorState restored,
                         CoordinatorSettings settings)
    : jobs_(checked_jobs(jobs, workers, restored)),
      pool_(workers, std::move(restored.units), std::move(settings)),
      best_(std::move(restored.best)),
      stats_(std::move(restored.stats)),
      cut_(search_cut_of(restored.cut)),
      worker_stats_(static_cast<std::size_t>(workers)),
      waiting_(static_cast<std::size_t>(workers), false),
      asked_(static_cast<std::size_t>(workers), false),
      give_asked_(static_cast<std::size_t>(workers), false),
      known_size_(static_cast<std::size_t>(workers), 0.0),
      ended_(static_cast<std::size_t>(workers), false),
      terminated_(static_cast<std::size_t>(workers), false),
      lost_(static_cast<std::size_t>(workers), false) {
  total_size_ = stats_.explored + pool_.remaining();
}

std::vector<Outgoing> Coordinator::handle(int worker, ToCoordinator message) {
  if (worker < 0 || worker >= workers()) {
    throw std::out_of_range("coordinator: worker " + std::to_string(worker) + " of " +
                            std::to_string(workers()));
  }
  if (terminated_[worker]) {
    throw std::runtime_error("coordinator: a message from worker " + std::to_string(worker) +
                             ", which has left");
  }
  if (waiting_[worker]) {
    throw std::runtime_error("coordinator: a message from worker " + std::to_string(worker) +
                             ", which waits for work and may not send anything");
  }
  if (lost_[worker]) {
    throw std::runtime_error("coordinator: a message from worker " + std::to_string(worker) +
                             ", which was declared lost");
  }
  return std::visit([&](auto& m) { return on(worker, std::move(m)); }, message);
}

std::vector<Outgoing> Coordinator::request_stop() {
  std::vector<Outgoing> out;
  if (stopping_) return out;
  stopping_ = true;
  end_hungry(out);
  for (int w = 0; w < workers(); ++w) {
    // A worker that owes a handover sends it at its next slice and gets END in reply.
    if (!terminated_[w] && !lost_[w] && !ended_[w] && !asked_[w] && !give_asked_[w]) ask(w, out);
  }
  return out;
}

bool Coordinator::owes_message(int worker) const {
  return !terminated_.at(worker) && !lost_.at(worker) && !waiting_.at(worker);
}

// The copy is left where it is: W keeps it, so checkpoint_state() saves it and coverage
// holds; ask_victim() skips the worker, so it is never split; the stop ends every hungry
// worker that might have waited for it.
std::vector<Outgoing> Coordinator::declare_lost(int worker) {
  if (worker < 0 || worker >= workers()) {
    throw std::out_of_range("coordinator: worker " + std::to_string(worker) + " of " +
                            std::to_string(workers()));
  }
  if (!owes_message(worker)) {
    throw std::logic_error("coordinator: worker " + std::to_string(worker) +
                           " owes no message and cannot be declared lost");
  }
  lost_[worker] = true;
  asked_[worker] = false;
  settle_give(worker);
  ++lost_count_;
  return request_stop();
}

// A worker checkpoint (Algorithm 1, Lines 8-17). The report is intersected with the copy
// (§4.1.2); the worker is paused until it gets the reply, so its copy is now its exact
// state, the one moment at which the copy may be split (see the file comment of the
// header). An empty copy is refilled from W_unassigned, else the worker waits (hungry) and
// a victim is asked to checkpoint; a non-empty copy feeds the hungry workers by splits
// (§4.1.3). The worker's best makespan counts as a bound (its schedule comes by BEST).
std::vector<Outgoing> Coordinator::on(int worker, WorkReport message) {
  ++stats_.work_messages;
  ++worker_stats_[worker].checkpoints;
  count_nodes(worker, message.decomposed, message.leaves, message.cut);
  note_bound(worker, message.best_makespan);
  offer(worker, Schedule{{}, message.best_makespan});
  const Synchronized sync =
      pool_.synchronize(worker, WorkUnit::from_sorted(message.unit_id, std::move(message.intervals)));
  stats_.explored += sync.explored;
  asked_[worker] = false;
  settle_give(worker);  // a checkpoint that crossed a GiveRequest answers it
  if (stopping_ || ended_[worker]) return {stop(worker)};
  const int capacity = std::max(message.max_intervals, 1);

  std::vector<Outgoing> out;
  if (pool_.copy(worker).empty()) {
    if (pool_.assign_unassigned(worker, capacity)) {
      ++stats_.assignments;
      return {Outgoing{worker, assignment(worker)}};
    }
    if (pool_.empty()) {  // Line 11: the search is over
      out.push_back(stop(worker));
      end_hungry(out);
      return out;
    }
    hungry_.push_back(Hungry{worker, capacity});
    waiting_[worker] = true;
    ask_victim(out);
    return out;
  }

  // Lines 13-16: the unit when it differs from the report (intersected, trimmed, split),
  // else the global best as an acknowledgement.
  bool changed = !sync.as_reported;
  std::vector<Outgoing> others;
  if (pool_.trim(worker, capacity)) {  // only for a worker out of step
    changed = true;
    feed_hungry_from_unassigned(others);
  }
  if (!hungry_.empty() && pool_.splittable(worker)) {
    changed = true;
    feed_hungry_by_splitting(worker, others);
  }
  if (!hungry_.empty()) ask_victim(others);  // this copy was too small for them all
  note_size(worker, pool_.copy(worker).size().get_d());
  out.push_back(changed ? Outgoing{worker, assignment(worker)}
                        : Outgoing{worker, BestMessage{best_}});
  out.insert(out.end(), std::make_move_iterator(others.begin()),
             std::make_move_iterator(others.end()));
  return out;
}

WorkAssignment Coordinator::assignment(int worker) {
  const WorkUnit& unit = pool_.copy(worker);
  note_size(worker, unit.size().get_d());
  return WorkAssignment{unit.id(), unit.intervals(), best_};
}

// W_unassigned gained work (a farewell, a trim): the hungry workers take it, in order.
void Coordinator::feed_hungry_from_unassigned(std::vector<Outgoing>& out) {
  while (!hungry_.empty() &&
         pool_.assign_unassigned(hungry_.front().worker, hungry_.front().max_intervals)) {
    const int worker = hungry_.front().worker;
    hungry_.pop_front();
    waiting_[worker] = false;
    ++stats_.assignments;
    out.push_back(Outgoing{worker, assignment(worker)});
  }
}

// §4.1.3 at the owner's checkpoint: each hungry worker in turn gets the right halves of
// the first K_max of its intervals, while the owner's copy is large enough.
void Coordinator::feed_hungry_by_splitting(int owner, std::vector<Outgoing>& out) {
  while (!hungry_.empty() && pool_.splittable(owner)) {
    const Hungry thief = hungry_.front();
    hungry_.pop_front();
    waiting_[thief.worker] = false;
    pool_.split(owner, thief.worker, thief.max_intervals);
    ++stats_.splits;
    out.push_back(Outgoing{thief.worker, assignment(thief.worker)});
  }
}

// No work is left anywhere: every hungry worker gets its END.
void Coordinator::end_hungry(std::vector<Outgoing>& out) {
  for (const Hungry& h : hungry_) {
    waiting_[h.worker] = false;
    out.push_back(stop(h.worker));
  }
  hungry_.clear();
}

// One victim per hungry worker (§4.1.3: the largest unit): the owner of the largest unit by
// the size it last reported or was given, among those that can be split and have no
// GiveRequest pending. Each gets a GiveRequest for at most H intervals, or fewer when the
// hungry worker it is meant for holds fewer; a handover goes to whoever waits first when it
// comes. When every candidate was asked, their handovers are on their way: nothing to send.
void Coordinator::ask_victim(std::vector<Outgoing>& out) {
  const int cap = std::max(1, pool_.settings().max_handover_intervals);
  while (gives_outstanding_ < static_cast<int>(hungry_.size())) {
    int victim = -1;
    for (int w = 0; w < workers(); ++w) {
      if (give_asked_[w] || !owes_message(w) || ended_[w] || !pool_.splittable(w)) continue;
      if (victim < 0 || known_size_[w] > known_size_[victim]) victim = w;
    }
    if (victim < 0) return;
    const int wanted = hungry_[static_cast<std::size_t>(gives_outstanding_)].max_intervals;
    give_asked_[victim] = true;
    ++gives_outstanding_;
    ++stats_.give_requests;
    out.push_back(Outgoing{victim, GiveRequest{std::min(cap, std::max(1, wanted))}});
  }
}

void Coordinator::ask(int worker, std::vector<Outgoing>& out) {
  asked_[worker] = true;
  ++stats_.checkpoint_requests;
  out.push_back(Outgoing{worker, CheckpointRequest{}});
}

// The worker answered its GiveRequest (a handover, a checkpoint, a farewell) or is gone.
void Coordinator::settle_give(int worker) {
  if (!give_asked_[worker]) return;
  give_asked_[worker] = false;
  --gives_outstanding_;
}

void Coordinator::note_size(int worker, double size) { known_size_[worker] = size; }

Outgoing Coordinator::stop(int worker) {
  ended_[worker] = true;
  return Outgoing{worker, StopOrder{}};
}

// Lines 18-21: a candidate solution; the reply carries the global best.
std::vector<Outgoing> Coordinator::on(int worker, BestMessage message) {
  ++stats_.best_messages;
  offer(worker, message.best);
  if (stopping_ || ended_[worker]) return {stop(worker)};
  return {Outgoing{worker, BestMessage{best_}}};
}

// Lines 22-25: the worker has left. Its unexplored rest is intersected with its copy like a
// checkpoint and goes back to W_unassigned, so that a stopped search loses nothing and a
// worker leaving early leaves its work to the others: hungry workers take it at once.
std::vector<Outgoing> Coordinator::on(int worker, Farewell message) {
  count_nodes(worker, message.decomposed, message.leaves, message.cut);
  worker_stats_[worker].times = message.times;
  note_bound(worker, message.best.makespan);
  offer(worker, message.best);
  stats_.explored +=
      pool_.synchronize(worker, WorkUnit::from_sorted(message.unit_id, std::move(message.intervals))).explored;
  pool_.release(worker);
  terminated_[worker] = true;
  asked_[worker] = false;
  settle_give(worker);
  ++terminated_count_;
  std::vector<Outgoing> out;
  if (stopping_ || hungry_.empty()) return out;
  feed_hungry_from_unassigned(out);
  if (pool_.empty()) {
    end_hungry(out);
  } else if (!hungry_.empty()) {
    ask_victim(out);
  }
  return out;
}

// A split by the owner (see the header): the part it handed over leaves its copy for the first
// hungry worker (or W_unassigned, when the hungry were fed meanwhile). The owner goes on
// exploring the rest; its reply is the global best.
std::vector<Outgoing> Coordinator::on(int worker, Handover message) {
  note_bound(worker, message.best_makespan);
  offer(worker, Schedule{{}, message.best_makespan});
  settle_give(worker);
  const mpz_class moved =
      pool_.hand_over(worker, WorkUnit::from_sorted(message.unit_id, std::move(message.intervals)));
  if (sgn(moved) > 0) {
    ++stats_.splits;
    ++stats_.handovers;
  }
  const mpz_class copy_size = pool_.copy_size(worker);
  note_size(worker, (message.kept_size < copy_size ? message.kept_size : copy_size).get_d());
  if (stopping_ || ended_[worker]) return {stop(worker)};
  std::vector<Outgoing> out{Outgoing{worker, BestMessage{best_}}};
  feed_hungry_from_unassigned(out);
  if (!hungry_.empty()) ask_victim(out);
  return out;
}

void Coordinator::note_bound(int worker, Time bound) {
  worker_stats_[worker].lowest_bound = std::min(worker_stats_[worker].lowest_bound, bound);
}

// The records first: a message refused there counts nothing.
void Coordinator::count_nodes(int worker, std::uint64_t decomposed, std::uint64_t leaves,
                              const std::optional<CutRecords>& cut) {
  merge_cut(worker, cut);
  stats_.decomposed += decomposed;
  stats_.leaves += leaves;
  worker_stats_[worker].decomposed += decomposed;
  worker_stats_[worker].leaves += leaves;
}

// The message's records must be the run's: present exactly when it records a cut, at its
// depth, naming jobs of this instance (the decoder knows no instance).
void Coordinator::merge_cut(int worker, const std::optional<CutRecords>& records) {
  const std::string who = "coordinator: worker " + std::to_string(worker);
  if (!cut_) {
    if (records) throw std::runtime_error(who + " sent cut records, but this run records none");
    return;
  }
  if (!records) {
    throw std::runtime_error(who + " sent no cut records, but this run records its cut");
  }
  if (records->depth != cut_->depth()) {
    throw std::runtime_error(who + " sent cut records at depth " + std::to_string(records->depth) +
                             ", this run's cut lies at depth " + std::to_string(cut_->depth()));
  }
  for (const CutRecord& record : records->records) {
    for (const std::int16_t step : record.path) {
      if (step_job(step) >= jobs_) {
        throw std::runtime_error(who + " sent a cut record naming job " +
                                 std::to_string(step_job(step)) + " of " + std::to_string(jobs_));
      }
    }
  }
  cut_->add(records->records);
}

// TRYIMPROVEGLOBALBEST (Lines 20, 24): a strictly smaller makespan wins. At an equal, finite
// makespan a schedule also replaces a bare bound, so that the result has a schedule whenever
// one was found.
void Coordinator::offer(int worker, const Schedule& candidate) {
  if (!candidate.permutation.empty() && !is_schedule(jobs_, candidate.permutation)) {
    throw std::runtime_error("coordinator: worker " + std::to_string(worker) +
                             " sent a schedule of " + std::to_string(candidate.permutation.size()) +
                             " jobs, not a " + "permutation of " + std::to_string(jobs_));
  }
  const bool fills_bound = candidate.makespan == best_.makespan &&
                           candidate.makespan < kInfiniteTime && best_.permutation.empty() &&
                           !candidate.permutation.empty();
  if (candidate.makespan < best_.makespan || fills_bound) {
    best_ = candidate;
    ++stats_.improvements;
  }
}

double Coordinator::explored_fraction() const {
  if (sgn(total_size_) == 0) return 1.0;
  mpq_class fraction(stats_.explored, total_size_);
  fraction.canonicalize();
  return fraction.get_d();
}

CoordinatorState Coordinator::checkpoint_state() const {
  CoordinatorState state{pool_.unassigned(), best_, stats_, cut_snapshot()};
  for (const WorkUnit& copy : pool_.copies()) {
    if (!copy.empty()) state.units.push_back(copy);
  }
  return state;
}

std::optional<CutRecords> Coordinator::cut_snapshot() const { return snapshot_of(cut_); }

std::vector<WorkUnit> initial_decomposition(int jobs, int workers) {
  const mpz_class space = factorial(jobs);
  std::vector<WorkUnit> units;
  for (int w = 0; w < workers; ++w) {
    const mpz_class begin = space * w / workers;
    const mpz_class end = space * (w + 1) / workers;
    if (begin < end) units.emplace_back(w + 1, std::vector<Interval>{Interval{begin, end}});
  }
  return units;
}

}  // namespace permbb::cluster
