// Randomized simulations of the coordinator (2022 §4.1, with deferred splits) against fake
// workers that keep to the protocol of worker/worker_process.cpp: one message in flight at a
// time, each answered once; no exploration while a WORK checkpoint is in flight (the report
// is the worker's exact state), exploration on while a BEST is in flight; a worker explores
// only its own current unit; a CheckpointRequest is answered by a checkpoint at a random
// later step; a worker waiting for work just waits. Messages travel asynchronously: the
// coordinator handles them and the workers read their replies at random later steps, in
// order per worker (as MPI guarantees), so requests and checkpoints cross.
//
// Checked after every event: coverage (explored + remaining == n!), disjointness of the
// copies and unassigned units, that each worker's unit lies within its copy, that the
// coordinator's explored size and node count account exactly for what the workers
// explored, and that no permutation is ever explored twice. At the end the workers'
// explored sets are disjoint and their union is [0, n!) (or, after a stop, [0, n!) minus
// exactly the work handed back).
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <random>
#include <vector>

#include "coordinator.hpp"
#include "factoradic_mpz.hpp"

namespace permbb::cluster {
namespace {

void sort_by_begin(std::vector<Interval>& all) {
  std::sort(all.begin(), all.end(),
            [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
}

// The intervals, sorted, tile [0, total) exactly: no overlap, no gap.
bool tiles(std::vector<Interval> all, const mpz_class& total) {
  sort_by_begin(all);
  mpz_class next = 0;
  for (const Interval& x : all) {
    if (x.begin != next) return false;
    next = x.end;
  }
  return next == total;
}

bool all_disjoint(const Coordinator& c) {
  std::vector<Interval> all;
  for (const WorkUnit& unit : c.unassigned()) {
    all.insert(all.end(), unit.intervals().begin(), unit.intervals().end());
  }
  for (const WorkUnit& copy : c.copies()) {
    all.insert(all.end(), copy.intervals().begin(), copy.intervals().end());
  }
  sort_by_begin(all);
  for (std::size_t j = 1; j < all.size(); ++j) {
    if (all[j].begin < all[j - 1].end) return false;
  }
  return true;
}

enum class InFlight { kNothing, kWork, kBest };

struct FakeWorker {
  WorkUnit unit;  // exactly what it has left to explore
  int k_max = 1;
  InFlight waiting = InFlight::kNothing;  // the message whose reply it waits for
  std::optional<ToCoordinator> outbox;    // sent, not yet handled by the coordinator
  std::deque<ToWorker> inbox;             // sent by the coordinator, not yet read
  bool asked = false;                     // a CheckpointRequest was read
  int ask_delay = 0;                      // steps before it answers the request
  bool end_sent = false;                  // an END is in its inbox or was read
  bool ended = false;                     // it read END and sent its farewell
  std::uint64_t unreported = 0;           // explored since its last message with counts
  Time best = kInfiniteTime;
  std::vector<Interval> explored;  // everything it explored
};

struct SimulationOptions {
  int jobs = 7;
  int workers = 4;
  unsigned seed = 1;
  CoordinatorSettings settings;
  int stop_after = -1;  // events before request_stop(); -1: never
};

class Simulation {
 public:
  explicit Simulation(const SimulationOptions& options)
      : options_(options),
        total_(factorial(options.jobs)),
        rng_(options.seed),
        coordinator_(options.jobs, options.workers, {Interval{0, total_}}, Solution{5000, {}},
                     options.settings),
        fakes_(static_cast<std::size_t>(options.workers)) {
    for (FakeWorker& fake : fakes_) fake.k_max = std::uniform_int_distribution<int>(1, 6)(rng_);
  }

  // Runs until every worker left and nothing is in flight; false on a deadlock (no event
  // possible before that) or after max_events.
  bool run(int max_events) {
    for (events_ = 0; events_ < max_events; ++events_) {
      if (events_ == options_.stop_after) {
        deliver(coordinator_.request_stop());
        check_invariants();
      }
      if (::testing::Test::HasFailure()) {
        return false;
      }
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
  const mpz_class& explored_by_fakes() const { return explored_total_; }
  Time best_sent() const { return best_sent_; }
  int events() const { return events_; }
  std::vector<Interval> explored_intervals() const {
    std::vector<Interval> all;
    for (const FakeWorker& fake : fakes_) {
      all.insert(all.end(), fake.explored.begin(), fake.explored.end());
    }
    return all;
  }

 private:
  enum class EventKind { kCoordinatorHandles, kWorkerReads, kWorkerActs };
  struct Event {
    EventKind kind;
    int worker;
  };

  bool done() const {
    return coordinator_.finished() &&
           std::all_of(fakes_.begin(), fakes_.end(),
                       [](const FakeWorker& f) { return f.ended && !f.outbox && f.inbox.empty(); });
  }

  std::vector<Event> possible_events() const {
    std::vector<Event> events;
    for (int w = 0; w < static_cast<int>(fakes_.size()); ++w) {
      const FakeWorker& fake = fakes_[w];
      if (fake.outbox) events.push_back({EventKind::kCoordinatorHandles, w});
      if (!fake.inbox.empty()) events.push_back({EventKind::kWorkerReads, w});
      const bool can_act = !fake.ended && (fake.waiting == InFlight::kNothing ||
                                           (fake.waiting == InFlight::kBest && !fake.unit.empty()));
      if (can_act) events.push_back({EventKind::kWorkerActs, w});
    }
    return events;
  }

  // The coordinator receives worker w's message (through the wire format) and sends out
  // what it returns.
  void coordinator_handles(int w) {
    FakeWorker& fake = fakes_[w];
    const Encoded wire = encode_for_coordinator(*fake.outbox);
    fake.outbox.reset();
    deliver(coordinator_.handle(w, decode_from_worker(static_cast<int>(wire.tag), wire.bytes)));
  }

  void deliver(const std::vector<Outgoing>& out) {
    for (const Outgoing& o : out) {
      ASSERT_GE(o.worker, 0);
      ASSERT_LT(o.worker, static_cast<int>(fakes_.size()));
      FakeWorker& to = fakes_[o.worker];
      // Nothing may follow an END: the worker stops reading after it.
      ASSERT_FALSE(to.end_sent) << "a message to worker " << o.worker << " after its END";
      if (!std::holds_alternative<CheckpointRequest>(o.message)) {
        // A reply: the worker waits for exactly one, and has none unread.
        ASSERT_NE(to.waiting, InFlight::kNothing) << "an unasked-for reply to " << o.worker;
        ASSERT_FALSE(to.outbox) << "a reply to " << o.worker << " before its message";
        for (const ToWorker& m : to.inbox) {
          ASSERT_TRUE(std::holds_alternative<CheckpointRequest>(m)) << "two replies";
        }
      }
      if (std::holds_alternative<StopOrder>(o.message)) to.end_sent = true;
      const Encoded wire = encode_for_worker(o.message);
      to.inbox.push_back(decode_from_coordinator(static_cast<int>(wire.tag), wire.bytes));
    }
  }

  void worker_reads(int w) {
    FakeWorker& fake = fakes_[w];
    const ToWorker message = fake.inbox.front();
    fake.inbox.pop_front();
    if (std::holds_alternative<CheckpointRequest>(message)) {
      fake.asked = true;
      fake.ask_delay = std::uniform_int_distribution<int>(0, 4)(rng_);
      return;
    }
    const InFlight was = fake.waiting;
    fake.waiting = InFlight::kNothing;
    if (const auto* work = std::get_if<WorkAssignment>(&message)) {
      ASSERT_EQ(was, InFlight::kWork) << "WORK in reply to a BEST";
      ASSERT_LE(work->intervals.size(), static_cast<std::size_t>(fake.k_max));
      fake.unit = WorkUnit(work->unit_id, work->intervals);
      fake.best = std::min(fake.best, work->best.makespan);
    } else if (const auto* best = std::get_if<BestMessage>(&message)) {
      fake.best = std::min(fake.best, best->best.makespan);
    } else {
      fake.ended = true;
      fake.outbox = Farewell{fake.unit.id(), fake.unreported, 0, Solution{fake.best, {}},
                             fake.unit.intervals()};
      fake.unreported = 0;
    }
  }

  // As WorkerLoop: out of work, it asks for some; asked, it checkpoints after a while;
  // else it may find a better solution, checkpoint on its timer, or explore.
  void worker_acts(int w) {
    FakeWorker& fake = fakes_[w];
    if (fake.waiting == InFlight::kBest) {
      explore(fake);
      return;
    }
    if (fake.unit.empty()) {
      send_report(fake);
    } else if (fake.asked && fake.ask_delay-- <= 0) {
      send_report(fake);
    } else if (chance(0.03)) {
      std::vector<int> schedule(static_cast<std::size_t>(options_.jobs));
      for (int j = 0; j < options_.jobs; ++j) schedule[j] = j;
      std::shuffle(schedule.begin(), schedule.end(), rng_);
      const Time makespan = std::uniform_int_distribution<Time>(1000, 6000)(rng_);
      fake.best = std::min(fake.best, makespan);
      best_sent_ = std::min(best_sent_, makespan);
      fake.outbox = BestMessage{Solution{makespan, schedule}};
      fake.waiting = InFlight::kBest;
    } else if (chance(0.05)) {
      send_report(fake);
    } else {
      explore(fake);
    }
  }

  // A checkpoint: its exact state. It explores no more until the reply.
  void send_report(FakeWorker& fake) {
    fake.outbox = WorkReport{fake.unit.id(), fake.unreported, 0,
                             fake.k_max,     fake.best,       fake.unit.intervals()};
    fake.unreported = 0;
    fake.asked = false;
    fake.waiting = InFlight::kWork;
  }

  // Cuts random amounts off the front of its intervals (what explorers do), sometimes
  // splits an interval in two touching ones (a local steal) within K_max.
  void explore(FakeWorker& fake) {
    const std::vector<Interval>& intervals = fake.unit.intervals();
    std::vector<Interval> rest;
    for (std::size_t j = 0; j < intervals.size(); ++j) {
      Interval x = intervals[j];
      const double step = std::uniform_real_distribution<double>(0, 1)(rng_);
      if (step < 0.6) {
        const long length = x.length().get_si();
        const long most = step < 0.02 ? length : length / 48 + 1;
        const long cut = std::uniform_int_distribution<long>(0, std::min(most, length))(rng_);
        if (cut > 0) {
          record(fake, Interval{x.begin, x.begin + cut});
          x.begin += cut;
        }
      }
      if (x.empty()) continue;
      const std::size_t after = rest.size() + 2 + (intervals.size() - j - 1);
      if (chance(0.2) && x.length() >= 2 && after <= static_cast<std::size_t>(fake.k_max)) {
        const mpz_class mid = x.begin + x.length() / 2;
        rest.push_back(Interval{x.begin, mid});
        x.begin = mid;
      }
      rest.push_back(x);
    }
    fake.unit = WorkUnit(fake.unit.id(), std::move(rest));
  }

  // No permutation is explored twice: the new piece meets none explored before.
  void record(FakeWorker& fake, const Interval& piece) {
    auto next = explored_all_.lower_bound(piece.begin);
    if (next != explored_all_.end()) {
      ASSERT_GE(next->first, piece.end) << "explored twice: " << to_string(piece);
    }
    if (next != explored_all_.begin()) {
      ASSERT_LE(std::prev(next)->second, piece.begin) << "explored twice: " << to_string(piece);
    }
    explored_all_.emplace(piece.begin, piece.end);
    fake.explored.push_back(piece);
    const mpz_class length = piece.end - piece.begin;
    explored_total_ += length;
    fake.unreported += length.get_ui();
  }

  // The node count a message on its way to the coordinator carries.
  static std::uint64_t counts_in(const std::optional<ToCoordinator>& message) {
    if (!message) return 0;
    if (const auto* r = std::get_if<WorkReport>(&*message)) return r->decomposed;
    if (const auto* f = std::get_if<Farewell>(&*message)) return f->decomposed;
    return 0;
  }

  // What the worker will hold once it has read its inbox: a WORK in it replaces its unit.
  const WorkUnit& effective_unit(const FakeWorker& fake, WorkUnit& scratch) const {
    for (auto it = fake.inbox.rbegin(); it != fake.inbox.rend(); ++it) {
      if (const auto* work = std::get_if<WorkAssignment>(&*it)) {
        scratch = WorkUnit(work->unit_id, work->intervals);
        return scratch;
      }
    }
    return fake.unit;
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
    for (std::size_t w = 0; w < fakes_.size(); ++w) {
      const FakeWorker& fake = fakes_[w];
      counted += fake.unreported + counts_in(fake.outbox);
      if (c.terminated(static_cast<int>(w))) continue;
      const WorkUnit& copy = c.copies()[w];
      WorkUnit scratch;
      const WorkUnit& unit = effective_unit(fake, scratch);
      ASSERT_EQ(intersect(copy, unit).size(), unit.size()) << "worker " << w;
      ASSERT_LE(copy.interval_count(), static_cast<std::size_t>(fake.k_max));
      accounted += copy.size() - unit.size();
      // A hungry worker waits for its reply to a WORK with nothing to explore, and a
      // worker whose WORK was handled without a reply is hungry (no message is dropped).
      const bool unanswered =
          fake.waiting == InFlight::kWork && !fake.outbox &&
          std::none_of(fake.inbox.begin(), fake.inbox.end(), [](const ToWorker& m) {
            return !std::holds_alternative<CheckpointRequest>(m);
          });
      ASSERT_EQ(c.hungry(static_cast<int>(w)), unanswered) << "worker " << w;
      if (unanswered) {
        ASSERT_TRUE(unit.empty());
      }
    }
    ASSERT_EQ(accounted, explored_total_);
    ASSERT_EQ(counted, explored_total_.get_ui());
  }

  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }

  SimulationOptions options_;
  mpz_class total_;
  std::mt19937 rng_;
  Coordinator coordinator_;
  std::vector<FakeWorker> fakes_;
  std::map<mpz_class, mpz_class> explored_all_;  // begin -> end of every explored piece
  mpz_class explored_total_ = 0;
  Time best_sent_ = kInfiniteTime;
  int events_ = 0;
};

void simulate(const SimulationOptions& options) {
  SCOPED_TRACE(::testing::Message()
               << options.jobs << " jobs, " << options.workers << " workers, seed " << options.seed
               << ", stop after " << options.stop_after);
  if (::testing::Test::HasFailure()) return;  // one failing simulation is enough to read
  Simulation sim(options);
  const bool ended = sim.run(5000000);
  if (::testing::Test::HasFailure()) return;
  ASSERT_TRUE(ended) << "deadlock or no end after " << sim.events() << " events";
  const Coordinator& c = sim.coordinator();
  const mpz_class total = factorial(options.jobs);
  EXPECT_TRUE(c.finished());
  EXPECT_EQ(c.hungry_count(), 0);
  // Exact counts: the coordinator's node count is what the workers explored, and that is
  // the explored size: nothing twice.
  EXPECT_EQ(c.stats().explored, sim.explored_by_fakes());
  EXPECT_EQ(mpz_class(static_cast<unsigned long>(c.stats().decomposed)), sim.explored_by_fakes());
  std::vector<Interval> covered = sim.explored_intervals();
  if (!c.stopping()) {  // (a run may end before its planned stop)
    EXPECT_TRUE(c.all_work_done());
    EXPECT_EQ(sim.explored_by_fakes(), total);
    EXPECT_EQ(c.remaining_size(), 0);
    EXPECT_DOUBLE_EQ(c.explored_fraction(), 1.0);
    EXPECT_EQ(c.best().makespan, std::min<Time>(5000, sim.best_sent()));
    if (options.workers > 1 && options.stop_after < 0) {
      EXPECT_GT(c.stats().splits, 0u);
      EXPECT_GT(c.stats().checkpoint_requests, 0u);
    }
  } else {
    EXPECT_EQ(sim.explored_by_fakes() + c.remaining_size(), total);
    for (const WorkUnit& unit : c.unassigned()) {
      covered.insert(covered.end(), unit.intervals().begin(), unit.intervals().end());
    }
  }
  // What the workers explored (plus, after a stop, what they handed back) tiles [0, n!).
  EXPECT_TRUE(tiles(covered, total));
}

TEST(CoordinatorSimulation, EveryPermutationIsExploredExactlyOnce) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    for (int workers : {1, 2, 5, 16}) simulate({7, workers, seed, {}, -1});
  }
  simulate({9, 8, 99, {}, -1});
}

TEST(CoordinatorSimulation, SplitsDownToSingleIntervals) {
  CoordinatorSettings settings;
  settings.min_split_size = 1;
  for (unsigned seed = 11; seed <= 16; ++seed) simulate({6, 4, seed, settings, -1});
}

TEST(CoordinatorSimulation, LargeMinimumSplitSize) {
  CoordinatorSettings settings;
  settings.min_split_size = 400;
  for (unsigned seed = 21; seed <= 26; ++seed) simulate({7, 6, seed, settings, -1});
}

TEST(CoordinatorSimulation, StopLosesNothingAndExploresNothingTwice) {
  for (unsigned seed = 31; seed <= 42; ++seed) {
    for (int workers : {1, 3, 8}) {
      simulate({7, workers, seed, {}, static_cast<int>(seed * 37 % 250)});
    }
  }
}

}  // namespace
}  // namespace permbb::cluster
