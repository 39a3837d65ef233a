#pragma once
// What the certificate tests share: the certificate of a finished search written as
// `permbb solve --certificate` writes it, and the definition of one subproblem holding
// another (nested explored subproblems, docs/audit.md), written out for the tests.
#include <algorithm>
#include <string>
#include <vector>

#include "certificate.hpp"
#include "certificate_file.hpp"
#include "search_cut.hpp"

namespace permbb::testing {

// Writes to `path` the certificate of a search that ended with `schedule` (empty: nothing
// beat `upper_bound`), counted `run` and recorded `cut` (merged up to `merge_up_to`).
inline void write_search_certificate(const std::string& path, const Instance& instance,
                                     const SearchSettings& settings,
                                     const std::vector<int>& schedule, Time upper_bound,
                                     const NodeCounters& run, const SearchCut& cut,
                                     std::uint64_t merge_up_to = 0) {
  solve::CertificateContent content;
  content.instance = &instance;
  content.settings = settings;
  content.optimal = !schedule.empty();
  content.upper_bound = upper_bound;
  content.schedule = schedule;
  content.run = run;
  content.cut = cut.partition(merge_up_to);
  solve::write_certificate(path, content);
}

// Whether `outer`'s subproblem holds `inner`'s and fixes fewer jobs: its prefix starts
// `inner`'s and its suffix ends `inner`'s.
inline bool holds(const audit::Subproblem& outer, const audit::Subproblem& inner) {
  return outer.fixed() < inner.fixed() && outer.prefix.size() <= inner.prefix.size() &&
         outer.suffix.size() <= inner.suffix.size() &&
         std::equal(outer.prefix.begin(), outer.prefix.end(), inner.prefix.begin()) &&
         std::equal(outer.suffix.rbegin(), outer.suffix.rend(), inner.suffix.rbegin());
}

// The number of subproblems of `c` that lie inside another one (nested explored ones).
inline int nested_records(const audit::Certificate& c) {
  return static_cast<int>(std::count_if(
      c.subproblems.begin(), c.subproblems.end(), [&](const audit::Subproblem& inner) {
        return std::any_of(c.subproblems.begin(), c.subproblems.end(),
                           [&](const audit::Subproblem& outer) { return holds(outer, inner); });
      }));
}

}  // namespace permbb::testing
