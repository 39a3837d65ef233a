#pragma once
// The single-item buffers between a worker's explorer thread and its communicator thread
// (2022 §4.2.1-4.2.2, producer-consumer). The explorer posts one message when the
// communicator is free and goes on exploring; the communicator sends it, waits for the
// coordinator's single reply and leaves it in the reply slot. The explorer never blocks on
// communication, except when it has nothing left to explore and waits for the reply.
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>

#include "protocol.hpp"

namespace permbb::cluster {

class Mailbox {
 public:
  // Explorer side. post() requires free(): one message in flight at a time.
  bool free() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return !outgoing_ && !in_flight_ && !reply_;
  }
  void post(ToCoordinator message) {
    std::lock_guard<std::mutex> lock(mutex_);
    outgoing_ = std::move(message);
    cv_.notify_all();
  }
  // The reply, if it has come; a failure of the communicator is rethrown here.
  std::optional<ToWorker> take_reply() {
    std::lock_guard<std::mutex> lock(mutex_);
    return take_locked();
  }
  // Blocks until the reply (or a failure) comes.
  ToWorker wait_reply() {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [&] { return reply_.has_value() || failure_; });
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
    return message;
  }

  // The coordinator asked for a checkpoint (a thief waits for part of this worker's unit).
  void request_checkpoint() {
    std::lock_guard<std::mutex> lock(mutex_);
    checkpoint_requested_ = true;
  }
  // Explorer side: whether a checkpoint was asked for since the last call.
  bool take_checkpoint_request() {
    std::lock_guard<std::mutex> lock(mutex_);
    const bool requested = checkpoint_requested_;
    checkpoint_requested_ = false;
    return requested;
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
    return reply;
  }

  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::optional<ToCoordinator> outgoing_;
  std::optional<ToWorker> reply_;
  bool in_flight_ = false;
  bool checkpoint_requested_ = false;
  std::exception_ptr failure_;
};

}  // namespace permbb::cluster
