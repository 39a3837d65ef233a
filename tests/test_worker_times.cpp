// Where a worker's time goes (WorkerTimes, worker/worker_process.cpp): a fake engine whose
// slices and occupancy are known, and a fake coordinator on the communicator's side of the
// mailbox whose replies come after known pauses, give the expected seconds per part. A
// give request ends a long slice at once (WorkerSettings::interrupt_slices), and the readings
// beside the parts (the give latency, the assignments) are timed.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <variant>

#include "factoradic_mpz.hpp"
#include "worker_process.hpp"

namespace permbb::cluster {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// An engine whose work is a list of slices, each taking its time (a slice ended early by
// request_stop() counts as done): its explorers are 4, of which one holds work in the first
// half of the slices (thin) and all four in the second.
class FakeEngine : public SearchEngine {
 public:
  explicit FakeEngine(std::vector<std::chrono::milliseconds> slices,
                      std::chrono::milliseconds set_work_pause = 0ms)
      : slices_(std::move(slices)), set_work_pause_(set_work_pause) {}

  std::string name() const override { return "fake"; }
  // New work starts the list over; a part kept after a handover goes on where it was. Each
  // call takes `set_work_pause`.
  void set_work(const std::vector<Interval>& intervals) override {
    std::this_thread::sleep_for(set_work_pause_);
    if (intervals.empty()) {
      left_ = 0;
    } else if (left_ == 0) {
      left_ = static_cast<int>(slices_.size());
    }
  }
  bool explore(std::chrono::duration<double> budget) override {
    std::unique_lock<std::mutex> lock(mutex_);
    stop_ = false;
    if (left_ == 0) return true;
    const auto slice = slices_[slices_.size() - static_cast<std::size_t>(left_)];
    const auto wait = std::min<std::chrono::duration<double>>(budget, slice);
    if (cv_.wait_for(lock, wait, [&] { return stop_; })) stopped_early_ = true;
    --left_;
    return left_ == 0;
  }
  std::vector<Interval> remaining() override {
    if (left_ == 0) return {};
    return {Interval{mpz_class(0), mpz_class(2 * left_)}};
  }
  void request_stop() override {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
    cv_.notify_all();
  }
  EngineStats stats() const override {
    EngineStats s;
    s.explorers = 4;
    const int total = static_cast<int>(slices_.size());
    s.active_explorers = left_ == 0 ? 0 : (left_ > total / 2 ? 1 : 4);
    return s;
  }
  std::vector<PromotedSubproblem> sample_subproblems(int) override { return {}; }
  bool stopped_early() const { return stopped_early_; }

 private:
  const std::vector<std::chrono::milliseconds> slices_;
  const std::chrono::milliseconds set_work_pause_;
  int left_ = 0;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool stopped_early_ = false;
};

// The coordinator's side: work after `work_pause`, a BEST after `checkpoint_pause` for every
// checkpoint with work, END for the checkpoint without; a Handover is answered at once.
// Optionally, a give request once the work was given.
struct FakeCoordinator {
  std::chrono::milliseconds work_pause;
  std::chrono::milliseconds checkpoint_pause;
  bool ask_to_give = false;
  std::atomic<int> checkpoints_with_work{0};
  std::atomic<bool> handover_seen{false};
  Clock::time_point give_asked_at{};
  Clock::time_point handover_at{};

  void operator()(Mailbox& mailbox) {
    bool work_given = false;
    while (true) {
      const auto message = mailbox.wait_outgoing(1ms);
      if (!message) continue;
      if (std::holds_alternative<Farewell>(*message)) return;
      if (std::holds_alternative<Handover>(*message)) {
        handover_at = Clock::now();
        handover_seen = true;
        mailbox.deliver(BestMessage{});
        continue;
      }
      const auto& report = std::get<WorkReport>(*message);
      if (!work_given) {
        std::this_thread::sleep_for(work_pause);
        work_given = true;
        mailbox.deliver(WorkAssignment{1, {Interval{mpz_class(0), mpz_class(1000)}}, Schedule{}});
        if (ask_to_give) {
          // Well inside the first slice, which has begun by then.
          std::this_thread::sleep_for(100ms);
          give_asked_at = Clock::now();
          mailbox.request_give(4);
        }
      } else if (report.intervals.empty()) {
        mailbox.deliver(StopOrder{});
      } else {
        ++checkpoints_with_work;
        std::this_thread::sleep_for(checkpoint_pause);
        mailbox.deliver(BestMessage{});
      }
    }
  }
};

TEST(WorkerTimes, KnownPausesGiveTheExpectedSeconds) {
  FakeEngine engine(std::vector<std::chrono::milliseconds>(8, 25ms));
  Incumbent incumbent;
  FakeCoordinator coordinator{150ms, 40ms};
  WorkerSettings settings;
  settings.slice_seconds = 1;
  settings.checkpoint_seconds = 0.06;  // a checkpoint every few slices
  settings.min_steal_checkpoint_seconds = 0.06;
  const WorkerOutcome out = run_worker(engine, incumbent, settings, std::ref(coordinator));
  const WorkerTimes& t = out.times;
  const int checkpoints = coordinator.checkpoints_with_work.load();
  ASSERT_GE(checkpoints, 1);
  // Eight slices of 25 ms explored; the reply with work came after 150 ms; each checkpoint
  // with work waited 40 ms for its reply. A loaded machine only adds time.
  EXPECT_GE(t.explore_seconds, 8 * 0.025);
  EXPECT_LT(t.explore_seconds, 8 * 0.025 + 0.3);
  EXPECT_GE(t.work_wait_seconds, 0.15);
  EXPECT_LT(t.work_wait_seconds, 0.15 + 0.3);
  EXPECT_GE(t.checkpoint_seconds, checkpoints * 0.04);
  EXPECT_LT(t.checkpoint_seconds, checkpoints * 0.04 + 0.3);
  EXPECT_EQ(t.handover_seconds, 0);
  // Half the slices had one explorer of four busy: thin, and a busy share of (1/4 + 1) / 2;
  // the last slice ends with none busy.
  EXPECT_GE(t.thin_seconds, 4 * 0.025);
  EXPECT_GT(t.busy_explorer_share, 0.3);
  EXPECT_LT(t.busy_explorer_share, 0.75);
  // The parts add up to the wall time.
  const double parts = t.explore_seconds + t.checkpoint_seconds + t.handover_seconds +
                       t.work_wait_seconds + t.hybrid_seconds + t.other_seconds;
  EXPECT_NEAR(parts, t.wall_seconds, 1e-9);
  EXPECT_GE(t.wall_seconds, 8 * 0.025 + 0.15 + checkpoints * 0.04);
}

// Slices longer than any of the engine's, and no checkpoint due before the work is done.
WorkerSettings long_slices() {
  WorkerSettings settings;
  settings.slice_seconds = 10;
  settings.checkpoint_seconds = 100;
  settings.min_steal_checkpoint_seconds = 100;
  return settings;
}

TEST(WorkerTimes, AGiveRequestEndsALongSliceAtOnce) {
  FakeEngine engine({3000ms, 5ms, 5ms});
  Incumbent incumbent;
  FakeCoordinator coordinator{10ms, 1ms, /*ask_to_give=*/true};
  const WorkerSettings settings = long_slices();
  const WorkerOutcome out = run_worker(engine, incumbent, settings, std::ref(coordinator));
  ASSERT_TRUE(coordinator.handover_seen);
  EXPECT_TRUE(engine.stopped_early());
  // The handover came while the slice still had seconds to run.
  EXPECT_LT(seconds_between(coordinator.give_asked_at, coordinator.handover_at), 1.0);
  EXPECT_GT(out.times.handover_seconds, 0.0);
}

TEST(WorkerTimes, WithoutInterruptionAGiveRequestWaitsForTheSliceToEnd) {
  FakeEngine engine({600ms});
  Incumbent incumbent;
  FakeCoordinator coordinator{10ms, 1ms, /*ask_to_give=*/true};
  WorkerSettings settings = long_slices();
  settings.interrupt_slices = false;
  run_worker(engine, incumbent, settings, std::ref(coordinator));
  // One slice of 600 ms explored the whole unit: the request found nothing left to give.
  EXPECT_FALSE(coordinator.handover_seen);
  EXPECT_FALSE(engine.stopped_early());
}

// A victim's give latency runs from the request's arrival to its handover: here, without
// interruption, the rest of the slice in progress. Setting the engine to a unit received is
// timed apart, as a reading within `other`.
TEST(WorkerTimes, TheGiveLatencyAndTheAssignmentAreTimed) {
  FakeEngine engine({500ms, 5ms, 5ms}, /*set_work_pause=*/30ms);
  Incumbent incumbent;
  FakeCoordinator coordinator{10ms, 1ms, /*ask_to_give=*/true};
  WorkerSettings settings = long_slices();
  settings.interrupt_slices = false;
  const WorkerOutcome out = run_worker(engine, incumbent, settings, std::ref(coordinator));
  ASSERT_TRUE(coordinator.handover_seen);
  EXPECT_FALSE(engine.stopped_early());
  const double asked_to_handover =
      seconds_between(coordinator.give_asked_at, coordinator.handover_at);
  // The request came about 100 ms into the 500 ms slice and was answered at its end; what
  // follows the latency before the handover is posted (the split) is short.
  EXPECT_GT(asked_to_handover, 0.2);
  EXPECT_LE(out.times.give_latency_seconds, asked_to_handover);
  EXPECT_GE(out.times.give_latency_seconds, 0.5 * asked_to_handover);
  // One unit received, set in 30 ms; the kept part's setting counts as the handover's.
  EXPECT_GE(out.times.assign_seconds, 0.03);
  EXPECT_LT(out.times.assign_seconds, 0.03 + 0.3);
  EXPECT_LE(out.times.assign_seconds, out.times.other_seconds);
  EXPECT_GE(out.times.handover_seconds, 0.03);
}

}  // namespace
}  // namespace permbb::cluster
