#pragma once
#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

namespace permbb::app {

struct AuditCommandOptions {
  std::string file;
  std::uint64_t sample = 100;
  std::uint64_t seed = 1;
  int threads = 0;  // the sample's re-explorations side by side (0: every hardware thread)
  bool json = false;
  double time_limit_seconds = 0;  // for the sample (check 4); 0: none
  double progress_seconds = 10;   // between progress lines on stderr
  bool quiet = false;             // no progress lines
};

void add_audit_options(CLI::App& command, AuditCommandOptions& options);

// `permbb audit FILE`: 0 when the certificate holds, 1 when refuted (one line on stdout), 3
// when the time limit stopped the sample before it was re-explored and nothing was refuted;
// a malformed or foreign file throws InputError (exit 2).
int run_audit_command(const AuditCommandOptions& options);

}  // namespace permbb::app
