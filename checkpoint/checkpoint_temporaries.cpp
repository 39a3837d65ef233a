#include "checkpoint_temporaries.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <system_error>

namespace permbb {
namespace {

// Who wrote a temporary, from its name; an empty host: an old name without one.
struct Writer {
  std::string host;
  pid_t pid = 0;
};

// This host's name with every character but letters, digits, '-' and '_' made '_': no dot,
// so that "<host>.<pid>" splits at its last dot.
std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof(name) - 1) != 0 || name[0] == '\0') return "localhost";
  std::string host(name);
  for (char& c : host) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '-') c = '_';
  }
  return host;
}

// "<host>.<pid>" or "<pid>" (the part of a temporary's name after ".tmp."); nullopt for
// anything else, which is then not a temporary of ours.
std::optional<Writer> writer_of(const std::string& suffix) {
  Writer writer;
  const std::size_t dot = suffix.rfind('.');
  const std::string digits = dot == std::string::npos ? suffix : suffix.substr(dot + 1);
  if (dot != std::string::npos) {
    writer.host = suffix.substr(0, dot);
    if (writer.host.empty()) return std::nullopt;
  }
  const char* end = digits.data() + digits.size();
  const auto [last, error] = std::from_chars(digits.data(), end, writer.pid);
  if (digits.empty() || error != std::errc() || last != end || writer.pid <= 0) {
    return std::nullopt;
  }
  return writer;
}

using Clock = std::chrono::system_clock;

Clock::time_point to_time_point(const timespec& t) {
  return Clock::time_point(std::chrono::duration_cast<Clock::duration>(
      std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec)));
}

// The state letter and the start time of process `pid` from /proc (Linux); nullopt where
// /proc cannot tell.
struct ProcessInfo {
  char state = '?';
  Clock::time_point started;
};

std::optional<long long> boot_time_seconds() {
  std::ifstream stat("/proc/stat");
  std::string key;
  long long value = 0;
  while (stat >> key) {
    if (key == "btime" && stat >> value) return value;
    stat.ignore(1 << 20, '\n');
  }
  return std::nullopt;
}

std::optional<ProcessInfo> process_info(pid_t pid) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(file, line)) return std::nullopt;
  // The command name (field 2) may hold spaces and parentheses: the fields after it start
  // after the last ')'. There, field 3 is the state and field 22 the start time in clock
  // ticks after boot (proc(5)).
  const std::size_t close = line.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(line.substr(close + 1));
  ProcessInfo info;
  std::string skipped;
  fields >> info.state;
  for (int field = 4; field < 22; ++field) fields >> skipped;
  unsigned long long ticks = 0;
  const auto boot = boot_time_seconds();
  const long per_second = ::sysconf(_SC_CLK_TCK);
  if (!(fields >> ticks) || !boot || per_second <= 0) return std::nullopt;
  info.started = Clock::time_point(std::chrono::duration_cast<Clock::duration>(
      std::chrono::seconds(*boot) + std::chrono::duration<double>(
                                        static_cast<double>(ticks) / per_second)));
  return info;
}

// Whether process `pid` of this host may still be writing a temporary last written at
// `written`. Not this process (it calls this before its first save), not a process that is
// gone or a zombie, not a process that started after the write (a recycled pid; the boot
// time has a resolution of one second, hence the margin). Where /proc cannot tell: yes.
bool may_be_writing(pid_t pid, Clock::time_point written) {
  if (pid == ::getpid()) return false;
  if (::kill(pid, 0) != 0 && errno == ESRCH) return false;
  const auto info = process_info(pid);
  if (!info) return true;
  if (info->state == 'Z' || info->state == 'X') return false;
  return info->started <= written + std::chrono::seconds(2);
}

bool is_stale(const Writer& writer, const struct stat& file) {
  const Clock::time_point written = to_time_point(file.st_mtim);
  if (writer.host == host_name()) return !may_be_writing(writer.pid, written);
  return Clock::now() - written > kForeignTemporaryAge;
}

}  // namespace

std::string temporary_name(const std::string& file) {
  return file + ".tmp." + host_name() + "." + std::to_string(::getpid());
}

std::vector<std::string> remove_stale_temporaries(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path checkpoint(path);
  const fs::path folder = checkpoint.has_parent_path() ? checkpoint.parent_path() : fs::path(".");
  const std::string base = checkpoint.filename().string();
  std::vector<std::string> removed;
  std::error_code error;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    std::optional<Writer> writer;
    for (const std::string& prefix : {base + ".tmp.", base + ".prev.tmp."}) {
      if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0) {
        writer = writer_of(name.substr(prefix.size()));
      }
    }
    const std::string file = (folder / name).string();
    struct stat info;
    if (!writer || ::lstat(file.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) continue;
    if (is_stale(*writer, info) && ::unlink(file.c_str()) == 0) removed.push_back(file);
  }
  return removed;
}

}  // namespace permbb
