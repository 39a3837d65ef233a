#pragma once
// Path relinking between two schedules of the same jobs (Glover, Laguna & Martí 2000,
// "Fundamentals of scatter search and path relinking", Control and Cybernetics 29(3); applied
// to the permutation flowshop by Reeves & Yamada 1998, "Genetic algorithms, path relinking,
// and the flowshop sequencing problem", Evolutionary Computation 6(1)): a walk by single
// moves from one schedule to the other, whose intermediate schedules share structure with
// both and are often good where neither end's neighbourhood leads. The iterated greedy uses
// it at a restart (elite_restart.hpp): from the stalled current schedule toward an elite one.
#include <optional>
#include <vector>

#include "insertion.hpp"
#include "instance.hpp"

namespace permbb {

// The insertion walk from `from` to `guide` (the same jobs): step i moves the job guide[i]
// to position i of the walking schedule, skipped where it is already there, so that after
// the step the first i + 1 jobs agree with the guide. Returns the shortest intermediate
// schedule (ties: the earliest) among those at least a quarter of the walk's moves from
// either end, so that it is neither end again; nothing when the walk has fewer than 4 moves.
// O(n) makespan evaluations, O(n^2 m) in all.
std::optional<Schedule> relink(const Instance& instance, const std::vector<int>& from,
                               const std::vector<int>& guide);

}  // namespace permbb
