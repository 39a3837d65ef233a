#include "worker_process.hpp"

#include <algorithm>
#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <stdexcept>
#include <thread>

#include "communicator.hpp"
#include "mailbox.hpp"
#include "report_cadence.hpp"
#include "work_unit.hpp"

namespace permbb::cluster {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Adds the time a scope takes to one of the WorkerTimes fields.
class AddElapsed {
 public:
  explicit AddElapsed(double& total) : total_(total), start_(Clock::now()) {}
  ~AddElapsed() { total_ += seconds_since(start_); }
  AddElapsed(const AddElapsed&) = delete;
  AddElapsed& operator=(const AddElapsed&) = delete;

 private:
  double& total_;
  const Clock::time_point start_;
};

// The explorer side of a worker: what it has, what it reported, when to report again.
class WorkerLoop {
 public:
  WorkerLoop(SearchEngine& engine, Incumbent& incumbent, const WorkerSettings& settings,
             CommunicatorMain communicator)
      : communicator_main_(std::move(communicator)),
        engine_(engine),
        incumbent_(incumbent),
        settings_(settings),
        mailbox_(std::make_shared<Mailbox>(
            std::chrono::duration<double>(settings.reply_timeout_seconds))),
        start_(Clock::now()) {
    const int explorers = std::max(1, engine.stats().explorers);
    max_intervals_ = settings.max_intervals > 0 ? settings.max_intervals : explorers;
    steals_per_checkpoint_ = settings.steals_per_checkpoint > 0
                                 ? settings.steals_per_checkpoint
                                 : static_cast<std::uint64_t>(std::max(1, explorers / 5));
    sent_best_ = incumbent.value();
    double floor = report_period_floor(settings.workers, max_intervals_);
    if (settings.reply_timeout_seconds > 0) floor = std::min(floor, settings.reply_timeout_seconds / 2);
    checkpoint_period_ = std::max(settings.checkpoint_seconds, floor);
    steal_checkpoint_period_ = std::max(settings.min_steal_checkpoint_seconds, floor);
    stagger_ = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
        steal_checkpoint_period_ * std::clamp(settings.worker_index, 0, settings.workers) /
        std::max(1, settings.workers)));
  }

  WorkerOutcome run() {
    // A checkpoint or give request ends the slice in progress (Mailbox::on_request).
    if (settings_.interrupt_slices) {
      mailbox_->on_request([&engine = engine_] { engine.request_stop(); });
    }
    std::promise<void> finished;
    std::future<void> communicator_done = finished.get_future();
    // The thread shares the mailbox: when an error ends this loop it is left running (it may
    // be blocked in MPI until the job is aborted) and may still report its own failure there.
    std::thread communicator(
        [main = communicator_main_, mailbox = mailbox_, done = std::move(finished)]() mutable {
          main(*mailbox);
          done.set_value();
        });
    try {
      explore_until_stopped();
      mailbox_->post(farewell());
      wait_until_sent(communicator_done);
    } catch (...) {
      // The communicator may be blocked in MPI; main aborts the job, which ends it. It must
      // no longer reach the engine, which goes away with this loop.
      mailbox_->on_request({});
      communicator.detach();
      throw;
    }
    mailbox_->on_request({});
    communicator.join();
    return {engine_.stats(), incumbent_.value(), closing_times()};
  }

 private:
  void explore_until_stopped() {
    mailbox_->post(report());  // an empty unit: the first request for work
    while (true) {
      if (auto reply = mailbox_->take_reply(); reply && apply(*reply)) return;
      // A BEST in flight changes no work; a checkpoint in flight does (the coordinator may
      // split the reported unit), so exploration waits for its reply.
      if (has_work_ && !checkpoint_in_flight_) {
        explore_slice();
        if (has_work_ && settings_.between_slices) {
          AddElapsed timed(times_.hybrid_seconds);
          settings_.between_slices(engine_);
        }
      }
      if (mailbox_->free()) post_if_due();
      // Nothing to explore, or a checkpoint in flight: wait for the reply.
      if (!mailbox_->free() && (!has_work_ || checkpoint_in_flight_)) {
        const ToWorker reply = wait_for_reply();
        if (apply(reply)) return;
      }
    }
  }

  // One slice of exploration, and how many explorers held work at its end: a sample of the
  // engine's occupancy over the slice.
  void explore_slice() {
    const Clock::time_point started = Clock::now();
    has_work_ = !engine_.explore(slice());
    const double seconds = seconds_since(started);
    times_.explore_seconds += seconds;
    const EngineStats stats = engine_.stats();
    const int explorers = std::max(1, stats.explorers);
    const double share =
        std::clamp(static_cast<double>(stats.active_explorers) / explorers, 0.0, 1.0);
    busy_explorer_seconds_ += seconds * share;
    if (2 * stats.active_explorers < explorers) times_.thin_seconds += seconds;
  }

  // Waiting for a reply is waiting for work when there is none to explore, else for a
  // checkpoint's reply.
  ToWorker wait_for_reply() {
    AddElapsed timed(has_work_ ? times_.checkpoint_seconds : times_.work_wait_seconds);
    return mailbox_->wait_reply();
  }

  // The communicator returns once the farewell is sent; a coordinator that stopped receiving
  // can block that send for ever, so it too has the reply timeout.
  void wait_until_sent(const std::future<void>& communicator_done) const {
    if (settings_.reply_timeout_seconds <= 0) return;
    const auto limit = std::chrono::duration<double>(settings_.reply_timeout_seconds);
    if (communicator_done.wait_for(limit) == std::future_status::timeout) {
      throw ReplyOverdue(settings_.reply_timeout_seconds);
    }
  }

  std::chrono::duration<double> slice() const {
    return std::chrono::duration<double>(settings_.slice_seconds);
  }

  void post_if_due() {
    if (incumbent_.value() < sent_best_ && incumbent_.has_schedule()) {
      sent_best_ = incumbent_.value();
      mailbox_->post(BestMessage{{incumbent_.permutation(), sent_best_}});
      checkpoint_in_flight_ = false;
      return;
    }
    const std::optional<PendingGive> give = mailbox_->take_give_request();
    if (give && has_work_) {
      times_.give_latency_seconds += seconds_since(give->arrived);
      AddElapsed timed(times_.handover_seconds);
      hand_over(give->max_intervals);
      return;
    }
    const bool asked = mailbox_->take_checkpoint_request();
    const bool timed = seconds_since(last_checkpoint_) >= checkpoint_period_;
    const bool stolen = engine_.stats().steals - steals_at_checkpoint_ >= steals_per_checkpoint_ &&
                        seconds_since(last_checkpoint_) >= steal_checkpoint_period_;
    const bool over_time = settings_.time_limit_seconds > 0 &&
                           seconds_since(start_) >= settings_.time_limit_seconds &&
                           seconds_since(last_checkpoint_) >= 0.5;
    if (!has_work_ || asked || timed || stolen || over_time) {
      WorkReport checkpoint;
      {
        AddElapsed timed_report(has_work_ ? times_.checkpoint_seconds : times_.work_wait_seconds);
        checkpoint = report();
      }
      mailbox_->post(std::move(checkpoint));
      checkpoint_in_flight_ = true;
    }
  }

  // A checkpoint: the remaining intervals (exact: the engine is paused), the counters since
  // the last one and their cut records.
  WorkReport report() {
    std::optional<CutRecords> cut = take_cut();
    const EngineStats stats = engine_.stats();
    WorkReport r;
    r.cut = std::move(cut);
    r.unit_id = unit_id_;
    r.decomposed = stats.nodes.decomposed - reported_.decomposed;
    r.leaves = stats.nodes.leaves - reported_.leaves;
    r.max_intervals = max_intervals_;
    r.best_makespan = incumbent_.value();
    r.intervals = has_work_ ? engine_.remaining() : std::vector<Interval>{};
    r.max_intervals = std::max<std::int32_t>(r.max_intervals,
                                             static_cast<std::int32_t>(r.intervals.size()));
    reported_ = stats.nodes;
    last_checkpoint_ = Clock::now();
    steals_at_checkpoint_ = stats.steals;
    return r;
  }

  // Certificates: the paused engine's committed records since the last report, taken before
  // its counts are read (taking them may add to the counts: CutFaults::count_twice), so that
  // a report's records are those of the nodes it counts. What a handover leaves uncommitted
  // the engine drops with its counts (IvmExplorer::clear).
  std::optional<CutRecords> take_cut() {
    if (!settings_.cut_depth) return std::nullopt;
    SearchCut cut(*settings_.cut_depth);
    if (!engine_.collect_cut(cut)) {
      throw std::runtime_error("--certificate: the " + engine_.name() + " engine records no cut");
    }
    return cut.snapshot();
  }

  // A GiveRequest (protocol.hpp): the paused engine's intervals are split as the coordinator
  // would split them, the other part goes out, the engine goes on with the kept part. The
  // part is posted before the engine is set to the rest: a worker waits for it, and the paused
  // engine explores nothing meanwhile. The node counters run on to the next checkpoint
  // (protocol.hpp says why).
  void hand_over(int max_intervals) {
    WorkUnit kept = WorkUnit::from_sorted(unit_id_, engine_.remaining());
    WorkUnit given = kept.split(max_intervals, unit_id_);
    Handover h;
    h.unit_id = unit_id_;
    h.best_makespan = incumbent_.value();
    h.kept_size = kept.size();
    h.intervals = given.intervals();
    mailbox_->post(std::move(h));
    if (!given.empty()) engine_.set_work(kept.intervals());
    has_work_ = !kept.empty();
  }

  Farewell farewell() {
    std::optional<CutRecords> cut = take_cut();
    const EngineStats stats = engine_.stats();
    Farewell f;
    f.cut = std::move(cut);
    f.unit_id = unit_id_;
    f.decomposed = stats.nodes.decomposed - reported_.decomposed;
    f.leaves = stats.nodes.leaves - reported_.leaves;
    f.best = {incumbent_.permutation(), incumbent_.value()};
    f.intervals = has_work_ ? engine_.remaining() : std::vector<Interval>{};
    reported_ = stats.nodes;
    f.times = closing_times();
    return f;
  }

  // The wall time since the start, by phase; what no phase names is `other`.
  WorkerTimes closing_times() const {
    WorkerTimes t = times_;
    t.wall_seconds = seconds_since(start_);
    const double named = t.explore_seconds + t.checkpoint_seconds + t.handover_seconds +
                         t.work_wait_seconds + t.hybrid_seconds;
    t.other_seconds = std::max(0.0, t.wall_seconds - named);
    t.busy_explorer_share = t.explore_seconds > 0
                                ? std::clamp(busy_explorer_seconds_ / t.explore_seconds, 0.0, 1.0)
                                : 0;
    return t;
  }

  // Applies a reply; true on END.
  bool apply(const ToWorker& reply) {
    checkpoint_in_flight_ = false;
    if (std::holds_alternative<StopOrder>(reply)) return true;
    if (const auto* best = std::get_if<BestMessage>(&reply)) {
      absorb(best->best);
      return false;
    }
    const auto& work = std::get<WorkAssignment>(reply);
    absorb(work.best);
    unit_id_ = work.unit_id;
    {
      AddElapsed timed(times_.assign_seconds);
      engine_.set_work(work.intervals);
    }
    has_work_ = !work.intervals.empty();
    last_checkpoint_ = Clock::now() - stagger_;  // staggered once: the first unit
    stagger_ = Clock::duration::zero();
    steals_at_checkpoint_ = engine_.stats().steals;
    return false;
  }

  // The global best reaches this worker's pruning at once.
  void absorb(const Schedule& best) {
    if (!best.permutation.empty()) {
      incumbent_.offer(best.permutation, best.makespan);
    } else {
      incumbent_.lower_to(best.makespan);
    }
    sent_best_ = std::min(sent_best_, best.makespan);
  }

  const CommunicatorMain communicator_main_;
  SearchEngine& engine_;
  Incumbent& incumbent_;
  const WorkerSettings settings_;
  std::shared_ptr<Mailbox> mailbox_;
  const Clock::time_point start_;
  Clock::time_point last_checkpoint_ = Clock::now();
  std::int64_t unit_id_ = 0;
  bool has_work_ = false;
  bool checkpoint_in_flight_ = false;
  int max_intervals_ = 1;
  Clock::duration stagger_{};
  double checkpoint_period_ = 30;
  double steal_checkpoint_period_ = 5;
  std::uint64_t steals_per_checkpoint_ = 1;
  std::uint64_t steals_at_checkpoint_ = 0;
  NodeCounters reported_;
  Time sent_best_ = kInfiniteTime;
  WorkerTimes times_;
  double busy_explorer_seconds_ = 0;  // explore seconds weighted by the share of busy explorers
};

}  // namespace

WorkerOutcome run_worker(SearchEngine& engine, Incumbent& incumbent,
                         const WorkerSettings& settings) {
  return run_worker(engine, incumbent, settings, communicator_main);
}

WorkerOutcome run_worker(SearchEngine& engine, Incumbent& incumbent,
                         const WorkerSettings& settings, const CommunicatorMain& communicator) {
  return WorkerLoop(engine, incumbent, settings, communicator).run();
}

}  // namespace permbb::cluster
