#pragma once
// Insertion local search for the PFSP: Ruiz & Stützle's iterative improvement (2007, Fig. 3),
// generalised to the k-insert moves of Deroussi, Gourgand & Norre (2006), which chain up to
// k insertions and are kept only when the chain as a whole shortens the schedule.
#include <random>
#include <vector>

#include "deadline.hpp"
#include "neh.hpp"

namespace permbb {

// Scratch buffers for the local search, one per thread: best_insertion's workspace, heads
// and tails of the whole schedule for best_removal, and the state of a chain. Sized for the
// instance up front, so a search allocates nothing.
struct LocalSearchWorkspace {
  InsertionWorkspace insertion;
  InsertionWorkspace removal;  // heads and tails of the whole schedule, for best_removal
  // Heads and tails of the schedule `whole_of`, for best_reinsertion: a move that does not
  // pay leaves the schedule as it was, so the next move reuses them.
  InsertionWorkspace whole;
  std::vector<int> whole_of;
  std::vector<int> order;   // the jobs in the order a pass visits them
  std::vector<char> moved;  // per job: already moved by the current chain
  std::vector<int> backup;  // the schedule before the current chain

  explicit LocalSearchWorkspace(const Instance& instance);
};

// How the moves of the local search are made.
struct LocalSearchRules {
  // Longest chain of a k-insert move; 1 is the plain insertion move.
  int k_max = 1;
  // Which of equally good positions a re-inserted job takes (neh.hpp).
  InsertionTies ties = InsertionTies::kLeftmost;
  // With k_max = 1: a job whose best position gives the same makespan moves there too (a
  // sideways step on the plateau; only strict improvements start another pass, so the
  // search still ends). Off: the job stays, as in Ruiz & Stützle.
  bool sideways = false;
  // Most passes of insertion_local_search; 0: until a pass does not improve (Ruiz &
  // Stützle). A bound trades the local optimum for more iterations of the iterated greedy.
  int max_passes = 0;
};

// Where the job whose removal leaves the shortest schedule sits: position -1 when every job
// is skipped.
struct Removal {
  int position = -1;
  Time makespan = 0;
};

// The best job to take out of `permutation` (all or some of the jobs), skipping the jobs
// marked in `skip` (indexed by job). Removing position i leaves heads(first i jobs) joined to
// tails(jobs after i): makespan max_k e[i][k] + q[i+1][k], so all positions cost O(n m).
// Ties: the leftmost position.
Removal best_removal(const Instance& instance, const std::vector<int>& permutation,
                     const std::vector<char>& skip, LocalSearchWorkspace& workspace);

// One k-insert move (Deroussi et al. 2006) from the job at `position` of `schedule`, whose
// makespan must be current (rules.k_max is k, rules.ties picks among equal positions): take the job out and insert it at its best position
// (best_insertion); if that does not shorten the schedule and fewer than k_max insertions were
// made, take out the best job to remove (best_removal) among those not yet moved by this chain
// and insert it at its best position, and so on. The chain is kept, and true returned, as
// soon as the makespan is strictly below the starting one; otherwise the schedule is restored.
// k_max = 1 is the plain insertion move of Ruiz & Stützle; with rules.sideways it also
// moves the job to an equally good position (the schedule changes, false is returned).
bool k_insert_move(const Instance& instance, Schedule& schedule, int position,
                   const LocalSearchRules& rules, LocalSearchWorkspace& workspace);

// Iterative improvement with k-insert moves, Ruiz & Stützle 2007 (Fig. 3): passes over the
// jobs in a random order (drawn from `rng`), trying a move from each; repeats while a pass
// improves, at most rules.max_passes times when that is not 0. `schedule` may hold any subset of the jobs (the partial schedules of the iterated
// greedy), with its makespan current. Stops early when the deadline expires (checked once per
// move). Returns whether the makespan decreased.
bool insertion_local_search(const Instance& instance, Schedule& schedule,
                            const LocalSearchRules& rules,
                            std::mt19937_64& rng, LocalSearchWorkspace& workspace,
                            const Deadline& deadline);

}  // namespace permbb
