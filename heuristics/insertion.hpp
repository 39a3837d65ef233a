#pragma once
// Taillard's acceleration (1990) of insertion: the best position for a job in a partial
// schedule, all positions at once, and the heads and tails it is built on. Used by NEH, the
// iterated greedy's construction and its local search.
#include <cstdint>
#include <vector>

#include "flowshop_types.hpp"
#include "instance.hpp"
#include "schedule.hpp"

namespace permbb {

// Where a job goes in a partial schedule: it is inserted before partial[position]
// (position == partial.size() appends it), giving this makespan.
struct Insertion {
  int position = 0;
  Time makespan = 0;
};

// Scratch buffers for best_insertion: heads and tails of the partial schedule, each
// machines x (partial.size() + 1), position-minor (one row per machine, so the evaluation
// of all positions runs down contiguous rows and vectorizes), and per-position running
// values. Create one per caller and reuse it: it grows to the largest partial schedule seen
// and then never allocates again.
struct InsertionWorkspace {
  std::uint64_t tie_state = 0x9e3779b97f4a7c15ULL;  // draws of InsertionTies::kRandom
  std::vector<Time> heads;
  std::vector<Time> tails;
  std::vector<Time> front;  // per position: completion of the inserted job so far
  std::vector<Time> spans;  // per position: the makespan so far
  std::vector<std::int64_t> fit;  // per position: InsertionTies::kTightest's measure (sum of m spans)

  InsertionWorkspace() = default;
  // Sized up front for partial schedules of up to instance.jobs() - 1 jobs.
  explicit InsertionWorkspace(const Instance& instance);
};

// Taillard's heads and tails of `sequence` (k jobs) into workspace.heads / workspace.tails,
// machines x (k + 1) each: the value of machine j and position i at [j * (k + 1) + i]
// (neh.cpp says what they are). Grows the buffers when needed. Shared by best_insertion and
// the local search's best_removal.
void fill_heads_and_tails(const Instance& instance, const std::vector<int>& sequence,
                          InsertionWorkspace& workspace);

// Which of several positions giving the same least makespan best_insertion picks:
//   kLeftmost  the first (Ruiz & Stützle 2007, and NEH as published);
//   kTightest  the one that leaves the least slack around the job: least sum over machines j
//              of (completion of the job on j) + (the tail of the jobs after it, from their
//              start on j), which is f + q in neh.cpp. Tie-breaking matters because makespan
//              plateaus are wide (Fernandez-Viagas & Framinan 2014, "On insertion
//              tie-breaking rules in heuristics for the PFSP"); this measure is ours, chosen
//              because it costs one add per cell of the vectorized loop; among equal sums, the
//              leftmost;
//   kRandom    one of them uniformly (workspace.tie_state), a walk on the plateau.
enum class InsertionTies { kLeftmost, kTightest, kRandom };

// The best position for `job` in `partial` (which must not contain it), for all
// partial.size() + 1 positions at once in O(k m) with Taillard's acceleration (1990).
Insertion best_insertion(const Instance& instance, const std::vector<int>& partial, int job,
                         InsertionWorkspace& workspace,
                         InsertionTies ties = InsertionTies::kLeftmost);

// What best_insertion returns for the job at `position` of `sequence` in the sequence without
// it (the position counted in that shorter sequence), given `whole`: the heads and tails of
// `sequence` itself (fill_heads_and_tails). The heads before the job and the tails after it
// are those of `whole`, so only the others are computed: about half of best_insertion's
// table work, for the local search's moves of one job (Taillard 1990 applied to removal).
Insertion best_reinsertion(const Instance& instance, const std::vector<int>& sequence,
                           int position, const InsertionWorkspace& whole,
                           InsertionWorkspace& workspace,
                           InsertionTies ties = InsertionTies::kLeftmost);

// The heads and tails of `sequence` into `whole`, as fill_heads_and_tails leaves them, when
// `sequence` is the schedule of `without` (best_reinsertion's or best_insertion's tables, one
// job fewer) with a job inserted at `position`: the heads up to it and the tails after it are
// those of `without`, so only the others are computed, about half of fill_heads_and_tails.
void fill_heads_and_tails_after_insertion(const Instance& instance,
                                          const std::vector<int>& sequence, int position,
                                          const InsertionWorkspace& without,
                                          InsertionWorkspace& whole);

}  // namespace permbb
