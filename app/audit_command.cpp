#include "audit_command.hpp"

#include <iostream>

#include "audit_checks.hpp"
#include "audit_report.hpp"
#include "certificate_reader.hpp"
#include "shared_options.hpp"

namespace permbb::app {

void add_audit_options(CLI::App& command, AuditCommandOptions& options) {
  command.add_option("file", options.file, "the certificate (permbb solve --certificate FILE)")
      ->required()
      ->type_name(kFileType);
  command
      .add_option("--sample", options.sample,
                  "K: explored subproblems drawn (weighted by their nodes) and re-explored; "
                  "all of them when K is at least their number")
      ->capture_default_str();
  command.add_option("--seed", options.seed, "the seed of the draws")->capture_default_str();
  command
      .add_option("--threads", options.threads,
                  "threads re-exploring the sample (0: every hardware thread); the verdict "
                  "does not depend on it")
      ->check(CLI::Range(0, 4096))
      ->capture_default_str();
  command.add_flag("--json", options.json, "print every check's figures as one JSON object");
}

int run_audit_command(const AuditCommandOptions& options) {
  const audit::Certificate certificate = audit::read_certificate(options.file);
  const audit::AuditResult result =
      audit::audit_certificate(certificate, options.sample, options.seed, options.threads);
  if (options.json) {
    std::cout << audit::result_json(certificate, result);
  } else if (result.holds()) {
    std::cout << audit::summary_text(certificate, result);
  } else {
    std::cout << audit::refutation_line(result) << "\n";
  }
  return result.holds() ? 0 : 1;
}

}  // namespace permbb::app
