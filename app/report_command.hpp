#pragma once
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace permbb::app {

struct ReportCommandOptions {
  // Progress logs, run folders or sweep folders; several: one page comparing them.
  std::vector<std::string> paths;
  std::string output = "report.html";
  std::string images;  // also the plots as PNG files in this folder
};

void add_report_options(CLI::App& command, ReportCommandOptions& options);

// `permbb report PATH [PATH...] -o FILE`: the page is drawn by report/permbb_report.py
// (matplotlib), installed beside the executable as permbb-report.py, with every PATH in order;
// this process becomes it (exec), so its exit status is the script's (2 for a bad PATH).
// Returns only when the script cannot start.
int run_report_command(const ReportCommandOptions& options);

}  // namespace permbb::app
