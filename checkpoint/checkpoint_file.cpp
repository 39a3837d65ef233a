// The global checkpoint file: payload encoding, validation on load, atomic replacement on save.
// The layout and the crash-safety argument are in checkpoint_file.hpp.
#include "checkpoint_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <utility>

#include "build_info.hpp"
#include "byte_buffer.hpp"
#include "checkpoint_temporaries.hpp"
#include "crc64.hpp"
#include "cut_record_codec.hpp"
#include "factoradic_mpz.hpp"
#include "input_error.hpp"

namespace permbb {
namespace {

std::string quoted(const std::string& file) {
  return "'" + file + "'";
}

std::string hex(std::uint64_t value) {
  char text[19];
  std::snprintf(text, sizeof(text), "0x%016llx", static_cast<unsigned long long>(value));
  return text;
}

// ---------------------------------------------------------------- payload encoding

// Why the work of `c` is not a set of disjoint parts of [0, n!), or "". Each unit keeps its
// own intervals sorted and disjoint (WorkUnit's invariant); across units nothing else does,
// and two units sharing an interval would explore it twice and end the run in an error.
std::string units_inconsistency(const GlobalCheckpoint& c) {
  const mpz_class limit = factorial(c.jobs);
  std::vector<std::pair<const Interval*, std::uint64_t>> all;  // interval, its unit's id
  for (const auto* list : {&c.unassigned, &c.active}) {
    for (const WorkUnit& unit : *list) {
      for (const Interval& interval : unit.intervals()) all.emplace_back(&interval, unit.id());
    }
  }
  std::sort(all.begin(), all.end(),
            [](const auto& a, const auto& b) { return a.first->begin < b.first->begin; });
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Interval& interval = *all[i].first;
    if (sgn(interval.begin) < 0 || interval.end > limit) {
      return "unit #" + std::to_string(all[i].second) + " leaves [0, n!] for n = " +
             std::to_string(c.jobs);
    }
    if (i > 0 && all[i - 1].first->end > interval.begin) {
      return "units #" + std::to_string(all[i - 1].second) + " and #" +
             std::to_string(all[i].second) + " overlap";
    }
  }
  return "";
}

// What would make load_checkpoint refuse `c` as malformed, or "" (the ordering of intervals
// inside a unit is WorkUnit's invariant). O(units log units + jobs).
std::string inconsistency(const GlobalCheckpoint& c) {
  if (c.jobs < 1 || c.jobs > kMaxJobs || c.machines < 1 || c.machines > kMaxMachines) {
    return "size " + std::to_string(c.jobs) + " jobs x " + std::to_string(c.machines) +
           " machines is out of range";
  }
  if (to_string(c.settings.bound) == "?" || to_string(c.settings.branching) == "?") {
    return "unknown bound or branching rule";
  }
  const std::size_t k = c.best_permutation.size();
  if (k != 0 && (k != static_cast<std::size_t>(c.jobs) || c.best_makespan == kInfiniteTime)) {
    return "best permutation has " + std::to_string(k) + " jobs for " + std::to_string(c.jobs) +
           " jobs and a best makespan of " + std::to_string(c.best_makespan);
  }
  std::vector<bool> seen(k, false);
  for (int job : c.best_permutation) {
    if (job < 0 || job >= c.jobs || seen[job]) {
      return "best permutation is not a permutation (job " + std::to_string(job) + ")";
    }
    seen[job] = true;
  }
  if (c.best_makespan > c.initial_ub) {
    return "best makespan " + std::to_string(c.best_makespan) + " is above the initial UB " +
           std::to_string(c.initial_ub);
  }
  if (c.cut && (c.cut->depth < 0 || c.cut->depth > c.jobs - 1)) {
    return "cut depth " + std::to_string(c.cut->depth) + " for " + std::to_string(c.jobs) +
           " jobs";
  }
  return units_inconsistency(c);
}

void put_units(ByteWriter& out, const std::vector<WorkUnit>& units) {
  out.put(static_cast<std::uint64_t>(units.size()));
  for (const WorkUnit& unit : units) {
    out.put(static_cast<std::int64_t>(unit.id()));
    out.put(static_cast<std::uint32_t>(unit.interval_count()));
    for (const Interval& x : unit.intervals()) {
      out.put_mpz(x.begin);
      out.put_mpz(x.end);
    }
  }
}

std::vector<std::uint8_t> encode_payload(const GlobalCheckpoint& c, const std::string& writer,
                                         std::int64_t written_at) {
  ByteWriter out;
  out.put_string(writer);
  out.put_string(c.instance_name);
  out.put(c.instance_fingerprint);
  out.put(static_cast<std::uint32_t>(c.jobs));
  out.put(static_cast<std::uint32_t>(c.machines));
  out.put_string(to_string(c.settings.bound));
  out.put_string(to_string(c.settings.branching));
  out.put(static_cast<std::int32_t>(c.initial_ub));
  out.put_string(c.initial_ub_origin);
  out.put(static_cast<std::int32_t>(c.best_makespan));
  out.put(static_cast<std::uint32_t>(c.best_permutation.size()));
  for (int job : c.best_permutation) out.put(static_cast<std::int32_t>(job));
  put_units(out, c.unassigned);
  put_units(out, c.active);
  const CheckpointStatistics& s = c.statistics;
  out.put(s.nodes_decomposed);
  out.put(s.leaves);
  out.put_double(s.wall_seconds);
  out.put_double(s.cpu_seconds);
  out.put_double(s.gpu_seconds);
  out.put(s.restarts);
  out.put(s.worker_checkpoints);
  out.put(s.work_divisions);
  out.put(written_at);
  out.put(static_cast<std::uint8_t>(c.cut ? 1 : 0));
  if (c.cut) put_cut_records(out, *c.cut);
  return std::move(out.bytes());
}

// The header (magic, version, payload length and CRC), then the payload, current format.
std::vector<std::uint8_t> encode_file(const GlobalCheckpoint& checkpoint,
                                      const std::string& writer, std::int64_t written_at) {
  const std::vector<std::uint8_t> payload = encode_payload(checkpoint, writer, written_at);
  ByteWriter file;
  file.put_bytes(kCheckpointMagic, sizeof(kCheckpointMagic));
  file.put(kCheckpointFormatVersion);
  file.put(static_cast<std::uint64_t>(payload.size()));
  file.put(crc64(payload.data(), payload.size()));
  file.put_bytes(payload.data(), payload.size());
  return std::move(file.bytes());
}

// Decoding failures throw std::runtime_error; load_checkpoint words them as "malformed".
void require(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error(what);
}

// A unit takes at least 12 bytes and an interval 8, which bounds the counts before anything
// is allocated for them. The file must list each unit's intervals sorted, non-empty, disjoint.
std::vector<WorkUnit> get_units(ByteReader& in, const char* list) {
  const auto count = in.get<std::uint64_t>();
  require(count <= in.remaining() / 12,
          std::string(list) + " list announces " + std::to_string(count) + " units");
  std::vector<WorkUnit> units;
  units.reserve(count);
  for (std::uint64_t u = 0; u < count; ++u) {
    const auto id = in.get<std::int64_t>();
    const auto k = in.get<std::uint32_t>();
    const auto where = [&] { return std::string(list) + " unit #" + std::to_string(id); };
    require(k <= in.remaining() / 8, where() + " announces " + std::to_string(k) + " intervals");
    std::vector<Interval> intervals(k);
    for (std::uint32_t j = 0; j < k; ++j) {
      intervals[j].begin = in.get_mpz();
      intervals[j].end = in.get_mpz();
      const Interval& x = intervals[j];
      if (x.empty()) throw std::runtime_error(where() + ": interval " + to_string(x) + " is empty");
      if (j > 0 && intervals[j - 1].end > x.begin) {
        throw std::runtime_error(where() + ": intervals " + to_string(intervals[j - 1]) + " and " +
                                 to_string(x) + " overlap or are out of order");
      }
    }
    units.emplace_back(id, std::move(intervals));
  }
  return units;
}

// Format version 2 starts with the writer's version; version 1 has none.
GlobalCheckpoint decode_payload(const std::uint8_t* data, std::size_t size,
                                std::uint32_t version) {
  ByteReader in(data, size, "payload");
  GlobalCheckpoint c;
  c.format_version = version;
  if (version >= 2) c.written_by = in.get_string();
  c.instance_name = in.get_string();
  c.instance_fingerprint = in.get<std::uint64_t>();
  const auto jobs = in.get<std::uint32_t>();
  const auto machines = in.get<std::uint32_t>();
  require(jobs <= static_cast<std::uint32_t>(kMaxJobs) &&
              machines <= static_cast<std::uint32_t>(kMaxMachines),
          "size " + std::to_string(jobs) + " jobs x " + std::to_string(machines) +
              " machines is out of range");
  c.jobs = static_cast<int>(jobs);
  c.machines = static_cast<int>(machines);
  c.settings.bound = parse_bound_kind(in.get_string());
  c.settings.branching = parse_branching_rule(in.get_string());
  c.initial_ub = in.get<std::int32_t>();
  c.initial_ub_origin = in.get_string();
  c.best_makespan = in.get<std::int32_t>();
  const auto k = in.get<std::uint32_t>();
  require(k <= jobs, "best permutation has " + std::to_string(k) + " jobs");
  for (std::uint32_t i = 0; i < k; ++i) c.best_permutation.push_back(in.get<std::int32_t>());
  c.unassigned = get_units(in, "unassigned");
  c.active = get_units(in, "active");
  CheckpointStatistics& s = c.statistics;
  s.nodes_decomposed = in.get<std::uint64_t>();
  s.leaves = in.get<std::uint64_t>();
  s.wall_seconds = in.get_double();
  s.cpu_seconds = in.get_double();
  s.gpu_seconds = in.get_double();
  s.restarts = in.get<std::uint32_t>();
  s.worker_checkpoints = in.get<std::uint64_t>();
  s.work_divisions = in.get<std::uint64_t>();
  c.written_at = in.get<std::int64_t>();
  if (version >= 3) {
    const auto has_cut = in.get<std::uint8_t>();
    require(has_cut <= 1, "cut flag " + std::to_string(has_cut));
    if (has_cut == 1) c.cut = get_cut_records(in, c.jobs);
  }
  require(in.at_end(), std::to_string(in.remaining()) + " bytes left after the last field");
  const std::string problem = inconsistency(c);
  require(problem.empty(), problem);
  return c;
}

// ---------------------------------------------------------------- file access

// Closes on destruction; close errors are checked by finish() where they matter (writes).
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  int finish() {
    const int rc = ::close(fd_);
    fd_ = -1;
    return rc;
  }

 private:
  int fd_;
};

[[noreturn]] void fail_save(const std::string& path, const std::string& step,
                            const std::string& file) {
  throw std::runtime_error("cannot save checkpoint " + quoted(path) + ": " + step + " " +
                           quoted(file) + ": " + std::strerror(errno));
}

void write_all(int fd, const std::uint8_t* data, std::size_t size, const std::string& path,
               const std::string& file) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      fail_save(path, "cannot write", file);
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}

// Step 1: the complete file, on disk, under a name nobody reads.
void write_durably(const std::string& file, const std::vector<std::uint8_t>& bytes,
                   const std::string& path) {
  FileDescriptor fd(::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (fd.get() < 0) fail_save(path, "cannot create", file);
  write_all(fd.get(), bytes.data(), bytes.size(), path, file);
  if (::fsync(fd.get()) != 0) fail_save(path, "cannot sync", file);
  if (fd.finish() != 0) fail_save(path, "cannot close", file);
}

// Step 2: path + ".prev" becomes the checkpoint now under `path`, which stays in place (or,
// without hard links, moves there). Nothing to do when `path` does not exist (first save).
void keep_previous(const std::string& path, const std::string& prev) {
  struct stat info;
  if (::stat(path.c_str(), &info) != 0) {
    if (errno == ENOENT) return;
    fail_save(path, "cannot inspect", path);
  }
  if (!S_ISREG(info.st_mode)) {
    // A folder or device under that name: never move or replace it.
    throw std::runtime_error("cannot save checkpoint " + quoted(path) +
                             ": it exists and is not a regular file");
  }
  const std::string prev_tmp = temporary_name(prev);
  ::unlink(prev_tmp.c_str());
  if (::link(path.c_str(), prev_tmp.c_str()) == 0) {
    if (::rename(prev_tmp.c_str(), prev.c_str()) != 0) {
      const int saved = errno;
      ::unlink(prev_tmp.c_str());
      errno = saved;
      fail_save(path, "cannot rename " + quoted(prev_tmp) + " to", prev);
    }
    // rename does nothing when both names are links to one file: `prev` already is this
    // checkpoint when a save was killed between steps 2 and 3. The temporary name would stay.
    ::unlink(prev_tmp.c_str());
    return;
  }
  const bool no_links =
      errno == EPERM || errno == EOPNOTSUPP || errno == ENOSYS || errno == EMLINK || errno == EXDEV;
  if (no_links && ::rename(path.c_str(), prev.c_str()) == 0) return;
  fail_save(path, "cannot keep the previous checkpoint as", prev);
}

void sync_folder(const std::string& path) {
  std::string folder = std::filesystem::path(path).parent_path().string();
  if (folder.empty()) folder = ".";
  FileDescriptor fd(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0) fail_save(path, "cannot open folder", folder);
  // Some file systems cannot sync a folder (EINVAL); their renames are then as durable as
  // they get.
  if (::fsync(fd.get()) != 0 && errno != EINVAL) fail_save(path, "cannot sync folder", folder);
}

// Non-blocking: a FIFO without a writer is refused by the regular-file check below instead
// of blocking open() forever.
std::vector<std::uint8_t> read_whole_file(const std::string& path) {
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) {
    throw InputError("cannot open checkpoint " + quoted(path) + ": " + std::strerror(errno));
  }
  struct stat info;
  if (::fstat(fd.get(), &info) != 0 || !S_ISREG(info.st_mode)) {
    throw InputError("cannot open checkpoint " + quoted(path) + ": not a regular file");
  }
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(info.st_size));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::read(fd.get(), bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      throw InputError("cannot read checkpoint " + quoted(path) + ": " + std::strerror(errno));
    }
    if (n == 0) break;  // shrank meanwhile: the length check below reports it
    done += static_cast<std::size_t>(n);
  }
  bytes.resize(done);
  return bytes;
}

std::string describe_instance(const std::string& name, std::uint64_t fingerprint, int jobs,
                              int machines) {
  return quoted(name) + " (" + std::to_string(jobs) + " jobs x " + std::to_string(machines) +
         " machines, fingerprint " + hex(fingerprint) + ")";
}

std::string known_versions() {
  return std::to_string(kOldestCheckpointFormatVersion) + " to " +
         std::to_string(kCheckpointFormatVersion);
}

InputError unknown_version(const std::string& name, std::uint32_t version) {
  return InputError(name + " has an unknown format version " + std::to_string(version) +
                    " (known versions: " + known_versions() + ")");
}

// A later permbb's checkpoint, its checksum verified: every format version from 2 on starts
// its payload with the writer's version (checkpoint_file.hpp), so the refusal can say which
// permbb resumes it. A writer field that does not read as one is an unknown format.
InputError newer_version(const std::string& name, std::uint32_t version,
                         const std::uint8_t* payload, std::size_t length) {
  constexpr std::size_t kLongestWriter = 200;
  std::string writer;
  try {
    ByteReader in(payload, length, "payload");
    writer = in.get_string();
  } catch (const std::exception&) {
    return unknown_version(name, version);
  }
  const bool printable = std::all_of(writer.begin(), writer.end(), [](char c) {
    return c > ' ' && c < 127;
  });
  if (writer.empty() || writer.size() > kLongestWriter || !printable) {
    return unknown_version(name, version);
  }
  return InputError(name + " was written by permbb " + writer + " in a newer format version (" +
                    std::to_string(version) + ") than this permbb " + build_version() +
                    " reads (" + known_versions() + "): resume it with permbb " + writer +
                    " or later");
}

}  // namespace

void save_checkpoint(const GlobalCheckpoint& checkpoint, const std::string& path) {
  if (const std::string problem = inconsistency(checkpoint); !problem.empty()) {
    throw std::invalid_argument("cannot save checkpoint " + quoted(path) + ": " + problem);
  }
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  const std::vector<std::uint8_t> bytes =
      encode_file(checkpoint, build_version(),
                  std::chrono::duration_cast<std::chrono::seconds>(now).count());

  const std::string tmp = temporary_name(path);
  try {
    write_durably(tmp, bytes, path);
    keep_previous(path, path + ".prev");
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
      fail_save(path, "cannot rename " + quoted(tmp) + " to", path);
    }
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
  sync_folder(path);
}

void check_checkpoint_writable(const std::string& path) {
  if (path.empty()) return;
  struct stat info;
  if (::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) {
    throw InputError("cannot save checkpoint " + quoted(path) + ": not a regular file");
  }
  remove_stale_temporaries(path);  // what a killed earlier run left
  const std::string tmp = temporary_name(path);
  try {
    write_durably(tmp, {}, path);
  } catch (const std::runtime_error& e) {
    ::unlink(tmp.c_str());
    throw InputError(e.what());
  }
  ::unlink(tmp.c_str());  // written: the folder takes files
}

std::vector<std::uint8_t> encode_checkpoint(const GlobalCheckpoint& checkpoint,
                                            std::int64_t written_at) {
  return encode_file(checkpoint, checkpoint.written_by, written_at);
}

GlobalCheckpoint load_checkpoint(const std::string& path) {
  const std::vector<std::uint8_t> bytes = read_whole_file(path);
  return decode_checkpoint(bytes, "checkpoint " + quoted(path));
}

GlobalCheckpoint decode_checkpoint(const std::vector<std::uint8_t>& bytes,
                                   const std::string& name) {
  const std::size_t size = bytes.size();
  const auto truncated_header = [&] {
    return InputError(name + " is truncated: " + std::to_string(size) + " bytes, less than the " +
                      std::to_string(kCheckpointHeaderSize) + "-byte header");
  };
  const std::size_t magic_bytes = std::min(size, sizeof(kCheckpointMagic));
  if (size > 0 && std::memcmp(bytes.data(), kCheckpointMagic, magic_bytes) != 0) {
    throw InputError(name + " is not a permbb checkpoint (bad magic; expected \"PERMBBCK\")");
  }
  if (size < 12) throw truncated_header();
  ByteReader header(bytes.data() + 8, size - 8, name);
  const auto version = header.get<std::uint32_t>();
  if (version < kOldestCheckpointFormatVersion) throw unknown_version(name, version);
  if (size < kCheckpointHeaderSize) throw truncated_header();
  const auto length = header.get<std::uint64_t>();
  const auto stored_crc = header.get<std::uint64_t>();
  const std::uint64_t held = size - kCheckpointHeaderSize;
  if (held < length) {
    throw InputError(name + " is truncated: the header announces a payload length of " +
                     std::to_string(length) + " bytes, the file holds " + std::to_string(held));
  }
  if (held > length) {
    throw InputError(name + " has " + std::to_string(held - length) +
                     " trailing bytes after the payload length of " + std::to_string(length) +
                     " bytes the header announces");
  }
  const std::uint8_t* payload = bytes.data() + kCheckpointHeaderSize;
  const std::uint64_t crc = crc64(payload, length);
  if (crc != stored_crc) {
    throw InputError(name + " is corrupted: the payload checksum is " + hex(crc) +
                     ", the header says " + hex(stored_crc));
  }
  if (version > kCheckpointFormatVersion) throw newer_version(name, version, payload, length);
  try {
    return decode_payload(payload, length, version);
  } catch (const std::exception& e) {
    throw InputError(name + " is malformed: " + e.what());
  }
}

GlobalCheckpoint load_checkpoint_with_fallback(const std::string& path, bool allow_fallback,
                                               std::string* note) {
  if (note != nullptr) note->clear();
  const std::string prev = path + ".prev";
  try {
    return load_checkpoint(path);
  } catch (const InputError& first) {
    if (!allow_fallback) {
      if (!std::filesystem::exists(prev)) throw;
      throw InputError(std::string(first.what()) + "; the previous checkpoint " + quoted(prev) +
                       " exists: --restart-fallback tries it");
    }
    try {
      GlobalCheckpoint checkpoint = load_checkpoint(prev);
      if (note != nullptr) {
        *note = "loaded the previous checkpoint " + quoted(prev) + " because " + first.what();
      }
      return checkpoint;
    } catch (const InputError& second) {
      throw InputError("no usable checkpoint: " + std::string(first.what()) +
                       "; fallback: " + second.what());
    }
  }
}

void validate_against(const GlobalCheckpoint& checkpoint, const std::string& instance_name,
                      std::uint64_t fingerprint, int jobs, int machines,
                      const SearchSettings& settings, const std::string& path) {
  std::string problems;
  const auto add = [&](const std::string& text) {
    problems += (problems.empty() ? "" : "; ") + text;
  };
  if (checkpoint.instance_fingerprint != fingerprint || checkpoint.jobs != jobs ||
      checkpoint.machines != machines) {
    add("it was written for instance " +
        describe_instance(checkpoint.instance_name, checkpoint.instance_fingerprint,
                          checkpoint.jobs, checkpoint.machines) +
        ", not for " + describe_instance(instance_name, fingerprint, jobs, machines));
  }
  if (checkpoint.settings.bound != settings.bound) {
    add("it was written with bound " + to_string(checkpoint.settings.bound) +
        ", the command line asks for " + to_string(settings.bound));
  }
  if (checkpoint.settings.branching != settings.branching) {
    add("it was written with branching rule " + to_string(checkpoint.settings.branching) +
        ", the command line asks for " + to_string(settings.branching));
  }
  if (!problems.empty()) {
    throw InputError("cannot restart from checkpoint " + quoted(path) + ": " + problems +
                     " (a restart must continue the same search)");
  }
}

void validate_against(const GlobalCheckpoint& checkpoint, const Instance& instance,
                      const SearchSettings& settings, const std::string& path) {
  validate_against(checkpoint, instance.name(), instance.fingerprint(), instance.jobs(),
                   instance.machines(), settings, path);
  // A restart reports the stored schedule as the result: it must make the stored makespan.
  if (!checkpoint.best_permutation.empty()) {
    const Time actual = makespan(instance, checkpoint.best_permutation);
    if (actual != checkpoint.best_makespan) {
      throw InputError("cannot restart from checkpoint " + quoted(path) +
                       ": its best schedule makes " + std::to_string(actual) +
                       ", not the stored best makespan " +
                       std::to_string(checkpoint.best_makespan));
    }
  }
}

mpz_class search_space_size(const GlobalCheckpoint& checkpoint) {
  return factorial(checkpoint.jobs);
}

mpz_class remaining_size(const GlobalCheckpoint& checkpoint) {
  mpz_class total = 0;
  for (const WorkUnit& unit : checkpoint.unassigned) total += unit.size();
  for (const WorkUnit& unit : checkpoint.active) total += unit.size();
  return total;
}

}  // namespace permbb
