#pragma once
// The single-item buffers between a worker's explorer thread and its communicator thread
// (2022 §4.2.1-4.2.2, producer-consumer). The explorer posts one message when the
// communicator is free and goes on exploring; the communicator sends it, waits for the
// coordinator's single reply and leaves it in the reply slot. The explorer never blocks on
// communication, except when it has nothing left to explore and waits for the reply.
//
// A reply that does not come within the reply timeout (--rank-timeout) throws ReplyOverdue on
// the explorer's side, whatever the communicator is doing: a coordinator that stopped
// answering can leave it blocked inside MPI for good. A healthy coordinator answers at once,
// or, to a worker waiting for work, at the handover (or checkpoint) of the victim it asked at
// once (see coordinator.hpp); a victim that stopped answering is declared lost within the same
// timeout, and the waiting worker then gets END.
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

#include "protocol.hpp"

namespace permbb::cluster {

// No reply from the coordinator within the reply timeout.
class ReplyOverdue : public std::runtime_error {
 public:
  explicit ReplyOverdue(double waited_seconds)
      : std::runtime_error("no reply from the coordinator (rank 0) for " +
                           tenths(waited_seconds) + " s"),
        waited_seconds_(waited_seconds) {}
  double waited_seconds() const { return waited_seconds_; }

 private:
  static std::string tenths(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", seconds);
    return text;
  }
  double waited_seconds_;
};

// A GiveRequest the explorer has not answered yet: K_max, and when it arrived (the victim's
// answer is timed from there: WorkerTimes::give_latency_seconds).
struct PendingGive {
  int max_intervals = 0;
  std::chrono::steady_clock::time_point arrived;
};

class Mailbox {
 public:
  using Clock = std::chrono::steady_clock;

  // `reply_timeout`: how long a posted message may wait for its reply (zero: for ever).
  explicit Mailbox(std::chrono::duration<double> reply_timeout = {})
      : reply_timeout_(reply_timeout) {}

  // Explorer side. post() requires free(): one message in flight at a time.
  bool free() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return !outgoing_ && !in_flight_ && !reply_;
  }
  void post(ToCoordinator message) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (std::holds_alternative<WorkReport>(message)) give_request_.reset();  // it answers one
    outgoing_ = std::move(message);
    posted_at_ = Clock::now();
    cv_.notify_all();
  }
  // The reply, if it has come; a failure of the communicator is rethrown here, and
  // ReplyOverdue thrown once the reply is overdue.
  std::optional<ToWorker> take_reply() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::optional<ToWorker> reply = take_locked();
    if (!reply && overdue_locked()) throw ReplyOverdue(waited_locked());
    return reply;
  }
  // Blocks until the reply (or a failure) comes; throws ReplyOverdue once it is overdue.
  ToWorker wait_reply() {
    std::unique_lock<std::mutex> lock(mutex_);
    const auto arrived = [&] { return reply_.has_value() || failure_; };
    if (reply_timeout_.count() <= 0 || !posted_at_) {
      cv_.wait(lock, arrived);
    } else if (!cv_.wait_until(lock, deadline_locked(), arrived)) {
      throw ReplyOverdue(waited_locked());
    }
    return *take_locked();
  }

  // Communicator side: the next message to send, waiting at most `timeout` for one.
  template <class Duration>
  std::optional<ToCoordinator> wait_outgoing(Duration timeout) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (!cv_.wait_for(lock, timeout, [&] { return outgoing_.has_value(); })) return std::nullopt;
    ToCoordinator message = std::move(*outgoing_);
    outgoing_.reset();
    in_flight_ = true;
    report_in_flight_ = std::holds_alternative<WorkReport>(message);
    return message;
  }

  // Called, under the mailbox's lock, whenever a checkpoint or give request arrives: the
  // explorer side ends its slice early (SearchEngine::request_stop), so that a waiting worker
  // or a stopping coordinator is not kept waiting for the rest of a long GPU slice. Cleared
  // with an empty function before the engine goes away.
  void on_request(std::function<void()> hook) {
    std::lock_guard<std::mutex> lock(mutex_);
    request_hook_ = std::move(hook);
  }

  // The coordinator asked for a checkpoint (a thief waits for part of this worker's unit).
  void request_checkpoint() {
    std::lock_guard<std::mutex> lock(mutex_);
    checkpoint_requested_ = true;
    if (request_hook_) request_hook_();
  }
  // Explorer side: whether a checkpoint was asked for since the last call.
  bool take_checkpoint_request() {
    std::lock_guard<std::mutex> lock(mutex_);
    const bool requested = checkpoint_requested_;
    checkpoint_requested_ = false;
    return requested;
  }
  // The coordinator asked for a handover of at most `max_intervals` intervals. Void while a
  // checkpoint is posted or in flight: the coordinator sent it before it handled that
  // checkpoint, which answers it (protocol.hpp).
  void request_give(int max_intervals) {
    std::lock_guard<std::mutex> lock(mutex_);
    const bool report_pending =
        (outgoing_ && std::holds_alternative<WorkReport>(*outgoing_)) ||
        (in_flight_ && report_in_flight_);
    if (report_pending) return;
    give_request_ = PendingGive{max_intervals, Clock::now()};
    if (request_hook_) request_hook_();
  }
  // Explorer side: the handover asked for since the last call, if any.
  std::optional<PendingGive> take_give_request() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::optional<PendingGive> request = give_request_;
    give_request_.reset();
    return request;
  }
  void deliver(ToWorker reply) {
    std::lock_guard<std::mutex> lock(mutex_);
    reply_ = std::move(reply);
    in_flight_ = false;
    cv_.notify_all();
  }
  void fail(std::exception_ptr failure) {
    std::lock_guard<std::mutex> lock(mutex_);
    failure_ = failure;
    in_flight_ = false;
    cv_.notify_all();
  }

 private:
  std::optional<ToWorker> take_locked() {
    if (failure_) std::rethrow_exception(failure_);
    std::optional<ToWorker> reply = std::move(reply_);
    reply_.reset();
    if (reply) posted_at_.reset();
    return reply;
  }
  Clock::time_point deadline_locked() const {
    return *posted_at_ + std::chrono::duration_cast<Clock::duration>(reply_timeout_);
  }
  // A message waits for its reply, past the timeout.
  bool overdue_locked() const {
    return posted_at_ && reply_timeout_.count() > 0 && Clock::now() >= deadline_locked();
  }
  double waited_locked() const {
    return std::chrono::duration<double>(Clock::now() - *posted_at_).count();
  }

  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::optional<ToCoordinator> outgoing_;
  std::optional<ToWorker> reply_;
  bool in_flight_ = false;
  bool report_in_flight_ = false;  // the message in flight is a checkpoint (WORK)
  bool checkpoint_requested_ = false;
  std::optional<PendingGive> give_request_;
  std::function<void()> request_hook_;
  std::exception_ptr failure_;
  const std::chrono::duration<double> reply_timeout_;
  std::optional<Clock::time_point> posted_at_;  // a message has waited for its reply since
};

}  // namespace permbb::cluster
