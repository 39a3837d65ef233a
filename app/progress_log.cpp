#include "progress_log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <utility>

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
  try {
    fd_ = open_for_writing(path, O_CREAT | O_APPEND, "the progress log");
  } catch (const InputError& e) {
    throw InputError(std::string("--progress-log ") + e.what());
  }
}

ProgressLog::~ProgressLog() {
  if (fd_ >= 0) ::close(fd_);
}

ProgressLog::ProgressLog(ProgressLog&& other) noexcept
    : path_(std::move(other.path_)), fd_(std::exchange(other.fd_, -1)) {}

ProgressLog& ProgressLog::operator=(ProgressLog&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(other.path_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

// One write(2) per line (O_APPEND): a reader never sees half a line from this process.
void ProgressLog::write(const nlohmann::json& line) {
  if (fd_ < 0) return;
  const int error = write_all(fd_, json_text(line, -1) + "\n");
  if (error != 0) {
    spdlog::warn("--progress-log {}: cannot write ({}); no more lines go there", path_,
                 std::strerror(error));
    ::close(fd_);
    fd_ = -1;
  }
}

}  // namespace permbb::app
