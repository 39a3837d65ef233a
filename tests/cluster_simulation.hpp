#pragma once
// A cluster without MPI: the Coordinator and simulated workers that keep to the protocol of
// worker/worker_process.cpp: one message in flight at a time, each answered once; no
// exploration while a WORK checkpoint is in flight (the report is the worker's exact state),
// exploration on while a BEST or a Handover is in flight; a CheckpointRequest is answered by
// a checkpoint at a random later step, a GiveRequest by a Handover (or, when it found a
// checkpoint in flight, not at all); a worker waiting for work just waits. Messages travel
// asynchronously through the wire format: the coordinator handles them and the workers read
// their replies at random later steps, in order per worker (as MPI guarantees), so requests
// and checkpoints cross. What a worker explores with is a SimulatedExplorer: a fake that cuts
// its intervals (test_coordinator_simulation) or a real engine (test_differential_cluster).
//
// Checked after every event: coverage (explored + remaining == n!), disjointness of the
// copies and unassigned units, that each worker's unit lies within its copy, that the
// coordinator's explored size and node count account exactly for what the workers explored
// and counted, and that no permutation is ever explored twice.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <vector>

#include "coordinator.hpp"
#include "coordinator_checks.hpp"
#include "factoradic_mpz.hpp"

namespace permbb::cluster::testing {

// The intervals, sorted, tile [0, total) exactly: no overlap, no gap.
inline bool tiles(std::vector<Interval> all, const mpz_class& total) {
  sort_by_begin(all);
  mpz_class next = 0;
  for (const Interval& x : all) {
    if (x.begin != next) return false;
    next = x.end;
  }
  return next == total;
}

// `whole` less `part`, both sorted and disjoint, `part` within `whole`: what an explorer
// explored between two looks at its remaining work.
inline std::vector<Interval> difference(const std::vector<Interval>& whole,
                                        const std::vector<Interval>& part) {
  std::vector<Interval> out;
  std::size_t p = 0;
  for (const Interval& x : whole) {
    mpz_class from = x.begin;
    while (p < part.size() && part[p].end <= x.end) {
      if (part[p].begin > from) out.push_back({from, part[p].begin});
      from = part[p].end;
      ++p;
    }
    if (from < x.end) out.push_back({from, x.end});
  }
  return out;
}

// What a simulated worker explores its work with. Between calls it is paused.
class SimulatedExplorer {
 public:
  virtual ~SimulatedExplorer() = default;
  // K_max: the most intervals a unit sent to it may hold.
  virtual int max_intervals() const = 0;
  // Replaces all of its work (a WORK reply).
  virtual void set_work(const std::vector<Interval>& intervals) = 0;
  // Explores some of its work; never more than it has.
  virtual void explore(std::mt19937& rng) = 0;
  // Exactly the work it has not explored, sorted.
  virtual std::vector<Interval> remaining() = 0;
  // Nodes decomposed since the previous call.
  virtual std::uint64_t take_decomposed() = 0;
  // A global best from the coordinator.
  virtual void absorb(const Schedule& best) = 0;
  // A solution better than any it sent or absorbed, to send as BEST now; or none.
  virtual std::optional<Schedule> take_improvement(std::mt19937& rng) = 0;
  // Its best makespan (checkpoints and the farewell carry it).
  virtual Schedule best() const = 0;
};

struct SimulationOptions {
  int jobs = 7;
  int workers = 4;
  unsigned seed = 1;
  CoordinatorSettings settings;
  int stop_after = -1;  // events before request_stop(); -1: never
  Schedule initial_best{{}, 5000};
  // As `permbb solve` under MPI: one unit per worker to begin with, instead of [0, n!) whole.
  bool unit_per_worker = false;
};

// The coordinator's first work: [0, n!), whole or cut into one unit per worker.
inline std::vector<WorkUnit> initial_units(const SimulationOptions& options) {
  const mpz_class space = factorial(options.jobs);
  const int units = options.unit_per_worker ? options.workers : 1;
  std::vector<WorkUnit> out;
  for (int u = 0; u < units; ++u) {
    const mpz_class begin = space * u / units;
    const mpz_class end = space * (u + 1) / units;
    if (begin < end) out.emplace_back(u + 1, std::vector<Interval>{Interval{begin, end}});
  }
  return out;
}

class ClusterSimulation {
 public:
  // One explorer per worker.
  ClusterSimulation(const SimulationOptions& options,
                    std::vector<std::unique_ptr<SimulatedExplorer>> explorers)
      : options_(options),
        total_(factorial(options.jobs)),
        rng_(options.seed),
        coordinator_(options.jobs, options.workers,
                     CoordinatorState{initial_units(options), options.initial_best, {}},
                     options.settings),
        workers_(explorers.size()) {
    for (std::size_t w = 0; w < workers_.size(); ++w) {
      workers_[w].explorer = std::move(explorers[w]);
    }
  }

  // Runs until every worker left and nothing is in flight; false on a deadlock (no event
  // possible before that) or after max_events.
  bool run(int max_events) {
    for (events_ = 0; events_ < max_events; ++events_) {
      if (events_ == options_.stop_after) {
        deliver(coordinator_.request_stop());
        check_invariants();
      }
      if (::testing::Test::HasFailure()) return false;
      const std::vector<Event> possible = possible_events();
      if (possible.empty()) return done();
      const Event e =
          possible[std::uniform_int_distribution<std::size_t>(0, possible.size() - 1)(rng_)];
      switch (e.kind) {
        case EventKind::kCoordinatorHandles:
          coordinator_handles(e.worker);
          break;
        case EventKind::kWorkerReads:
          worker_reads(e.worker);
          break;
        case EventKind::kWorkerActs:
          worker_acts(e.worker);
          break;
      }
      check_invariants();
    }
    return false;
  }

  const Coordinator& coordinator() const { return coordinator_; }
  int handovers() const { return handovers_; }
  const mpz_class& explored_size() const { return explored_total_; }
  std::uint64_t decomposed() const { return decomposed_total_; }
  int events() const { return events_; }
  std::vector<Interval> explored_intervals() const {
    std::vector<Interval> all;
    for (const Worker& worker : workers_) {
      all.insert(all.end(), worker.explored.begin(), worker.explored.end());
    }
    return all;
  }

 private:
  enum class EventKind { kCoordinatorHandles, kWorkerReads, kWorkerActs };
  struct Event {
    EventKind kind;
    int worker;
  };
  enum class InFlight { kNothing, kWork, kBest, kGive };

  struct Worker {
    std::unique_ptr<SimulatedExplorer> explorer;
    std::int64_t unit_id = 0;
    WorkUnit unit;  // exactly what it has left to explore: explorer->remaining()
    InFlight waiting = InFlight::kNothing;  // the message whose reply it waits for
    std::optional<ToCoordinator> outbox;    // sent, not yet handled by the coordinator
    std::deque<ToWorker> inbox;             // sent by the coordinator, not yet read
    bool asked = false;                     // a CheckpointRequest was read
    int ask_delay = 0;                      // steps before it answers the request
    std::optional<int> give;                // K_max of a GiveRequest read, to answer
    int give_delay = 0;                     // steps before it hands over
    bool end_sent = false;                  // an END is in its inbox or was read
    bool ended = false;                     // it read END and sent its farewell
    std::uint64_t unreported = 0;           // decomposed since its last message with counts
    // Decomposed in work its copy still holds: not yet synchronized by a handled checkpoint
    // or farewell. A global checkpoint saves the copy, so a restart explores that work
    // again; the coordinator must not have counted these nodes.
    std::uint64_t in_copy = 0;
    std::vector<Interval> explored;         // everything it explored
  };

  bool done() const {
    return coordinator_.finished() &&
           std::all_of(workers_.begin(), workers_.end(), [](const Worker& w) {
             return w.ended && !w.outbox && w.inbox.empty();
           });
  }

  std::vector<Event> possible_events() const {
    std::vector<Event> events;
    for (int w = 0; w < static_cast<int>(workers_.size()); ++w) {
      const Worker& worker = workers_[w];
      if (worker.outbox) events.push_back({EventKind::kCoordinatorHandles, w});
      if (!worker.inbox.empty()) events.push_back({EventKind::kWorkerReads, w});
      const bool explores_while_waiting =
          worker.waiting == InFlight::kBest || worker.waiting == InFlight::kGive;
      const bool can_act =
          !worker.ended && (worker.waiting == InFlight::kNothing ||
                            (explores_while_waiting && !worker.unit.empty()));
      if (can_act) events.push_back({EventKind::kWorkerActs, w});
    }
    return events;
  }

  // The coordinator receives worker w's message (through the wire format) and sends out
  // what it returns.
  void coordinator_handles(int w) {
    Worker& worker = workers_[w];
    worker.in_copy -= synchronized_counts_in(worker.outbox);
    const Encoded wire = encode_for_coordinator(*worker.outbox);
    worker.outbox.reset();
    deliver(coordinator_.handle(w, decode_from_worker(static_cast<int>(wire.tag), wire.bytes)));
  }

  void deliver(const std::vector<Outgoing>& out) {
    for (const Outgoing& o : out) {
      ASSERT_GE(o.worker, 0);
      ASSERT_LT(o.worker, static_cast<int>(workers_.size()));
      Worker& to = workers_[o.worker];
      // Nothing may follow an END: the worker stops reading after it.
      ASSERT_FALSE(to.end_sent) << "a message to worker " << o.worker << " after its END";
      if (!is_request(o.message)) {
        // A reply: the worker waits for exactly one, and has none unread.
        ASSERT_NE(to.waiting, InFlight::kNothing) << "an unasked-for reply to " << o.worker;
        ASSERT_FALSE(to.outbox) << "a reply to " << o.worker << " before its message";
        for (const ToWorker& m : to.inbox) {
          ASSERT_TRUE(is_request(m)) << "two replies";
        }
      } else if (std::holds_alternative<GiveRequest>(o.message)) {
        // A new GiveRequest only once the last one was answered. One may still be unread:
        // the checkpoint that crossed it answered it, and the worker will find it void.
        ASSERT_FALSE(to.give) << "a GiveRequest to " << o.worker << ", which owes a handover";
      }
      if (std::holds_alternative<StopOrder>(o.message)) to.end_sent = true;
      const Encoded wire = encode_for_worker(o.message);
      to.inbox.push_back(decode_from_coordinator(static_cast<int>(wire.tag), wire.bytes));
    }
  }

  void worker_reads(int w) {
    Worker& worker = workers_[w];
    const ToWorker message = worker.inbox.front();
    worker.inbox.pop_front();
    if (std::holds_alternative<CheckpointRequest>(message)) {
      worker.asked = true;
      worker.ask_delay = std::uniform_int_distribution<int>(0, 4)(rng_);
      return;
    }
    if (const auto* give = std::get_if<GiveRequest>(&message)) {
      // Void while its checkpoint is on its way: the coordinator answers it at that one.
      if (worker.waiting != InFlight::kWork && !worker.ended) {
        worker.give = give->max_intervals;
        worker.give_delay = std::uniform_int_distribution<int>(0, 4)(rng_);
      }
      return;
    }
    const InFlight was = worker.waiting;
    worker.waiting = InFlight::kNothing;
    if (const auto* work = std::get_if<WorkAssignment>(&message)) {
      ASSERT_EQ(was, InFlight::kWork) << "WORK in reply to a BEST or GIVE";
      ASSERT_LE(work->intervals.size(),
                static_cast<std::size_t>(worker.explorer->max_intervals()));
      worker.explorer->absorb(work->best);
      worker.explorer->set_work(work->intervals);
      worker.unit_id = work->unit_id;
      worker.unit = WorkUnit(work->unit_id, work->intervals);
      ASSERT_EQ(worker.explorer->remaining(), work->intervals) << "worker " << w;
    } else if (const auto* best = std::get_if<BestMessage>(&message)) {
      worker.explorer->absorb(best->best);
    } else {
      worker.ended = true;
      worker.outbox = Farewell{worker.unit_id, worker.unreported, 0, worker.explorer->best(),
                               worker.unit.intervals(), WorkerTimes{}};
      worker.unreported = 0;
    }
  }

  // As WorkerLoop: a better solution goes first; out of work, it asks for some; asked, it
  // checkpoints after a while; else it may checkpoint on its timer, or explore.
  void worker_acts(int w) {
    Worker& worker = workers_[w];
    if (worker.waiting == InFlight::kBest || worker.waiting == InFlight::kGive) {
      explore(w);
      return;
    }
    if (auto better = worker.explorer->take_improvement(rng_)) {
      worker.outbox = BestMessage{std::move(*better)};
      worker.waiting = InFlight::kBest;
    } else if (worker.unit.empty()) {
      send_report(worker);
    } else if (worker.give && worker.give_delay-- <= 0) {
      hand_over(worker);
    } else if (worker.asked && worker.ask_delay-- <= 0) {
      send_report(worker);
    } else if (chance(0.05)) {
      send_report(worker);
    } else {
      explore(w);
    }
  }

  // A checkpoint: its exact state. It explores no more until the reply.
  void send_report(Worker& worker) {
    worker.outbox = WorkReport{worker.unit_id,
                               worker.unreported,
                               0,
                               worker.explorer->max_intervals(),
                               worker.explorer->best().makespan,
                               worker.unit.intervals()};
    worker.unreported = 0;
    worker.asked = false;
    worker.give.reset();  // a checkpoint answers a GiveRequest
    worker.waiting = InFlight::kWork;
  }

  // A handover: its unit split as the coordinator would split it; it goes on with the rest.
  void hand_over(Worker& worker) {
    WorkUnit kept = worker.unit;
    const WorkUnit given = kept.split(*worker.give, worker.unit_id);
    worker.give.reset();
    worker.explorer->set_work(kept.intervals());
    ASSERT_EQ(worker.explorer->remaining(), kept.intervals());
    worker.outbox = Handover{worker.unit_id, worker.explorer->best().makespan, kept.size(),
                             given.intervals()};
    worker.unit = std::move(kept);
    worker.waiting = InFlight::kGive;
    ++handovers_;
  }

  static bool is_request(const ToWorker& m) {
    return std::holds_alternative<CheckpointRequest>(m) || std::holds_alternative<GiveRequest>(m);
  }

  // The explorer explores; what left its remaining work was explored, and must not have
  // been explored before by anyone.
  void explore(int w) {
    Worker& worker = workers_[w];
    worker.explorer->explore(rng_);
    WorkUnit after(worker.unit_id, worker.explorer->remaining());
    ASSERT_EQ(intersect(after, worker.unit).size(), after.size())
        << "worker " << w << " gained work by exploring: " << after.to_string();
    for (const Interval& piece : difference(worker.unit.intervals(), after.intervals())) {
      record(worker, piece);
    }
    worker.unit = std::move(after);
    const std::uint64_t decomposed = worker.explorer->take_decomposed();
    worker.unreported += decomposed;
    worker.in_copy += decomposed;
    decomposed_total_ += decomposed;
  }

  // No permutation is explored twice: the new piece meets none explored before.
  void record(Worker& worker, const Interval& piece) {
    auto next = explored_all_.lower_bound(piece.begin);
    if (next != explored_all_.end()) {
      ASSERT_GE(next->first, piece.end) << "explored twice: " << to_string(piece);
    }
    if (next != explored_all_.begin()) {
      ASSERT_LE(std::prev(next)->second, piece.begin) << "explored twice: " << to_string(piece);
    }
    explored_all_.emplace(piece.begin, piece.end);
    worker.explored.push_back(piece);
    explored_total_ += piece.end - piece.begin;
  }

  // The node count a message on its way to the coordinator carries.
  static std::uint64_t counts_in(const std::optional<ToCoordinator>& message) {
    if (!message) return 0;
    if (const auto* r = std::get_if<WorkReport>(&*message)) return r->decomposed;
    if (const auto* f = std::get_if<Farewell>(&*message)) return f->decomposed;
    return 0;
  }

  // The node count a message on its way synchronizes the copy with: a checkpoint's or a
  // farewell's, which carry the worker's exact remaining work.
  static std::uint64_t synchronized_counts_in(const std::optional<ToCoordinator>& message) {
    const bool synchronizes = message && (std::holds_alternative<WorkReport>(*message) ||
                                          std::holds_alternative<Farewell>(*message));
    return synchronizes ? counts_in(message) : 0;
  }

  // The size a Handover on its way carries: out of the worker's unit, still in its copy.
  static mpz_class handed_over_in(const std::optional<ToCoordinator>& message) {
    const auto* h = message ? std::get_if<Handover>(&*message) : nullptr;
    return h != nullptr ? total_length(h->intervals) : mpz_class(0);
  }

  // What the worker will hold once it has read its inbox: a WORK in it replaces its unit.
  const WorkUnit& effective_unit(const Worker& worker, WorkUnit& scratch) const {
    for (auto it = worker.inbox.rbegin(); it != worker.inbox.rend(); ++it) {
      if (const auto* work = std::get_if<WorkAssignment>(&*it)) {
        scratch = WorkUnit(work->unit_id, work->intervals);
        return scratch;
      }
    }
    return worker.unit;
  }

  void check_invariants() {
    const Coordinator& c = coordinator_;
    ASSERT_TRUE(c.coverage_holds());
    ASSERT_EQ(c.stats().explored + c.remaining_size(), total_);
    ASSERT_TRUE(all_disjoint(c));
    // Each copy holds its worker's unit; the difference is what the worker explored since
    // the coordinator last synchronized the copy, so the coordinator's explored size plus
    // these differences is what the workers explored, exactly.
    mpz_class accounted = c.stats().explored;
    std::uint64_t counted = c.stats().decomposed;
    for (std::size_t w = 0; w < workers_.size(); ++w) {
      const Worker& worker = workers_[w];
      counted += worker.unreported + counts_in(worker.outbox);
      ASSERT_EQ(worker.in_copy, worker.unreported + synchronized_counts_in(worker.outbox))
          << "worker " << w << ": the coordinator counted nodes of work a checkpoint still holds";
      if (c.terminated(static_cast<int>(w))) continue;
      const WorkUnit& copy = c.copies()[w];
      WorkUnit scratch;
      const WorkUnit& unit = effective_unit(worker, scratch);
      ASSERT_EQ(intersect(copy, unit).size(), unit.size()) << "worker " << w;
      ASSERT_LE(unit.interval_count(), static_cast<std::size_t>(worker.explorer->max_intervals()));
      accounted += copy.size() - unit.size() - handed_over_in(worker.outbox);
      // A hungry worker waits for its reply to a WORK with nothing to explore, and a
      // worker whose WORK was handled without a reply is hungry (no message is dropped).
      const bool unanswered =
          worker.waiting == InFlight::kWork && !worker.outbox &&
          std::none_of(worker.inbox.begin(), worker.inbox.end(),
                       [](const ToWorker& m) { return !is_request(m); });
      ASSERT_EQ(c.hungry(static_cast<int>(w)), unanswered) << "worker " << w;
      if (unanswered) {
        ASSERT_TRUE(unit.empty());
      }
    }
    ASSERT_EQ(accounted, explored_total_);
    ASSERT_EQ(counted, decomposed_total_);
  }

  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }

  SimulationOptions options_;
  mpz_class total_;
  std::mt19937 rng_;
  Coordinator coordinator_;
  std::vector<Worker> workers_;
  std::map<mpz_class, mpz_class> explored_all_;  // begin -> end of every explored piece
  mpz_class explored_total_ = 0;
  std::uint64_t decomposed_total_ = 0;  // what the explorers counted
  int events_ = 0;
  int handovers_ = 0;
};

}  // namespace permbb::cluster::testing
