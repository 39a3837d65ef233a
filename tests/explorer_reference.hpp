#pragma once
// The sequential IVM explorer over the whole space [0, n!), as the reference the parallel
// engines (multi-core, GPU, emulated GPU) are compared with: its node counts and best value.
#include <vector>

#include "flowshop_tables.hpp"
#include "ivm_explorer.hpp"
#include "johnson_tables.hpp"

namespace permbb::testing {

struct SequentialResult {
  NodeCounters nodes;
  Time best = kInfiniteTime;
};

inline SequentialResult sequential_search(const Instance& inst, const SearchSettings& settings,
                                          Time upper_bound) {
  const FlowshopTables tables(inst);
  const JohnsonTables johnson(inst, machine_pairs_for(settings.bound));
  Incumbent incumbent(upper_bound);
  IvmExplorer explorer(tables, &johnson, settings, incumbent);
  const int n = inst.jobs();
  const std::vector<int> begin(n, 0);
  std::vector<int> end(n, 0);
  end[0] = n;  // n! (factoradic.hpp's end-of-space form; no 64-bit overflow for large n)
  explorer.start(begin.data(), end.data());
  while (explorer.step()) {
  }
  return {explorer.counters(), incumbent.value()};
}

}  // namespace permbb::testing
