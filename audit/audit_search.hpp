#pragma once
// A plain recursive depth-first branch-and-bound of one subproblem at a fixed upper bound:
// what the audit re-explores. Every node of the subproblem's subtree whose bound is below the
// upper bound (the subproblem itself always) is decomposed: its children are those of the
// side the branching rule picks; a node with one free job is a leaf parent, whose one
// complete schedule is a leaf. Counted as the solver counts: decomposed nodes with at least
// one job fixed, and leaves.
//
// The records nested directly in the subproblem (cut_partition.hpp) are explored and counted on
// their own: the search neither counts nor descends a node that is one of them. Only the
// nodes on the way to one are looked up (each node keeps the skipped records inside it).
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "audit_bounds.hpp"

namespace permbb::audit {

struct Exploration {
  std::uint64_t nodes = 0;
  std::uint64_t leaves = 0;
  Time best = kNoBound;             // the best makespan among the leaves
  std::vector<int> first_below;     // the first leaf found below `target`, if any
  bool stopped = false;             // the exploration reached its `enough` counts
  bool timed_out = false;           // it passed its deadline: the counts are partial
};

// Counts at which an exploration may stop: once it has at least `nodes` and `leaves`, a
// check that only needs "at least so many" is settled. Zero: explore everything.
struct Enough {
  std::uint64_t nodes = 0;
  std::uint64_t leaves = 0;
};

// When an exploration gives up (`permbb audit --time-limit`): looked at every
// kDeadlineInterval decompositions. None: never.
using Deadline = std::optional<std::chrono::steady_clock::time_point>;
inline constexpr std::uint64_t kDeadlineInterval = std::uint64_t{1} << 16;

inline bool deadline_passed(const Deadline& deadline) {
  return deadline && std::chrono::steady_clock::now() >= *deadline;
}

// Subproblems inside the one explored, each fixing more jobs, that it skips.
using Skipped = std::vector<const Subproblem*>;

Exploration explore_subproblem(const TextbookBounds& bounds, const std::string& rule,
                               const std::vector<int>& prefix, const std::vector<int>& suffix,
                               Time upper_bound, Time target, Enough enough = {},
                               const Deadline& deadline = {}, const Skipped& skipped = {});

}  // namespace permbb::audit
