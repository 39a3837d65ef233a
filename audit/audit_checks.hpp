#pragma once
// The five checks of `permbb audit` (docs/audit.md):
//   1 schedule   the claimed schedule's makespan, recomputed, is the claim's;
//   2 partition  the cut's top-level subproblems partition the permutations, and each nested
//                one is a node of its container's branching tree (cut_partition.hpp);
//   3 pruned     every pruned subproblem's bound, recomputed, is the recorded one and not
//                below the claim's upper bound;
//   4 sample     explored subproblems drawn by audit_sample.hpp, re-explored at the upper
//                bounds recorded for them: no schedule below the claim's bound, and the
//                counts, with a fixed bound, equal to those recorded; when the bound fell
//                while the subproblem was explored, between the counts at its end bound
//                and at its start bound (pruning is monotone in the bound); the records
//                nested directly in it skipped (their counts are their own, their best
//                makespans count towards its best);
//   5 totals     the counts recorded add up to the run's (with the rebuilt tree's inner
//                nodes, which the search decomposed above the cut).
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "audit_sample.hpp"
#include "audit_search.hpp"
#include "certificate.hpp"

namespace permbb::audit {

// A figure of a check, as its JSON value: a number, or text (quoted when written).
struct Figure {
  std::string name;
  std::string value;
  bool is_text = false;
};

struct CheckOutcome {
  int number = 0;
  std::string name;
  bool passed = true;
  std::string failure;  // one line; names the subproblem (and its line) where there is one
  std::vector<Figure> figures;
};

struct AuditResult {
  std::vector<CheckOutcome> checks;  // 1..5 in order
  std::uint64_t sample_size = 0;
  std::uint64_t seed = 0;
  SampleChoice sample;
  // Check 4 passed its deadline: only the first `sample_done` subproblems of the sample were
  // all re-explored (they hold sample.draws_covered(sample_done) draws).
  bool timed_out = false;
  std::size_t sample_done = 0;

  bool holds() const;  // no check failed (check 4 may be incomplete: timed_out)
  const CheckOutcome* first_failure() const;
};

// What check 4 has done so far, for a progress line written while it runs.
struct AuditProgress {
  std::atomic<std::uint64_t> subproblems_sampled{0};  // 0 until check 4 starts
  std::atomic<std::uint64_t> subproblems_done{0};
  std::atomic<std::uint64_t> nodes{0};
};

// How long check 4 may take (checks 1, 2, 3 and 5 always complete: each is one pass over the
// certificate), and where it reports its progress (null: nowhere).
struct AuditLimits {
  Deadline deadline;
  AuditProgress* progress = nullptr;
};

// `threads`: the sample's re-explorations run side by side on that many threads (0: every
// hardware thread); without a deadline the result does not depend on it.
AuditResult audit_certificate(const Certificate& certificate, std::uint64_t sample_size,
                              std::uint64_t seed, int threads = 0,
                              const AuditLimits& limits = {});

}  // namespace permbb::audit
