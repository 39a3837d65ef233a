#pragma once
#include <atomic>
#include <csignal>
#include <string>
#include <thread>

namespace permbb::solve {

// The signals a run reacts to (issue: checkpoints and restart):
//   SIGUSR1           write a checkpoint now and go on (Slurm's warning signal too);
//   SIGTERM, SIGINT   write a checkpoint, stop, exit with status 3 (resumable);
//   SIGHUP, SIGQUIT   the same: a closed terminal or a dropped ssh session (HUP) and the
//                     quit key (QUIT) must not lose the work since the last periodic checkpoint;
//   SIGUSR2           the same, for launchers: mpirun forwards USR1 and USR2 to every rank,
//                     but aborts the job (exit 1) on TERM or INT (slurm/permbb-mpirun).
// They are blocked in every thread, from the first line of main on (block_run_signals), so
// that one arriving at any moment waits instead of taking its default action (the end of the
// process); one thread takes them with sigwait, so no handler runs in the middle of the
// search and nothing global is written.

// Blocks these signals in the calling thread, hence in every thread started after it
// (MPI's, the engines'), and returns the mask before. main calls it before anything else.
sigset_t block_run_signals();

// For the commands that do not react to the signals: restores `previous`, so that they end
// the process as usual; one that arrived meanwhile takes effect now.
void restore_signal_mask(const sigset_t& previous);

// Takes the signals on its own thread and records them for the search to poll. Requires
// block_run_signals() first (else a signal may reach another thread). The signals stay
// blocked after it ends: one arriving while the process writes its result and exits is
// dropped, instead of killing the process before its output is flushed.
class SignalWatcher {
 public:
  SignalWatcher();
  ~SignalWatcher();
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;

  // SIGUSR1 arrived since the last call.
  bool take_checkpoint_request() { return checkpoint_.exchange(false); }
  // SIGTERM, SIGINT, SIGHUP or SIGQUIT arrived.
  bool stop_requested() const { return stop_signal_.load() != 0; }
  int stop_signal() const { return stop_signal_.load(); }
  // The same as a flag that searches poll (heuristics::Deadline, the knapsack searches): true
  // from the stop signal on.
  const std::atomic<bool>* stop_flag() const { return &stop_; }
  // "stopped by SIGTERM" (the result's reason), or "" while no stop signal came.
  std::string stop_reason() const;

 private:
  void wait_for_signals();

  std::atomic<bool> checkpoint_{false};
  std::atomic<int> stop_signal_{0};
  std::atomic<bool> stop_{false};
  std::atomic<bool> quit_{false};
  std::thread thread_;
};

}  // namespace permbb::solve
