#include "signal_watcher.hpp"

#include <pthread.h>

#include <cstring>
#include <ctime>

#include <spdlog/spdlog.h>

namespace permbb::solve {
namespace {

sigset_t run_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGUSR1);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGHUP);
  sigaddset(&set, SIGQUIT);
  sigaddset(&set, SIGUSR2);
  return set;
}

}  // namespace

sigset_t block_run_signals() {
  const sigset_t set = run_signals();
  sigset_t previous;
  pthread_sigmask(SIG_BLOCK, &set, &previous);
  return previous;
}

void restore_signal_mask(const sigset_t& previous) {
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

SignalWatcher::SignalWatcher() {
  block_run_signals();  // already blocked by main; harmless again
  thread_ = std::thread([this] { wait_for_signals(); });
  // While it waits, this thread alone has the signals unblocked (sigtimedwait); the name
  // tells it apart in /proc and in a debugger.
  pthread_setname_np(thread_.native_handle(), "permbb-signals");
}

SignalWatcher::~SignalWatcher() {
  quit_.store(true);
  thread_.join();
}

// Waits in slices of 100 ms so that the destructor can end the thread without a signal. A
// signal that arrived before the thread started is pending, and taken at the first wait.
void SignalWatcher::wait_for_signals() {
  const sigset_t watched = run_signals();
  const timespec slice{0, 100 * 1000 * 1000};
  while (!quit_.load()) {
    siginfo_t info;
    const int signal = sigtimedwait(&watched, &info, &slice);
    if (signal > 0) {
      // Who sent it: a scheduler, mpirun, a user. The search logs what it does about it.
      spdlog::info("received {} from pid {}", strsignal(signal), info.si_pid);
    }
    if (signal == SIGUSR1) {
      checkpoint_.store(true);
    } else if (signal > 0) {  // TERM, INT, HUP, QUIT, USR2
      stop_signal_.store(signal);
      stop_.store(true);
    }
  }
}

std::string SignalWatcher::stop_reason() const {
  const int signal = stop_signal();
  if (signal == 0) return "";
  const char* abbrev = sigabbrev_np(signal);
  return std::string("stopped by SIG") + (abbrev != nullptr ? abbrev : std::to_string(signal));
}

}  // namespace permbb::solve
