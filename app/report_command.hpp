#pragma once
#include <string>

#include <CLI/CLI.hpp>

namespace permbb::app {

struct ReportCommandOptions {
  std::string path;  // a progress log, a run folder or a sweep folder
  std::string output = "report.html";
  std::string images;  // also the plots as PNG files in this folder
};

void add_report_options(CLI::App& command, ReportCommandOptions& options);

// `permbb report PATH -o FILE`: the page is drawn by report/permbb_report.py (matplotlib),
// installed beside the executable as permbb-report.py; this process becomes it (exec), so its
// exit status is the script's (2 for a bad PATH). Returns only when the script cannot start.
int run_report_command(const ReportCommandOptions& options);

}  // namespace permbb::app
