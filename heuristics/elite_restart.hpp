#pragma once
// When an iterated greedy run restarts, and from which schedule: a small elite of the best
// distinct schedules the run has accepted, and a count of the iterations since the run's best
// last improved. Independent seeds of the iterated greedy were measured to stall on the same
// makespan (ta084, ta086, ta060 of Taillard): the acceptance at a low constant temperature
// rarely leaves the basin, so after a long stall the run is moved, not waited on.
//
// The restart criterion is the "Restart" acceptance criterion of iterated local search
// (Lourenço, Martin & Stützle 2003, "Iterated Local Search", Handbook of Metaheuristics,
// section "Acceptance criterion": restart when no improvement of the best was found for a
// number of iterations); restarting from an elite member instead of a random schedule is the
// elite set of path relinking and GRASP (Glover, Laguna & Martí 2000, "Fundamentals of scatter
// search and path relinking", Control and Cybernetics 29(3): the reference set of the best
// distinct solutions, from which the search starts again). The iterated greedy
// (iterated_greedy.cpp) applies the kick: a larger destruction of the member, or the path
// from the current schedule toward it (path_relinking.hpp).
#include <cstdint>

#include "insertion.hpp"
#include "solution_pool.hpp"

namespace permbb {

class EliteRestart {
 public:
  // stall_limit: iterations in a row without a new best of the run before a restart (0:
  // never); elite_size: distinct schedules kept (at least 1).
  EliteRestart(std::uint64_t stall_limit, int elite_size);

  bool enabled() const { return stall_limit_ > 0; }

  // Called after each iteration with the current schedule (kept in the elite when it is among
  // the best distinct ones) and whether it is a new best of the run. True when the run should
  // restart now; the stall count then starts again.
  bool after_iteration(const Schedule& current, bool new_best);

  // The schedule to restart from: the elite members in turn, best first, so that successive
  // restarts spread over the elite rather than kicking the best one again and again.
  Schedule restart_point();

 private:
  std::uint64_t stall_limit_;
  std::uint64_t stalled_ = 0;
  SolutionPool elite_;  // the best distinct schedules, taken round robin
};

}  // namespace permbb
