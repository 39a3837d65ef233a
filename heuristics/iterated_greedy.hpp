#pragma once
#include <atomic>
#include <cstdint>

#include "incumbent.hpp"
#include "instance.hpp"
#include "local_search.hpp"
#include "neh.hpp"

namespace permbb {

// The settings of one iterated greedy run. With an iteration limit and no time limit the run
// is deterministic for a seed.
struct IteratedGreedyOptions {
  // Jobs removed by each destruction (Ruiz & Stützle's d; they used 4). 5 was best on ta051-
  // ta060 and no worse on ta081-ta090 at the literature's budget (docs/performance.md).
  int destruction_size = 5;
  // Ruiz & Stützle's T: the constant temperature is T * (sum of all p) / (n m 10).
  double temperature_factor = 0.4;
  // The local search's moves (local_search.hpp); its tie rule also places the jobs of the
  // construction. k_max = 1 is Ruiz & Stützle's insertion local search, 0 picks
  // floor(sqrt(n)) as in Deroussi et al. (2006). The tightest position among equal ones, and
  // sideways moves on makespan plateaus, measured best with d = 5 (docs/performance.md).
  LocalSearchRules local_search{1, InsertionTies::kTightest, true};
  // Also run the local search on the partial schedule left by the destruction, before the
  // construction (Dubois-Lacoste, Pagnozzi & Stützle 2017). Off: at the literature's budget
  // it halves the iterations and did worse on ta051-060 and ta081-090 (bench/heuristics.py).
  bool partial_local_search = false;
  // Limits: seconds (0: none), iterations (0: none), and a flag another thread may raise. At
  // least one must be set.
  double time_limit = 0;
  std::uint64_t iteration_limit = 0;
  const std::atomic<bool>* stop = nullptr;
  std::uint64_t seed = 0;
  Incumbent* best_so_far = nullptr;  // offered each improvement, when given
};

struct IteratedGreedyResult {
  Schedule best;
  std::uint64_t iterations = 0;
};

// The iterated greedy of Ruiz & Stützle (2007) from `start` (a permutation of all the jobs;
// its makespan is recomputed): the start is first improved by the local search; then each
// iteration removes destruction_size random jobs, re-inserts them one by one at their best
// positions (best_insertion, Taillard's acceleration), improves the result by the local search
// and accepts it if it is not worse than the current schedule, or else with probability
// exp(-(difference) / temperature). The best schedule seen is returned, never worse than the
// start. Random choices come from std::mt19937_64(seed). Throws std::invalid_argument for a
// start that is not a permutation of the jobs or when no limit is set.
IteratedGreedyResult iterated_greedy(const Instance& instance, const Schedule& start,
                                     const IteratedGreedyOptions& options);

}  // namespace permbb
