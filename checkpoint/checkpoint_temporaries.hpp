#pragma once
// The temporary files of a checkpoint save (checkpoint_file.hpp, steps 1 and 2) and the
// removal of those that a killed writer (kill -9, a node lost) left behind.
#include <chrono>
#include <string>
#include <vector>

namespace permbb {

// This process's temporary name beside `file`: file + ".tmp.<host>.<pid>". The host name
// makes the pid meaningful in a folder that several nodes share (a Slurm chain may start on
// another node than the run it follows).
std::string temporary_name(const std::string& file);

// A temporary of another host (or an old "*.tmp.<pid>" name, without host) is stale once it
// has not been written to for this long: no save pauses that long between its writes and its
// rename. Even if one did, removing its file only fails that save, which is retried at the
// next interval; `path` keeps the last checkpoint.
inline constexpr std::chrono::hours kForeignTemporaryAge{1};

// Removes the temporaries of earlier saves of `path` (path + ".tmp.*", path + ".prev.tmp.*")
// that no running writer can own: those of this host whose process is gone, or is a later
// process under a recycled pid (it started after the file was last written), or is this very
// process (call this before the process's first save); and those of other hosts that are
// older than kForeignTemporaryAge. A temporary of a live writer on this host is kept, so is
// any other file. Returns the names removed. Errors (an unreadable folder) remove nothing
// and throw nothing: the save that follows reports them.
std::vector<std::string> remove_stale_temporaries(const std::string& path);

}  // namespace permbb
