#include "file_lock.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "input_error.hpp"

namespace permbb {
namespace {

std::string host_name() {
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  return name;
}

// What the lock file says of its holder, "pid P on HOST", or "" when it says nothing.
std::string holder_of(int fd) {
  char text[300] = {};
  const ssize_t got = ::pread(fd, text, sizeof text - 1, 0);
  if (got <= 0) return "";
  std::string holder(text, static_cast<std::size_t>(got));
  while (!holder.empty() && (holder.back() == '\n' || holder.back() == '\0')) holder.pop_back();
  return holder;
}

void record_holder(int fd) {
  const std::string holder = "pid " + std::to_string(::getpid()) + " on " + host_name() + "\n";
  if (::ftruncate(fd, 0) == 0) {
    [[maybe_unused]] const ssize_t written = ::pwrite(fd, holder.data(), holder.size(), 0);
  }
}

}  // namespace

LockResult lock_whole_file(int fd) {
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;  // l_start 0, l_len 0: the whole file, as it grows too
  if (::fcntl(fd, F_OFD_SETLK, &lock) == 0) return LockResult::kLocked;
  if (errno == EAGAIN || errno == EACCES) return LockResult::kHeldByOther;
  return LockResult::kUnsupported;
}

std::string in_use_message(const std::string& what, const std::string& path,
                           const std::string& holder) {
  return what + " " + path + ": in use by another run (" + holder +
         "); give each run its own file, or wait for that run to end";
}

PathLock::PathLock(const std::string& path, const std::string& what) {
  if (path.empty()) return;
  const std::string lock_path = path + ".lock";
  fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd_ < 0) {
    // The caller's own checks say better why a folder takes no files; a lock file that cannot
    // be made only leaves the file unprotected.
    unprotected_ = what + " " + path + ": cannot open the lock file " + lock_path + " (" +
                   std::strerror(errno) + "): nothing stops a second run from writing it";
    return;
  }
  switch (lock_whole_file(fd_)) {
    case LockResult::kLocked:
      record_holder(fd_);
      return;
    case LockResult::kHeldByOther: {
      const std::string holder = holder_of(fd_);
      ::close(fd_);
      fd_ = -1;
      throw InputError(in_use_message(what, path,
                                      (holder.empty() ? "" : holder + " holds ") + lock_path));
    }
    case LockResult::kUnsupported:
      unprotected_ = what + " " + path + ": the file system cannot lock " + lock_path + " (" +
                     std::strerror(errno) + "): nothing stops a second run from writing it";
      return;
  }
}

PathLock::~PathLock() {
  if (fd_ >= 0) ::close(fd_);
}

PathLock::PathLock(PathLock&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), unprotected_(std::move(other.unprotected_)) {}

PathLock& PathLock::operator=(PathLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    unprotected_ = std::move(other.unprotected_);
  }
  return *this;
}

}  // namespace permbb
