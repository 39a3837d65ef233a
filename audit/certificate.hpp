#pragma once
// A certificate as `permbb audit` reads it (docs/audit.md has the file format). Jobs are
// numbered from 0 here (the file numbers them from 1); times are wide integers, so that no
// sum the checks form can overflow.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace permbb::audit {

using Time = long long;
inline constexpr Time kNoBound = std::numeric_limits<Time>::max();  // the file's "inf"

// One subproblem of the cut: the permutations that start with `prefix` and end with
// `suffix` (both in schedule order). An explored one may lie in another explored one
// (cut_partition.hpp): its counts are then exclusive of the records nested in it.
struct Subproblem {
  std::vector<int> prefix;
  std::vector<int> suffix;
  bool pruned = false;
  Time bound = 0;              // pruned: its bound as recorded
  std::uint64_t nodes = 0;     // explored: decomposed nodes counted under it; pruned: surplus
  std::uint64_t leaves = 0;
  Time best = kNoBound;        // explored: the best makespan met there (kNoBound: none)
  Time ub_start = kNoBound;    // explored: the upper bound in force when it was entered
  Time ub_end = kNoBound;      //           and at its last decision
  int line = 0;                // in the file, for messages

  int fixed() const { return static_cast<int>(prefix.size() + suffix.size()); }
  // The job this subproblem fixes next at the front (or the back) below a node that holds it
  // with `in_prefix` and `in_suffix` jobs fixed; -1 where it fixes no more on that side.
  int next_job(bool front, std::size_t in_prefix, std::size_t in_suffix) const {
    if (front) return prefix.size() > in_prefix ? prefix[in_prefix] : -1;
    return suffix.size() > in_suffix ? suffix[suffix.size() - in_suffix - 1] : -1;
  }
};

struct Certificate {
  std::string file;
  int jobs = 0;
  int machines = 0;
  std::uint64_t fingerprint = 0;
  std::vector<std::vector<Time>> times;  // [machine][job]
  std::string bound;      // lb1, lb2, lb2-adjacent, lb1+lb2
  std::string branching;  // minmin, minmin-fwd-ties, maxsum, fwd, bwd
  bool optimal = false;   // else: no schedule below upper_bound
  Time upper_bound = kNoBound;
  std::vector<int> schedule;  // optimal only
  std::uint64_t nodes = 0;    // the run's nodes_decomposed
  std::uint64_t leaves = 0;
  int cut_depth = 0;
  std::uint64_t nodes_above_cut = 0;
  std::vector<Subproblem> subproblems;
};

}  // namespace permbb::audit
