#include "signal_watcher.hpp"

#include <pthread.h>

#include <ctime>

namespace permbb::app {

SignalWatcher::SignalWatcher() {
  sigemptyset(&watched_);
  sigaddset(&watched_, SIGUSR1);
  sigaddset(&watched_, SIGTERM);
  sigaddset(&watched_, SIGINT);
  pthread_sigmask(SIG_BLOCK, &watched_, &previous_);
  thread_ = std::thread([this] { wait_for_signals(); });
}

SignalWatcher::~SignalWatcher() {
  quit_.store(true);
  thread_.join();
  pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

// Waits in slices of 100 ms so that the destructor can end the thread without a signal.
void SignalWatcher::wait_for_signals() {
  const timespec slice{0, 100 * 1000 * 1000};
  while (!quit_.load()) {
    const int signal = sigtimedwait(&watched_, nullptr, &slice);
    if (signal == SIGUSR1) {
      checkpoint_.store(true);
    } else if (signal == SIGTERM || signal == SIGINT) {
      stop_signal_.store(signal);
    }
  }
}

}  // namespace permbb::app
