#pragma once
#include <functional>
#include <vector>

#include "flowshop_types.hpp"
#include "instance.hpp"

namespace permbb {

// A complete or partial schedule: jobs (0-based) in processing order, and its makespan.
struct Schedule {
  std::vector<int> permutation;
  Time makespan = 0;
};

// Where a job goes in a partial schedule: it is inserted before partial[position]
// (position == partial.size() appends it), giving this makespan.
struct Insertion {
  int position = 0;
  Time makespan = 0;
};

// Scratch buffers for best_insertion: heads and tails of the partial schedule, each
// (partial.size() + 1) x machines, machine-minor. Create one per caller and reuse it: it
// grows to the largest partial schedule seen and then never allocates again.
struct InsertionWorkspace {
  std::vector<Time> heads;
  std::vector<Time> tails;

  InsertionWorkspace() = default;
  // Sized up front for partial schedules of up to instance.jobs() - 1 jobs.
  explicit InsertionWorkspace(const Instance& instance);
};

// Taillard's heads and tails of `sequence` (k jobs) into workspace.heads / workspace.tails,
// (k + 1) x machines each, machine-minor (neh.cpp says what they are). Grows the buffers
// when needed. Shared by best_insertion and the local search's best_removal.
void fill_heads_and_tails(const Instance& instance, const std::vector<int>& sequence,
                          InsertionWorkspace& workspace);

// The best position for `job` in `partial` (which must not contain it), for all
// partial.size() + 1 positions at once in O(k m) with Taillard's acceleration (1990).
// Ties: the first (leftmost) best position.
Insertion best_insertion(const Instance& instance, const std::vector<int>& partial, int job,
                         InsertionWorkspace& workspace);

// NEH's job order: non-increasing total processing time; equal totals by increasing job
// index, so the result is deterministic.
std::vector<int> neh_order(const Instance& instance);

// Asked between two steps of a long computation: true stops it early (a time limit, a
// signal). An empty one never stops.
using StopCheck = std::function<bool()>;

// Builds a schedule by inserting the jobs of `order`, one after the other, each at its
// best position (best_insertion, leftmost on ties) in the schedule of those before it.
// O(n^2 m) for n = order.size(): minutes for thousands of jobs, so `stop` is asked before
// each insertion; when it says stop, the jobs not yet inserted are appended in `order`'s
// order, so the result is still a complete schedule (with its true makespan).
Schedule insert_all(const Instance& instance, const std::vector<int>& order,
                    const StopCheck& stop = {});

// NEH (Nawaz, Enscore and Ham, 1983) with Taillard's acceleration: insert_all(neh_order).
Schedule neh(const Instance& instance, const StopCheck& stop = {});

}  // namespace permbb
