#pragma once
// Advisory locks that keep two runs off one file (a checkpoint path, a progress log). The lock
// belongs to an open file description (fcntl F_OFD_SETLK), so the kernel drops it when the
// process ends in any way, kill -9 included: a restart after a crash is never refused. NFS
// carries these locks to its lock manager, so runs on different nodes see each other too.
#include <string>

namespace permbb {

enum class LockResult {
  kLocked,       // this process holds the lock now
  kHeldByOther,  // another open file description holds it: another run
  kUnsupported,  // the file system has no locks (ENOLCK, EINVAL): nothing is protected
};

// Takes a write lock on the whole file open (for writing) as `fd`, without waiting.
LockResult lock_whole_file(int fd);

// Holds `path` + ".lock" locked for its lifetime. The lock file keeps the holder's pid and
// host, for the message that refuses a second run; it is left in place (removing it would
// race with a run that is taking it).
class PathLock {
 public:
  PathLock() = default;
  // No lock for an empty `path`. Throws InputError "`what` PATH: in use by another run
  // (pid P on HOST holds PATH.lock) ..." when another process holds it. Where the lock file
  // cannot be made or the file system has no locks it goes on unlocked, and unprotected()
  // says so for the caller to warn (after its own checks of the folder).
  PathLock(const std::string& path, const std::string& what);
  ~PathLock();
  PathLock(PathLock&& other) noexcept;
  PathLock& operator=(PathLock&& other) noexcept;
  PathLock(const PathLock&) = delete;
  PathLock& operator=(const PathLock&) = delete;

  // "" when locked (or no path); else why nothing protects the file, for a warning.
  const std::string& unprotected() const { return unprotected_; }

 private:
  int fd_ = -1;
  std::string unprotected_;
};

// The message of a refused second run: "`what` PATH: in use by another run (HOLDER); give
// each run its own file, or wait for it to end".
std::string in_use_message(const std::string& what, const std::string& path,
                           const std::string& holder);

}  // namespace permbb
