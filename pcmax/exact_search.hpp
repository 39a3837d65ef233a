#pragma once
// The exact mode: proves the optimal makespan by a search over the target C between the best
// lower bound and the best schedule's makespan (Dell'Amico, Iori, Martello & Monaci 2008 search
// the same way over bin packing): the lower end first, twice (an ascent: the optimum is
// usually the bound or one above), then bisection. Each target is decided by Martello & Toth's bin-packing
// bound at C (more than m bins: infeasible at once) and otherwise by the exact packing test
// (machine_packing.hpp), after a quick packing that fills each machine as full as it can
// (fullest_bins.hpp). A target whose search uses up its node budget is set aside for the
// nearest untried targets; the budget (2^23 nodes) grows fourfold once three targets have used it up.
// A feasible target gives a schedule of makespan <= C, the new upper
// end; an infeasible one raises the lower end to C + 1. The search ends proven when the ends
// meet; a stop (time limit) or the node limit of a target leaves it incomplete, with
// [lower, upper] bounding OPT.
#include <cstdint>
#include <string>
#include <vector>

#include "pcmax_instance.hpp"
#include "run_control.hpp"
#include "schedule_builder.hpp"

namespace permbb::pcmax {

struct ExactTarget {
  Duration target = 0;
  std::string answer;  // "feasible", "infeasible (bin-packing bound)", "infeasible", "stopped"
  std::uint64_t nodes = 0;
  double seconds = 0;
};

struct ExactResult {
  bool proven = false;  // lower == upper: the schedule is optimal
  Duration lower = 0;   // <= OPT
  Duration upper = 0;   // the schedule's makespan, >= OPT
  PcmaxSchedule schedule;
  std::vector<ExactTarget> targets;  // in the order decided
  std::uint64_t nodes = 0;
  std::string stopped_because;  // when not proven: why
};

struct ExactLimits {
  const RunControl* control = nullptr;
  std::uint64_t max_nodes_per_target = 0;  // 0: none
  int max_jobs = 100'000;                  // more: not searched (the depth-first search recurses)
};

// `lower` must be a lower bound on OPT and `start` a valid schedule of the instance.
ExactResult prove_optimum(const PcmaxInstance& instance, Duration lower, const PcmaxSchedule& start,
                          const ExactLimits& limits = {});

}  // namespace permbb::pcmax
