#include "progress_log.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <spdlog/spdlog.h>

#include "cli_output.hpp"
#include "input_error.hpp"

namespace permbb::app {

ProgressLog::ProgressLog(const std::string& path) : path_(path) {
  if (path.empty()) return;
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw InputError("--progress-log " + path + ": is a folder");
  }
  file_.open(path, std::ios::app);
  if (!file_) {
    throw InputError("--progress-log " + path + ": cannot open for appending: " +
                     std::strerror(errno));
  }
}

void ProgressLog::write(const nlohmann::json& line) {
  if (!file_.is_open() || failed_) return;
  file_ << json_text(line, -1) << '\n';
  file_.flush();
  if (!file_) {
    failed_ = true;
    spdlog::warn("--progress-log {}: writing failed; no more lines go there", path_);
  }
}

}  // namespace permbb::app
