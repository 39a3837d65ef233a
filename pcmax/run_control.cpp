#include "run_control.hpp"

namespace permbb::pcmax {

void RunControl::start_round(int round, const std::vector<Duration>& targets) {
  const std::lock_guard<std::mutex> lock(mutex_);
  status_.round = round;
  status_.targets = targets;
  status_.round_states = 0;
  states_done_.store(0, std::memory_order_relaxed);
}

void RunControl::add_round_states(std::uint64_t states) {
  const std::lock_guard<std::mutex> lock(mutex_);
  status_.round_states += states;
}

void RunControl::set_interval(Duration lower, Duration upper) {
  const std::lock_guard<std::mutex> lock(mutex_);
  status_.lower = lower;
  status_.upper = upper;
}

void RunControl::set_best_makespan(Duration makespan) {
  const std::lock_guard<std::mutex> lock(mutex_);
  status_.best_makespan = makespan;
}

RunStatus RunControl::status() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  RunStatus status = status_;
  status.states_done = states_done_.load(std::memory_order_relaxed);
  return status;
}

}  // namespace permbb::pcmax
