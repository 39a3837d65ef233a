#pragma once
// The sequential IVM explorer over the whole space [0, n!) or one interval, as the reference
// the parallel engines (multi-core, GPU, emulated GPU) are compared with: its node counts and
// best value.
#include <vector>

#include "flowshop_tables.hpp"
#include "ivm_explorer.hpp"
#include "johnson_tables.hpp"

namespace permbb::testing {

struct SequentialResult {
  NodeCounters nodes;
  Time best = kInfiniteTime;
  std::vector<int> schedule;  // one achieving `best`; empty when none beat the upper bound
};

// The search of [begin, end), both given as n factoradic digits.
inline SequentialResult sequential_search(const Instance& inst, const SearchSettings& settings,
                                          Time upper_bound, const std::vector<int>& begin,
                                          const std::vector<int>& end) {
  const FlowshopTables tables(inst);
  const JohnsonTables johnson(inst, machine_pairs_for(settings.bound));
  Incumbent incumbent(upper_bound);
  IvmExplorer explorer(tables, &johnson, settings, incumbent);
  explorer.start(begin.data(), end.data());
  while (explorer.step()) {
  }
  return {explorer.counters(), incumbent.value(), incumbent.permutation()};
}

// The search of the whole space [0, n!).
inline SequentialResult sequential_search(const Instance& inst, const SearchSettings& settings,
                                          Time upper_bound) {
  const int n = inst.jobs();
  std::vector<int> end(n, 0);
  end[0] = n;  // n! (factoradic.hpp's end-of-space form; no 64-bit overflow for large n)
  return sequential_search(inst, settings, upper_bound, std::vector<int>(n, 0), end);
}

}  // namespace permbb::testing
