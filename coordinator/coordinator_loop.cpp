#include "coordinator_loop.hpp"

#include <chrono>
#include <thread>
#include <variant>

#include <spdlog/spdlog.h>

#include "number_text.hpp"
#include "silence_watch.hpp"

namespace permbb::cluster {
namespace {

// How long the coordinator sleeps when no message is waiting; its busy fraction counts the
// rest of its time.
constexpr auto kIdleSleep = std::chrono::microseconds(200);

void report_progress(solve::ProgressReporter& progress, const Coordinator& c,
                     const CoordinatorRun& run) {
  const int active = c.workers() - c.terminated_count() - c.lost_count() - c.hungry_count();
  const solve::CoordinatorLoad load{
      run.wall_seconds > 0 ? run.busy_seconds / run.wall_seconds : 0.0, c.stats().work_messages,
      c.stats().splits, c.hungry_count()};
  progress.report({c.stats().decomposed, c.best().makespan, c.remaining_size(), active, load});
}

// Algorithm 1's loop with its checks between messages; one object per run.
class Loop {
 public:
  Loop(Coordinator& coordinator, const CoordinatorContext& context)
      : c_(coordinator),
        context_(context),
        watch_(coordinator.workers(), solve::rank_timeout(context.options),
               context.progress.elapsed_seconds()),
        waits_(coordinator.workers()),
        start_(std::chrono::steady_clock::now()) {}

  CoordinatorRun run() {
    while (!c_.finished()) {
      watch_.listening(now());
      between_messages();
      context_.sends.progress();
      if (const auto received = cluster::poll()) {
        on_message(*received);
      } else {
        // Only with no message waiting: a backlog in the queue is not silence.
        find_lost_workers();
        std::this_thread::sleep_for(kIdleSleep);
      }
      run_.wall_seconds = loop_seconds();
      if (context_.progress.due()) report_progress(context_.progress, c_, run_);
    }
    run_.idle_since = waits_.idle_since();
    run_.waits = waits_.waits();
    return run_;
  }

 private:
  void on_message(const cluster::Received& received) {
    const auto t0 = std::chrono::steady_clock::now();
    const int worker = received.source - 1;
    if (worker >= 0 && worker < c_.workers() && c_.lost(worker)) return;  // too late: ignored
    watch_.heard(worker, now());
    auto message = cluster::decode_from_worker(received.tag, received.bytes);
    waits_.received(worker, message, loop_seconds());
    send(c_.handle(worker, std::move(message)));
    run_.busy_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

  // Checkpoints and stops decided between messages: the time limit, signals, the interval.
  void between_messages() {
    const solve::SolveOptions& options = context_.options;
    const double t = now();
    if (options.time_limit_seconds > 0 && t >= options.time_limit_seconds) stop("time limit");
    // The workers' counts arrive with their checkpoints (every 0.2 s under a node limit): the
    // limit is overshot by at most that much search.
    if (options.node_limit > 0 && c_.stats().decomposed >= options.node_limit) {
      stop("node limit");
    }
    const bool signalled_stop = context_.signals.stop_requested() && !c_.stopping();
    if (context_.signals.take_checkpoint_request() || context_.keeper.due() || signalled_stop) {
      context_.keeper.write(state_of(c_, t));
    }
    if (signalled_stop) stop("signal");
  }

  // A worker that owes a message and has been silent past the timeout is lost: its copy
  // stays as remaining work, saved now, and the others are stopped (Coordinator::declare_lost).
  void find_lost_workers() {
    const double t = now();
    watch_.listening(t);  // again: this process may have been stopped since the loop's top
    const auto lost = watch_.overdue(t, [&](int w) { return c_.owes_message(w); });
    if (lost.empty()) return;
    const bool was_stopping = c_.stopping();
    for (int worker : lost) {
      const int rank = worker + 1;
      spdlog::error("worker {} silent for {:.1f} s (--rank-timeout {}): declared lost",
                    context_.session.rank_name(rank), watch_.silent_seconds(worker, t),
                    number_text(watch_.timeout_seconds()));
      run_.lost_ranks.push_back(rank);
      send(c_.declare_lost(worker));
    }
    context_.keeper.write(state_of(c_, t));
    if (!was_stopping) spdlog::warn("a lost rank: stopping the workers");
  }

  // Stops the search for a limit or a signal: the workers get END at their next message
  // (asked for one at once) and hand back what they had not explored.
  void stop(const char* why) {
    if (c_.stopping()) return;
    spdlog::warn("{}: stopping the workers", why);
    send(c_.request_stop());
  }

  // A reply (not a CheckpointRequest or GiveRequest) makes it the worker's turn to speak again.
  void send(const std::vector<cluster::Outgoing>& messages) {
    const double t = now();
    for (const auto& out : messages) {
      cluster::Encoded encoded = cluster::encode_for_worker(out.message);
      context_.sends.send(out.worker + 1, static_cast<int>(encoded.tag), std::move(encoded.bytes));
      if (!std::holds_alternative<cluster::CheckpointRequest>(out.message) &&
          !std::holds_alternative<cluster::GiveRequest>(out.message)) {
        watch_.answered(out.worker, t);
      }
    }
    waits_.sent(messages, loop_seconds());
  }

  double now() const { return context_.progress.elapsed_seconds(); }
  double loop_seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  Coordinator& c_;
  const CoordinatorContext& context_;
  cluster::SilenceWatch watch_;
  CoordinatorRun run_;
  WaitClock waits_;
  const std::chrono::steady_clock::time_point start_;
};

}  // namespace

CoordinatorRun coordinate(Coordinator& coordinator, const CoordinatorContext& context) {
  return Loop(coordinator, context).run();
}

solve::SearchState state_of(const Coordinator& c, double wall_seconds) {
  std::vector<WorkUnit> active;
  for (const WorkUnit& copy : c.copies()) {
    if (!copy.empty()) active.push_back(copy);
  }
  return {c.unassigned(),
          std::move(active),
          c.best(),
          {c.stats().decomposed, c.stats().leaves, wall_seconds, c.stats().work_messages,
           c.stats().splits},
          c.cut_snapshot()};
}

}  // namespace permbb::cluster
