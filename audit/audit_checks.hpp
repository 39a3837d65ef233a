#pragma once
// The five checks of `permbb audit` (docs/audit.md):
//   1 schedule   the claimed schedule's makespan, recomputed, is the claim's;
//   2 partition  the cut's subproblems partition the permutations (cut_partition.hpp);
//   3 pruned     every pruned subproblem's bound, recomputed, is the recorded one and not
//                below the claim's upper bound;
//   4 sample     explored subproblems drawn by audit_sample.hpp, re-explored at the upper
//                bounds recorded for them: no schedule below the claim's bound, and the
//                counts, with a fixed bound, equal to those recorded; when the bound fell
//                while the subproblem was explored, between the counts at its end bound
//                and at its start bound (pruning is monotone in the bound);
//   5 totals     the counts recorded add up to the run's (with the rebuilt tree's inner
//                nodes, which the search decomposed above the cut).
#include <cstdint>
#include <string>
#include <vector>

#include "audit_sample.hpp"
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

  bool holds() const;
  const CheckOutcome* first_failure() const;
};

// `threads`: the sample's re-explorations run side by side on that many threads (0: every
// hardware thread); the result does not depend on it.
AuditResult audit_certificate(const Certificate& certificate, std::uint64_t sample_size,
                              std::uint64_t seed, int threads = 0);

}  // namespace permbb::audit
