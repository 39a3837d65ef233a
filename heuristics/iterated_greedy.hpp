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
  // Jobs removed by each destruction (Ruiz & Stützle's d; they used 4). 2, with the local
  // search on the partial schedule below, as Dubois-Lacoste et al. (2017) pair them
  // (measured: docs/performance.md, "Heuristics at the literature's budget").
  int destruction_size = 2;
  // Ruiz & Stützle's T: the constant temperature is T * (sum of all p) / (n m 10).
  double temperature_factor = 0.4;
  // The local search's moves (local_search.hpp); its tie rule also places the jobs of the
  // construction. k_max = 1 is Ruiz & Stützle's insertion local search, 0 picks
  // floor(sqrt(n)) as in Deroussi et al. (2006). The tightest position among equal ones and
  // sideways moves on makespan plateaus by default (docs/performance.md).
  LocalSearchRules local_search{1, InsertionTies::kTightest, true};
  // Also run the local search on the partial schedule left by the destruction, before the
  // construction (Dubois-Lacoste, Pagnozzi & Stützle 2017).
  bool partial_local_search = true;
  // Among schedules of equal makespan, prefer the one whose machines finish earlier in sum:
  // an equal-makespan trial is then worse by the mean increase of the machines' finishing
  // times, and accepted with the same exp(-worse / T). Off: every equal makespan is accepted
  // (Ruiz & Stützle), a blind walk on the plateaus where long runs were seen to stall.
  bool prefer_slack = true;
  // Restarts from an elite (elite_restart.hpp; off with restart_after = 0): after
  // restart_after iterations in a row without a new best of the run, the current schedule is
  // replaced by one of the restart_elite best distinct schedules accepted so far (in turn,
  // best first), destroyed by restart_destruction random jobs and rebuilt like an iteration's
  // trial (partial local search, construction, local search), and accepted whatever its
  // makespan. For the stalls of independent seeds on the same makespan (ta084, ta060).
  std::uint64_t restart_after = 0;
  int restart_destruction = 8;
  int restart_elite = 4;
  // At a restart, walk from the current schedule toward the elite one instead (path
  // relinking, path_relinking.hpp) and go on from the best intermediate schedule after the
  // local search; the destruction above is still used when the two are too close for a path.
  bool restart_relink = false;
  // Cooperation between copies (run_heuristic with several threads): after adopt_after
  // iterations in a row without a new best of this run, when `shared` holds a schedule
  // shorter than the run's best, the run goes on from that schedule (a periodic re-seeding
  // from the copies' common best; 0: never). `shared` is where every copy offers its
  // improvements (best_so_far); a bound in it without a schedule is not adopted.
  std::uint64_t adopt_after = 0;
  const Incumbent* shared = nullptr;
  // Limits: seconds (0: none), iterations (0: none), and a flag another thread may raise. At
  // least one must be set.
  double time_limit = 0;
  // The time limit counts the CPU time of the thread running the search instead of the wall
  // clock (deadline.hpp).
  bool cpu_time = false;
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
// exp(-(difference) / temperature); after restart_after iterations without a new best it
// restarts from a kicked elite schedule. The best schedule seen is returned, never worse than
// the start. Random choices come from std::mt19937_64(seed). Throws std::invalid_argument for a
// start that is not a permutation of the jobs or when no limit is set.
IteratedGreedyResult iterated_greedy(const Instance& instance, const Schedule& start,
                                     const IteratedGreedyOptions& options);

}  // namespace permbb
