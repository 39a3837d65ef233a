#pragma once
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "beam_search.hpp"
#include "incumbent.hpp"
#include "instance.hpp"
#include "iterated_greedy.hpp"
#include "neh.hpp"
#include "partial_schedule.hpp"

namespace permbb {

// The heuristics one can ask for by name (`permbb heuristic --method`):
//   neh           NEH with Taillard's acceleration (neh.hpp), no search;
//   ils           Ruiz & Stützle's iterated greedy (iterated_greedy.hpp);
//   truncated-bb  the truncated best-upper-bound-first branch-and-bound (truncated_bb.hpp);
//   beam          Libralesso et al.'s iterative beam search (beam_search.hpp).
enum class HeuristicMethod { kNeh, kIls, kTruncatedBb, kBeam };

std::string to_string(HeuristicMethod method);
// Throws InputError naming the accepted values.
HeuristicMethod parse_heuristic_method(const std::string& name);
std::vector<std::string> heuristic_method_names();

// The tie rules of best_insertion by name (`--ig-ties`): leftmost, tightest, random.
std::string to_string(InsertionTies ties);
// Throws InputError naming the accepted values.
InsertionTies parse_insertion_ties(const std::string& name);
std::vector<std::string> insertion_ties_names();

// The beam search's guides by name (`--beam-guide`): bound, idle (bound and weighted idle
// time), gap.
std::string to_string(BeamGuide guide);
// Throws InputError naming the accepted values.
BeamGuide parse_beam_guide(const std::string& name);
std::vector<std::string> beam_guide_names();

// What run_heuristic is given. The searches need a limit: a time limit, an iteration limit
// or a stop flag.
struct HeuristicOptions {
  double time_limit = 0;  // seconds of wall-clock time, 0: none
  // ILS only: the time limit counts each copy's CPU time instead (deadline.hpp).
  bool cpu_time = false;
  // ILS iterations, beam passes or decomposed branch-and-bound nodes, per copy; 0: none.
  // With it (and no time limit) a single-threaded run is deterministic for a seed.
  std::uint64_t iteration_limit = 0;
  std::uint64_t seed = 0;
  // Independent copies in parallel, copy i seeded with seed + i; the best result is kept
  // (ties: the lowest i). ILS and beam only: the truncated branch-and-bound is deterministic
  // and runs once.
  int threads = 1;
  // A permutation of all the jobs to start from (ILS), to bias the row order (truncated-bb)
  // and not to be exceeded (all but neh). NEH's schedule when absent.
  std::optional<std::vector<int>> start;
  // The node whose completions the truncated branch-and-bound and the beam search explore;
  // the root by default.
  PartialSchedule node;
  const std::atomic<bool>* stop = nullptr;
  // Offered every improvement of every copy, when given (progress lines).
  Incumbent* best_so_far = nullptr;
  // ILS only: the iterations of all copies are added to it when given (the search's rate,
  // which the JSON output reports).
  std::atomic<std::uint64_t>* iterations_done = nullptr;
  // ILS only: the iterated greedy's settings (destruction, temperature, local search rules);
  // its limits, seed and best_so_far are replaced by the ones above.
  IteratedGreedyOptions iterated_greedy;
  // ILS only: how many of the copies (the last ones) run the beam search from the root with
  // the gap guide instead, pruning with the copies' common best: a portfolio, for the
  // instances whose optimum sits at the lower bound, where every iterated greedy stalls above
  // it (ta083, ta084). At most `threads`; more than one repeat the same deterministic search
  // (guide noise would spoil the gap guide: with 0.5 % it ended ta084 at 6275-6281, not 6254).
  int beam_copies = 0;
  // Beam only: how children are ranked (beam_search.hpp).
  BeamGuide beam_guide = BeamGuide::kBoundAndIdleTime;
  // Beam only: children whose LB1 reaches it are pruned (BeamSearchOptions::cutoff).
  Time beam_cutoff = kInfiniteTime;
};

// Runs `method`; returns a schedule of all the jobs with its makespan. Throws
// std::invalid_argument for an invalid start or node, or a search without any limit.
Schedule run_heuristic(const Instance& instance, HeuristicMethod method,
                       const HeuristicOptions& options);

}  // namespace permbb
