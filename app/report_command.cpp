#include "report_command.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <vector>

#include "input_error.hpp"
#include "shared_options.hpp"

namespace permbb::app {
namespace {

namespace fs = std::filesystem;

// The script beside the executable (a build folder), or in ../share/permbb (an installation).
std::string find_report_script() {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error) return "";
  for (const fs::path& candidate : {self.parent_path() / "permbb-report.py",
                                    self.parent_path() / ".." / "share" / "permbb" /
                                        "permbb-report.py"}) {
    if (fs::is_regular_file(candidate, error)) return candidate.string();
  }
  return "";
}

}  // namespace

void add_report_options(CLI::App& command, ReportCommandOptions& options) {
  command
      .add_option("path", options.paths,
                  "a --progress-log file, a run folder of slurm/permbb-submit or a sweep folder "
                  "of slurm/permbb-sweep; several: one page comparing them")
      ->required()
      ->expected(-1);
  command.add_option("-o,--output", options.output, "the HTML page to write")
      ->type_name(kFileType)
      ->capture_default_str();
  command
      .add_option("--images", options.images,
                  "also write the plots as PNG files into this folder (plot-1.png, ...)")
      ->type_name(kFolderType);
}

int run_report_command(const ReportCommandOptions& options) {
  const std::string script = find_report_script();
  if (script.empty()) {
    std::cerr << "permbb: error: report: permbb-report.py is not beside the permbb executable "
                 "(nor in ../share/permbb): the installation is incomplete\n";
    return kExitBadInput;
  }
  std::vector<std::string> words = {"python3", script};
  words.insert(words.end(), options.paths.begin(), options.paths.end());
  words.insert(words.end(), {"-o", options.output});
  if (!options.images.empty()) words.insert(words.end(), {"--images", options.images});
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  ::execvp("python3", argv.data());
  std::cerr << "permbb: error: report: cannot start python3: " << std::strerror(errno) << "\n";
  return kExitBadInput;
}

}  // namespace permbb::app
