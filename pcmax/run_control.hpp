#pragma once
// What a PTAS run shares with the threads that watch it (the command's time limit and its
// progress lines): a stop request and where the run stands.
//
// The stop is polled between bisection rounds, while the configurations of a target are
// enumerated, and inside the DP fills (per state on the CPU, between kernel launches on the
// GPU), so a run stops within about a second wherever it is; the part of the round
// under way is dropped (RunStopped) and solve_pcmax returns the best schedule found so far.
// Every member may be used from any thread.
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <vector>

#include "pcmax_instance.hpp"

namespace permbb::pcmax {

// Where a run stands, for progress lines.
struct RunStatus {
  int round = 0;                  // the bisection round under way (0: none yet)
  std::vector<Duration> targets;  // the targets it evaluates
  Duration lower = 0;             // the targets the search can still end on: [lower, upper]
  Duration upper = 0;
  Duration best_makespan = 0;      // of the best schedule so far (LPT's before any target)
  std::uint64_t round_states = 0;  // DP table entries of the round
  std::uint64_t states_done = 0;   // of those, computed so far
};

// Thrown inside a run that saw the stop; solve_pcmax catches it.
class RunStopped : public std::exception {
 public:
  const char* what() const noexcept override { return "the P||Cmax run was stopped"; }
};

class RunControl {
 public:
  void request_stop() { stop_.store(true, std::memory_order_relaxed); }
  bool stop_requested() const { return stop_.load(std::memory_order_relaxed); }
  void throw_if_stopped() const {
    if (stop_requested()) throw RunStopped();
  }

  // Told by the run.
  void start_round(int round, const std::vector<Duration>& targets);
  void add_round_states(std::uint64_t states);
  void count_states_done(std::uint64_t states) {
    states_done_.fetch_add(states, std::memory_order_relaxed);
  }
  void set_interval(Duration lower, Duration upper);
  void set_best_makespan(Duration makespan);

  RunStatus status() const;

 private:
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> states_done_{0};  // counted by the fills' threads
  mutable std::mutex mutex_;
  RunStatus status_;  // but states_done
};

// The checks of code that may run without a control (null: never stops, counts nothing).
inline bool stop_requested(const RunControl* control) {
  return control != nullptr && control->stop_requested();
}
inline void throw_if_stopped(const RunControl* control) {
  if (stop_requested(control)) throw RunStopped();
}
inline void count_states_done(RunControl* control, std::uint64_t states) {
  if (control != nullptr) control->count_states_done(states);
}

}  // namespace permbb::pcmax
