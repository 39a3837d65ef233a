#pragma once
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace permbb {

// Appends std::thread(body, i) for i = 0 .. count-1 to `threads`. When the system refuses one
// (std::system_error: the process's thread or memory limit), `stop_started()` is called so that
// the threads already running can end, they are joined, and a runtime_error says how many of
// how many `what` threads could be started. Without this an unstarted pool would leave joinable
// threads behind, and the program would terminate without a word.
template <class Body, class StopStarted>
void start_threads(std::vector<std::thread>& threads, int count, const std::string& what,
                   const Body& body, const StopStarted& stop_started) {
  threads.reserve(threads.size() + static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    try {
      threads.emplace_back(body, i);
    } catch (const std::system_error& e) {
      stop_started();
      for (std::thread& thread : threads) {
        if (thread.joinable()) thread.join();
      }
      threads.clear();
      throw std::runtime_error("cannot start " + what + " thread " + std::to_string(i + 1) +
                               " of " + std::to_string(count) + ": " + e.what());
    }
  }
}

}  // namespace permbb
