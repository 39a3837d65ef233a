#pragma once
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "interval.hpp"
#include "ivm_explorer.hpp"
#include "promoted_subproblem.hpp"
#include "search_cut.hpp"

namespace permbb {

// What an engine reports besides node counts.
struct EngineStats {
  NodeCounters nodes;
  std::uint64_t steals = 0;  // local load-balancing operations so far
  int explorers = 0;         // IVMs (threads, or GPU IVMs)
  int active_explorers = 0;  // of which had work at the last look
};

// The interface every explorer of intervals implements: the multi-core engine (worker/),
// the GPU explorer (gpu/) and, through them, cluster workers. One controlling thread drives
// it; only request_stop() may be called from other threads. Upper bounds travel through the
// Incumbent the engine was built with: lowering it (from a heuristic, another rank) is how a
// better bound is injected, and the engine offers its own improvements there.
//
// Contract (the cluster and checkpoint code rely on it):
//  - set_work() replaces all work by `intervals` (each [begin, end) within [0, n!)).
//  - explore() explores until the work is exhausted (returns true), or `budget` has elapsed or
//    request_stop() was called (returns false, explorers paused).
//  - between explore() calls the engine is paused, and remaining() is the exact set of
//    intervals not yet explored: restarting from it (in this or another engine) decomposes no
//    node twice and skips none, so node counts at a fixed upper bound add up exactly.
class SearchEngine {
 public:
  virtual ~SearchEngine() = default;

  virtual std::string name() const = 0;
  virtual void set_work(const std::vector<Interval>& intervals) = 0;
  virtual bool explore(std::chrono::duration<double> budget) = 0;
  virtual std::vector<Interval> remaining() = 0;
  virtual void request_stop() = 0;
  virtual EngineStats stats() const = 0;

  // A node limit: explore() pauses by itself soon after stats() counts `total` decomposed
  // nodes (0: no cap), so that a limit is met closely. An engine that ignores it (the GPU's)
  // passes the limit by up to one explore() budget.
  virtual void cap_nodes(std::uint64_t total) { (void)total; }

  // Hybridization (2022 §4.2.3): the current subproblems of up to `count` IVMs that have
  // work, spread over the IVMs, each promoted to a complete schedule by fixing its unscheduled
  // jobs in matrix-row order (IvmExplorer::current_subproblem(): prefix, unscheduled, suffix,
  // with the prefix and suffix lengths). Called only while the engine is paused (between
  // explore() calls); explores nothing. May return fewer (none when no IVM has work).
  virtual std::vector<PromotedSubproblem> sample_subproblems(int count) = 0;

  // Certificates (docs/audit.md): adds the cut records of every explorer so far to `into`
  // and returns true, for an engine built to record them; false for one that does not
  // (which records nothing). Called while paused.
  virtual bool collect_cut(SearchCut& into) {
    (void)into;
    return false;
  }
};

}  // namespace permbb
