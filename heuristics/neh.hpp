#pragma once
#include <functional>
#include <vector>

#include "flowshop_types.hpp"
#include "insertion.hpp"
#include "instance.hpp"

namespace permbb {

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
