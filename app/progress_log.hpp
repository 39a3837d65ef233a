#pragma once
// --progress-log FILE: one JSON object per line (JSON Lines), appended and written through at
// once, so that a log survives the run that wrote it and a restart continues the same file.
// The fields are listed in docs/progress-log.md.
#include <string>

#include <nlohmann/json.hpp>

namespace permbb::app {

class ProgressLog {
 public:
  // No file for an empty path. Opens `path` for appending (created if missing); throws
  // InputError naming it when it cannot (a folder, a missing folder, a FIFO with no reader):
  // refused at the start, not hours later.
  explicit ProgressLog(const std::string& path);
  ~ProgressLog();
  ProgressLog(ProgressLog&& other) noexcept;
  ProgressLog& operator=(ProgressLog&& other) noexcept;
  ProgressLog(const ProgressLog&) = delete;
  ProgressLog& operator=(const ProgressLog&) = delete;

  bool enabled() const { return fd_ >= 0; }
  // One line; a failed write is reported once on the log (the search goes on without it).
  void write(const nlohmann::json& line);

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace permbb::app
