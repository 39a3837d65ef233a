#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "incumbent.hpp"
#include "instance.hpp"
#include "search_engine.hpp"
#include "solution_pool.hpp"
#include "subproblem_board.hpp"

namespace permbb {

struct HeuristicWorkerOptions {
  int threads = 1;
  // Wall-clock budget of one iterated greedy run (the paper allows 5 minutes on hard
  // instances; short runs restart more often from the B&B's fresh subproblems).
  double seconds_per_run = 2.0;
  // Run r of thread i is seeded with seed + i + r * threads: distinct over all runs.
  std::uint64_t seed = 0;
  // Subproblem dives: the odd-numbered threads run the beam search inside the B&B's latest
  // subproblems (the SubproblemBoard), each run at a random depth, the paper's other method
  // (§4.2.3: beam search on a subproblem's partial solutions, prefix and suffix kept); the
  // even-numbered ones, and all while the board is empty, run the iterated greedy.
  bool subproblem_dives = false;
  // The first thread's first run is a beam search from the root with Libralesso et al.'s
  // gap guide (beam_search.hpp), for as long as it runs (until its widest pass, or stop()),
  // pruning with the incumbent's value (the solver's --ub included). Where the optimum is at
  // the lower bound it finds it in seconds (ta083, ta084: docs/performance.md), which
  // neither the iterated greedy nor the branch-and-bound alone did.
  bool root_beam = false;
};

// The heuristic threads of the hybridization (2022 §4.2.3). Each thread repeatedly takes a
// start solution from the pool (or, while it is empty, the incumbent's schedule, or NEH's),
// runs the iterated greedy (run_heuristic, kIls) for seconds_per_run, or with
// subproblem_dives a beam search inside a subproblem of the board, offers the result to the
// shared Incumbent (which keeps it only if strictly better: the explorers prune with it at
// once, and a cluster worker posts it to the coordinator) and inserts it into the pool.
// stop() raises the flag the running searches poll, so it and the destructor return promptly.
class HeuristicWorkers {
 public:
  // The Incumbent, the pool and the board must outlive this object; the instance is copied.
  HeuristicWorkers(const Instance& instance, Incumbent& incumbent, SolutionPool& pool,
                   SubproblemBoard& board, const HeuristicWorkerOptions& options);
  ~HeuristicWorkers();
  HeuristicWorkers(const HeuristicWorkers&) = delete;
  HeuristicWorkers& operator=(const HeuristicWorkers&) = delete;

  // Stops and joins every thread; idempotent.
  void stop();

  int threads() const { return static_cast<int>(threads_.size()); }
  std::uint64_t runs() const { return runs_.load(); }
  // Of which subproblem dives.
  std::uint64_t dives() const { return dives_.load(); }
  // The best makespan a dive / an iterated greedy run found (kInfiniteTime: none ran yet).
  Time best_of_dives() const { return best_of_dives_.load(); }
  Time best_of_greedy() const { return best_of_greedy_.load(); }
  Time best_of_root_beam() const { return best_of_root_beam_.load(); }
  // Runs whose result the Incumbent took.
  std::uint64_t improvements() const { return improvements_.load(); }
  // The first error a thread stopped on (empty: none).
  std::string error() const;

 private:
  void thread_main(int index);
  // The root beam search (HeuristicWorkerOptions::root_beam); its improvements go to the
  // incumbent as they come.
  Schedule root_beam(const Schedule& start);
  // One run's result: a dive when this thread dives and the board has a subproblem, else the
  // iterated greedy from `start`.
  Schedule run_once(int index, std::uint64_t seed, const Schedule& start, std::mt19937_64& rng);

  const Instance instance_;
  Incumbent& incumbent_;
  SolutionPool& pool_;
  SubproblemBoard& board_;
  const HeuristicWorkerOptions options_;
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> runs_{0};
  std::atomic<std::uint64_t> dives_{0};
  std::atomic<Time> best_of_dives_{kInfiniteTime};
  std::atomic<Time> best_of_greedy_{kInfiniteTime};
  std::atomic<Time> best_of_root_beam_{kInfiniteTime};
  std::atomic<std::uint64_t> improvements_{0};
  mutable std::mutex error_mutex_;
  std::string error_;
  std::vector<std::thread> threads_;
};

// The B&B side of the hybridization, on a paused engine: promotes the current subproblems of
// up to pool.capacity() IVMs (SearchEngine::sample_subproblems), evaluates them, offers the
// best to the Incumbent, inserts them all into the pool and puts them on the board. Returns
// how many were promoted.
int promote_subproblems(SearchEngine& engine, const Instance& instance, Incumbent& incumbent,
                        SolutionPool& pool, SubproblemBoard& board);

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
  const SubproblemBoard& board() const { return board_; }
  HeuristicWorkers& workers() { return workers_; }
  std::uint64_t promotions() const { return promotions_; }
  void stop() { workers_.stop(); }

 private:
  using Clock = std::chrono::steady_clock;
  const Instance& instance_;
  Incumbent& incumbent_;
  const double promote_seconds_;
  SolutionPool pool_;
  SubproblemBoard board_;
  HeuristicWorkers workers_;
  Clock::time_point last_promotion_{};
  bool promoted_ = false;
  std::uint64_t promotions_ = 0;
};

}  // namespace permbb
