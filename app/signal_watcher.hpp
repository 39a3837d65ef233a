#pragma once
#include <atomic>
#include <csignal>
#include <thread>

namespace permbb::app {

// The signals a run reacts to (issue: checkpoints and restart):
//   SIGUSR1           write a checkpoint now and go on (Slurm's warning signal too);
//   SIGTERM, SIGINT   write a checkpoint, stop, exit with status 3 (resumable).
// The signals are blocked in this thread and every thread started after it (MPI's, the
// engines'); one thread takes them with sigwait, so no handler runs in the middle of the
// search and nothing global is written. Create it before any other thread.
class SignalWatcher {
 public:
  SignalWatcher();
  ~SignalWatcher();
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;

  // SIGUSR1 arrived since the last call.
  bool take_checkpoint_request() { return checkpoint_.exchange(false); }
  // SIGTERM or SIGINT arrived.
  bool stop_requested() const { return stop_signal_.load() != 0; }
  int stop_signal() const { return stop_signal_.load(); }

 private:
  void wait_for_signals();

  sigset_t watched_;
  sigset_t previous_;
  std::atomic<bool> checkpoint_{false};
  std::atomic<int> stop_signal_{0};
  std::atomic<bool> quit_{false};
  std::thread thread_;
};

}  // namespace permbb::app
