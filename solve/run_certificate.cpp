#include "run_certificate.hpp"

#include <stdexcept>

#include <spdlog/spdlog.h>

#include "certificate_file.hpp"

namespace permbb::solve {

// The run's counts in a certificate are the chain's: every link's (nothing is counted twice:
// the nodes replayed at a restart are not counted, docs/architecture.md).
void write_run_certificate(const SolveOptions& options, const Instance& instance,
                           const SearchSettings& settings, bool complete,
                           const SearchState& last, const CheckpointStatistics& chain) {
  const std::string& path = options.certificate_path;
  if (path.empty()) return;
  if (!complete) {
    spdlog::warn("--certificate {}: not written: the search did not complete (its checkpoint "
                 "keeps the records for a --restart)",
                 path);
    return;
  }
  const std::optional<SearchCut> cut = search_cut_of(last.cut);
  if (!cut) throw std::logic_error("--certificate " + path + ": the run kept no cut records");
  CertificateContent content;
  content.instance = &instance;
  content.settings = settings;
  content.optimal = !last.best.permutation.empty();
  content.upper_bound = last.best.makespan;  // the bound given by --ub when nothing beat it
  content.schedule = last.best.permutation;
  content.run = {chain.nodes_decomposed, chain.leaves};
  content.cut = cut->partition(options.certificate_merge, options.certificate_split);
  write_certificate(path, content);
  spdlog::info("certificate: {} ({} subproblems at depth {})", path,
               content.cut.subproblems.size(), content.cut.depth);
}

}  // namespace permbb::solve
