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
};

void add_audit_options(CLI::App& command, AuditCommandOptions& options);

// `permbb audit FILE`: 0 when the certificate holds, 1 when refuted (one line on stdout);
// a malformed or foreign file throws InputError (exit 2).
int run_audit_command(const AuditCommandOptions& options);

}  // namespace permbb::app
