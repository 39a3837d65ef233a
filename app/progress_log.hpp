#pragma once
// --progress-log FILE: one JSON object per line (JSON Lines), appended and flushed, so that a
// log survives the run that wrote it and a restart continues the same file. The fields are
// listed in docs/progress-log.md.
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace permbb::app {

class ProgressLog {
 public:
  // No file for an empty path. Opens `path` for appending (created if missing); throws
  // InputError naming it when it cannot be opened: refused at the start, not hours later.
  explicit ProgressLog(const std::string& path);

  bool enabled() const { return file_.is_open(); }
  // One line; a failed write is reported once on the log (the search goes on without it).
  void write(const nlohmann::json& line);

 private:
  std::string path_;
  std::ofstream file_;
  bool failed_ = false;
};

}  // namespace permbb::app
