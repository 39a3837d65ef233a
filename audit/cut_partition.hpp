#pragma once
// Check 2 of the audit: the cut's subproblems partition the n! permutations, exactly.
//
//  - Counted: a subproblem with f free jobs holds f! permutations, and the counts must add
//    up to n!. With c_f subproblems of f free jobs, sum c_f f! is carried in the factorial
//    number system (c_f = q (f+1) + r: q more of (f+1)!, r of f! left): it equals n! when
//    every r is 0 and one n! remains. No big integers, nothing rounded.
//  - Rebuilt: the subproblems must be the leaves of a branching tree. From the root down,
//    a node's subproblems all fix more jobs on one side (the other side's may not be
//    longer); grouped by the next job on that side, each free job's child must be covered
//    in turn. Where both sides would do, the branching rule decides (as in the search).
//    A hole (a child without subproblems), two subproblems on one node, or one inside
//    another's subtree is named with its line.
// Counting alone would accept a hole made up by an overlap; the rebuild alone would accept
// nothing less, but the count is the figure a reader checks by hand.
#include <cstdint>
#include <string>

#include "audit_bounds.hpp"
#include "certificate.hpp"

namespace permbb::audit {

struct PartitionCheck {
  bool counted = false;         // the permutations add up to n!
  std::string count_figure;     // "n!", "more than n!", "less than n!"
  bool rebuilt = false;         // the tree was rebuilt
  std::uint64_t inner_nodes = 0;  // the tree's nodes above the subproblems, the root aside
  std::string failure;          // empty when both hold
  int failure_line = 0;
};

PartitionCheck check_partition(const Certificate& certificate, const TextbookBounds& bounds);

}  // namespace permbb::audit
