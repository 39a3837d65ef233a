#pragma once
// The certificate of a completed search (`permbb solve --certificate FILE`), as the text file
// that `permbb audit` checks (audit/, docs/audit.md has the format): the instance's times,
// the claim, the bound and branching rule, the run's node totals and the cut of the tree.
#include <string>
#include <vector>

#include "instance.hpp"
#include "node_counters.hpp"
#include "search_cut.hpp"
#include "search_settings.hpp"

namespace permbb::solve {

struct CertificateContent {
  const Instance* instance = nullptr;
  SearchSettings settings;
  // optimal: `schedule` has makespan `upper_bound` and none is shorter; otherwise no
  // schedule has a makespan below `upper_bound`.
  bool optimal = false;
  Time upper_bound = kInfiniteTime;
  std::vector<int> schedule;
  NodeCounters run;  // the run's nodes_decomposed and leaves
  CutPartition cut;
};

// Writes FILE.tmp and renames it over FILE, so that FILE is whole or absent. Throws
// InputError naming the file when it cannot be written.
void write_certificate(const std::string& path, const CertificateContent& content);

}  // namespace permbb::solve
