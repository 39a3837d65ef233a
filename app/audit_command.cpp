#include "audit_command.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>

#include "audit_checks.hpp"
#include "audit_report.hpp"
#include "certificate_reader.hpp"
#include "progress_ticker.hpp"
#include "shared_options.hpp"

namespace permbb::app {
namespace {

// A --time-limit of S seconds from now (none for 0, and none past a billion seconds, which
// the clock could not hold).
audit::Deadline deadline_after(double seconds) {
  if (seconds <= 0 || seconds >= 1e9) return std::nullopt;
  return std::chrono::steady_clock::now() +
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(
             std::chrono::duration<double>(seconds));
}

void print_progress(double seconds, const audit::AuditProgress& progress) {
  const unsigned long long sampled = progress.subproblems_sampled.load();
  if (sampled == 0) {
    std::fprintf(stderr, "progress %.1f s | checks 2 and 3 (the partition, the pruned bounds)\n",
                 seconds);
    return;
  }
  std::fprintf(stderr,
               "progress %.1f s | check 4: %llu of %llu subproblems re-explored, %llu nodes\n",
               seconds, static_cast<unsigned long long>(progress.subproblems_done.load()), sampled,
               static_cast<unsigned long long>(progress.nodes.load()));
}

}  // namespace

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
                  "threads re-exploring the sample (0: every hardware thread); without "
                  "--time-limit the verdict does not depend on it")
      ->check(CLI::Range(0, 4096))
      ->capture_default_str();
  command.add_flag("--json", options.json, "print every check's figures as one JSON object");
  add_time_limit_option(command, options.time_limit_seconds,
                        "stop re-exploring the sample (check 4) after this many seconds from the "
                        "start (0: none): checks 1, 2, 3 and 5 still complete; unless refuted, "
                        "the audit is then incomplete (exit 3) and says how many draws it covered");
  add_progress_option(command, options.progress_seconds);
  command.add_flag("--quiet,-q", options.quiet, "no progress lines on stderr");
}

int run_audit_command(const AuditCommandOptions& options) {
  audit::AuditLimits limits;
  limits.deadline = deadline_after(options.time_limit_seconds);
  const audit::Certificate certificate = audit::read_certificate(options.file);
  audit::AuditProgress progress;
  limits.progress = &progress;
  const ProgressTicker ticker(options.quiet ? 0 : options.progress_seconds,
                              [&](double seconds) { print_progress(seconds, progress); });
  const audit::AuditResult result = audit::audit_certificate(
      certificate, options.sample, options.seed, options.threads, limits);
  if (options.json) {
    std::cout << audit::result_json(certificate, result);
  } else if (result.holds()) {
    std::cout << audit::summary_text(certificate, result);
  } else {
    std::cout << audit::refutation_line(result) << "\n";
  }
  if (!result.holds()) return 1;
  return result.timed_out ? 3 : 0;
}

}  // namespace permbb::app
