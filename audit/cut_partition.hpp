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
//
// Nested explored subproblems (docs/audit.md): a record B is nested in a record A when A's
// subproblem contains B's (A's prefix begins B's, A's suffix ends B's, B fixes more jobs); its
// container is the deepest such record. Nothing else in the file marks it. Only explored
// records contain others and only explored ones are nested; an explored record's counts
// exclude the subtrees of the records nested directly in it (so the totals add up as
// before), its best makespan and its upper bounds' range are its whole subtree's.
//  - Found (find_nesting): a record with prefix p and suffix s can only lie in a record with
//    prefix p[0..i) and suffix s[j..), so each of those (deepest first) is looked up in a
//    hash table of the records: O(depth^2) lookups a record, in any order of the records.
//    A duplicate, a record inside a pruned one and a pruned one inside another are named.
//  - Placed: counted and rebuilt above are the top-level records (no container). A nested
//    record must be a node of its container's branching tree: from the container's node
//    down, at every node the rule picks the side (where only one side would fit too: the
//    search branches as its rule says) and the record fixes its next job there.
// A container's re-exploration skips the records nested directly in it (audit_search.hpp).
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "audit_bounds.hpp"
#include "certificate.hpp"

namespace permbb::audit {

struct Nesting {
  static constexpr std::size_t kTopLevel = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> container;            // by record: its container, or kTopLevel
  std::vector<std::vector<std::size_t>> nested;  // by record: the explored records directly in
                                                 // it, where it is explored itself
  std::uint64_t nested_count = 0;                // records with a container
  // The first record (in the file's order) that repeats another, lies in a pruned one or is
  // pruned and lies in another; empty when none does.
  std::string failure;
  int failure_line = 0;
};

Nesting find_nesting(const Certificate& certificate);

// "prefix 3 1 | suffix 2" (jobs numbered from 1) and "subproblem at line 12 (prefix 3 1 |
// suffix 2)", for messages.
std::string node_text(const std::vector<int>& prefix, const std::vector<int>& suffix);
std::string subproblem_text(const Subproblem& s);

struct PartitionCheck {
  bool counted = false;         // the permutations add up to n!
  std::string count_figure;     // "n!", "more than n!", "less than n!"
  bool rebuilt = false;         // the tree was rebuilt
  std::uint64_t inner_nodes = 0;  // the tree's nodes above the subproblems, the root aside
  std::uint64_t nested = 0;       // records nested in others
  std::string failure;          // empty when both hold
  int failure_line = 0;
};

PartitionCheck check_partition(const Certificate& certificate, const TextbookBounds& bounds,
                               const Nesting& nesting);

}  // namespace permbb::audit
