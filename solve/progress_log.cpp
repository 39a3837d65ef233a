#include "progress_log.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "result_output.hpp"
#include "input_error.hpp"

namespace permbb::solve {
namespace {

std::string text_of(const nlohmann::json& line, const char* key) {
  const auto it = line.find(key);
  return it != line.end() && it->is_string() ? it->get<std::string>() : "";
}

bool is_regular(int fd) {
  struct stat info {};
  return ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode);
}

// A log holds one instance's runs: the last start line must name this run's instance (its
// data too, where the line carries a fingerprint; logs written before it do not).
void check_same_instance(const std::string& path, const RunIdentity& identity) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);  // the log's own is write-only
  if (fd < 0) return;
  const std::optional<nlohmann::json> last = last_start_line(fd);
  ::close(fd);
  if (!last) return;
  const std::string instance = text_of(*last, "instance");
  const std::string fingerprint = text_of(*last, "fingerprint");
  const bool same = instance == identity.instance &&
                    (fingerprint.empty() || fingerprint == identity.fingerprint);
  if (same) return;
  throw InputError("--progress-log " + path + ": holds the runs of " + instance +
                   (fingerprint.empty() ? "" : " (instance data " + fingerprint + ")") +
                   ", not of " + identity.instance + " (instance data " + identity.fingerprint +
                   "): give each instance its own log");
}

int open_log(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw InputError("--progress-log " + path + ": is a folder");
  }
  try {
    const int fd = open_for_writing(path, O_CREAT | O_APPEND, "the progress log");
    // Writes that cannot complete now (a full pipe) fail instead of blocking the search.
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    return fd;
  } catch (const InputError& e) {
    throw InputError(std::string("--progress-log ") + e.what());
  }
}

}  // namespace

RunIdentity run_identity(const Instance& instance, const SearchSettings& settings) {
  return {instance.name(), fmt::format("{:016x}", instance.fingerprint()),
          to_string(settings.bound), to_string(settings.branching)};
}

ProgressLog::ProgressLog(const std::string& path, const RunIdentity& identity) : path_(path) {
  if (path.empty()) return;
  fd_ = open_log(path);
  if (!is_regular(fd_)) return;  // a pipe's reader sees this run alone
  try {
    if (lock_whole_file(fd_) == LockResult::kHeldByOther) {
      throw InputError(in_use_message("--progress-log", path, "another run appends to it"));
    }
    check_same_instance(path, identity);
  } catch (...) {
    ::close(fd_);
    fd_ = -1;
    throw;
  }
}

ProgressLog::~ProgressLog() {
  if (fd_ >= 0) ::close(fd_);
}

ProgressLog::ProgressLog(ProgressLog&& other) noexcept
    : path_(std::move(other.path_)),
      fd_(std::exchange(other.fd_, -1)),
      pending_(std::move(other.pending_)),
      dropped_(other.dropped_) {}

ProgressLog& ProgressLog::operator=(ProgressLog&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(other.path_);
    fd_ = std::exchange(other.fd_, -1);
    pending_ = std::move(other.pending_);
    dropped_ = other.dropped_;
  }
  return *this;
}

void ProgressLog::give_up(int error) {
  spdlog::warn("--progress-log {}: cannot write ({}); no more lines go there", path_,
               std::strerror(error));
  ::close(fd_);
  fd_ = -1;
}

// Finishes a line that a full pipe took only in part, as far as the pipe takes it now.
void ProgressLog::write_pending() {
  while (!pending_.empty()) {
    const ssize_t n = ::write(fd_, pending_.data(), pending_.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    if (n <= 0) return give_up(n < 0 ? errno : EIO);
    pending_.erase(0, static_cast<std::size_t>(n));
  }
}

void ProgressLog::drop_line() {
  if (dropped_++ == 0) {
    spdlog::warn("--progress-log {}: its reader does not keep up; lines are dropped until it "
                 "does (the search goes on)",
                 path_);
  }
}

// One write(2) per line (O_APPEND): a reader never sees half a line from this process, and a
// pipe takes a line of at most PIPE_BUF bytes whole or not at all.
void ProgressLog::write(const nlohmann::json& line) {
  if (fd_ < 0) return;
  write_pending();
  if (fd_ < 0) return;
  if (!pending_.empty()) return drop_line();  // the pipe is still full
  const std::string text = json_text(line, -1) + "\n";
  ssize_t n = 0;
  do {
    n = ::write(fd_, text.data(), text.size());
  } while (n < 0 && errno == EINTR);
  if (n < 0 && errno == EAGAIN) return drop_line();
  if (n < 0) return give_up(errno);
  pending_ = text.substr(static_cast<std::size_t>(n));
}

namespace {

// The last line of `text` that is a start line, if any.
std::optional<nlohmann::json> last_start_in(const std::string& text) {
  std::size_t stop = text.size();
  while (stop > 0) {
    const std::size_t newline = text.rfind('\n', stop - 1);
    const std::size_t first = newline == std::string::npos ? 0 : newline + 1;
    const std::string_view line(text.data() + first, stop - first);
    if (line.find("\"start\"") != std::string_view::npos) {
      const nlohmann::json parsed = nlohmann::json::parse(line, nullptr, false);
      if (parsed.is_object() && text_of(parsed, "event") == "start") return parsed;
    }
    if (newline == std::string::npos) break;
    stop = newline;
  }
  return std::nullopt;
}

}  // namespace

std::optional<nlohmann::json> last_start_line(int fd) {
  struct stat info {};
  if (::fstat(fd, &info) != 0) return std::nullopt;
  constexpr off_t kChunk = 1 << 16;
  off_t end = info.st_size;
  std::string carry;  // the first, maybe partial, line of the chunks read so far
  while (end > 0) {
    const off_t begin = end > kChunk ? end - kChunk : 0;
    std::string text(static_cast<std::size_t>(end - begin), '\0');
    if (::pread(fd, text.data(), text.size(), begin) != static_cast<ssize_t>(text.size())) {
      return std::nullopt;
    }
    text += carry;
    end = begin;
    // Lines after the first newline are whole; at the file's start, the first one too.
    const std::size_t newline = text.find('\n');
    const std::size_t whole_from =
        end == 0 ? 0 : (newline == std::string::npos ? text.size() : newline + 1);
    if (auto found = last_start_in(text.substr(whole_from))) return found;
    carry = text.substr(0, whole_from);
  }
  return std::nullopt;
}

}  // namespace permbb::solve
