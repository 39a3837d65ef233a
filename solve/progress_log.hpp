#pragma once
// --progress-log FILE: one JSON object per line (JSON Lines), appended and written through at
// once, so that a log survives the run that wrote it and a restart continues the same file.
// The fields are listed in docs/progress-log.md.
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "file_lock.hpp"
#include "instance.hpp"
#include "search_settings.hpp"

namespace permbb::solve {

// The search a log belongs to, carried by its start lines: a log holds the runs of one
// instance, so that its report never mixes two searches.
struct RunIdentity {
  std::string instance;     // the instance's name
  std::string fingerprint;  // Instance::fingerprint() in hex: its data, not only its name
  std::string bound;
  std::string branching;
};

RunIdentity run_identity(const Instance& instance, const SearchSettings& settings);

// Side output that never holds the search up: a log whose reader stops reading (a full pipe)
// loses lines, one whose reader left loses the rest (SIGPIPE is ignored, main.cpp), each with
// one warning; the time limit and the signals keep working.
class ProgressLog {
 public:
  ProgressLog() = default;
  // No file for an empty path. Opens `path` for appending (created if missing) and, for a
  // regular file, locks it (two runs never append at once) and checks that its last start
  // line is of the same instance. Throws InputError naming it otherwise, or when it cannot be
  // opened (a folder, a missing folder, a FIFO with no reader): refused at the start, not
  // hours later.
  ProgressLog(const std::string& path, const RunIdentity& identity);
  ~ProgressLog();
  ProgressLog(ProgressLog&& other) noexcept;
  ProgressLog& operator=(ProgressLog&& other) noexcept;
  ProgressLog(const ProgressLog&) = delete;
  ProgressLog& operator=(const ProgressLog&) = delete;

  bool enabled() const { return fd_ >= 0; }
  // One line, whole or not at all (a line cut short by a full pipe is completed first).
  void write(const nlohmann::json& line);

 private:
  void write_pending();
  void drop_line();
  void give_up(int error);

  std::string path_;
  int fd_ = -1;
  std::string pending_;  // the rest of a line a full pipe took only in part
  std::uint64_t dropped_ = 0;
};

// The last line of `fd` (a regular file) whose event is "start", if any: read backwards, so a
// log of millions of lines costs as little as a short one.
std::optional<nlohmann::json> last_start_line(int fd);

}  // namespace permbb::solve
