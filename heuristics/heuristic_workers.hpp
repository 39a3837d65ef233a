#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "incumbent.hpp"
#include "instance.hpp"
#include "search_engine.hpp"
#include "solution_pool.hpp"

namespace permbb {

struct HeuristicWorkerOptions {
  int threads = 1;
  // Wall-clock budget of one iterated greedy run (the paper allows 5 minutes on hard
  // instances; short runs restart more often from the B&B's fresh subproblems).
  double seconds_per_run = 2.0;
  // Run r of thread i is seeded with seed + i + r * threads: distinct over all runs.
  std::uint64_t seed = 0;
};

// The heuristic threads of the hybridization (2022 §4.2.3). Each thread repeatedly takes a
// start solution from the pool (or, while it is empty, the incumbent's schedule, or NEH's),
// runs the iterated greedy (run_heuristic, kIls) for seconds_per_run, offers the result to the
// shared Incumbent (which keeps it only if strictly better: the explorers prune with it at
// once, and a cluster worker posts it to the coordinator) and inserts it into the pool.
// stop() raises the flag the running searches poll, so it and the destructor return promptly.
class HeuristicWorkers {
 public:
  // The Incumbent and the pool must outlive this object; the instance is copied.
  HeuristicWorkers(const Instance& instance, Incumbent& incumbent, SolutionPool& pool,
                   const HeuristicWorkerOptions& options);
  ~HeuristicWorkers();
  HeuristicWorkers(const HeuristicWorkers&) = delete;
  HeuristicWorkers& operator=(const HeuristicWorkers&) = delete;

  // Stops and joins every thread; idempotent.
  void stop();

  int threads() const { return static_cast<int>(threads_.size()); }
  std::uint64_t runs() const { return runs_.load(); }
  // Runs whose result the Incumbent took.
  std::uint64_t improvements() const { return improvements_.load(); }
  // The first error a thread stopped on (empty: none).
  std::string error() const;

 private:
  void thread_main(int index);

  const Instance instance_;
  Incumbent& incumbent_;
  SolutionPool& pool_;
  const HeuristicWorkerOptions options_;
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> runs_{0};
  std::atomic<std::uint64_t> improvements_{0};
  mutable std::mutex error_mutex_;
  std::string error_;
  std::vector<std::thread> threads_;
};

// The B&B side of the hybridization, on a paused engine: promotes the current subproblems of
// up to pool.capacity() IVMs (SearchEngine::sample_schedules), evaluates them, offers the best
// to the Incumbent and inserts them all into the pool. Returns how many were promoted.
int promote_subproblems(SearchEngine& engine, const Instance& instance, Incumbent& incumbent,
                        SolutionPool& pool);

// What a search process runs for the hybridization: a pool of 2 x threads schedules, the
// heuristic threads, and the promotion step to call between explore() slices.
class Hybridization {
 public:
  Hybridization(const Instance& instance, Incumbent& incumbent,
                const HeuristicWorkerOptions& options, double promote_seconds = 1.0);

  // Call with the paused engine after each slice: promotes at most every promote_seconds
  // (the first call promotes at once).
  void between_slices(SearchEngine& engine);

  SolutionPool& pool() { return pool_; }
  HeuristicWorkers& workers() { return workers_; }
  std::uint64_t promotions() const { return promotions_; }
  void stop() { workers_.stop(); }

 private:
  using Clock = std::chrono::steady_clock;
  const Instance& instance_;
  Incumbent& incumbent_;
  const double promote_seconds_;
  SolutionPool pool_;
  HeuristicWorkers workers_;
  Clock::time_point last_promotion_{};
  bool promoted_ = false;
  std::uint64_t promotions_ = 0;
};

}  // namespace permbb
