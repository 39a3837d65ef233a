#pragma once
// The global checkpoint (Gmys et al. 2022, §4.1.4): everything the coordinator needs to
// restart a search — the instance and settings it belongs to, the initial upper bound, the
// best solution, the remaining work (unassigned units and active copies) — plus the
// exploration statistics accumulated over all runs, which the paper lost on restart (§5.4.2).
//
// File layout (all integers little-endian; `mpz` = uint32 byte count + magnitude, least
// significant byte first, as ByteWriter::put_mpz: the count a multiple of 8, the top 64-bit
// word not zero, no bytes for 0; `string` = uint32 length + bytes):
//
//   offset  size  header field
//   0       8     magic "PERMBBCK"
//   8       4     uint32 format version (kCheckpointFormatVersion = 3; 1 and 2 are still read)
//   12      8     uint64 payload length P in bytes
//   20      8     uint64 CRC-64/XZ of the payload (crc64.hpp)
//   28      P     payload; the file is exactly 28 + P bytes
//
//   payload, version 3, in this order:
//   string   the permbb that wrote it (build_version(): "0.1.0-g<commit>"); version 1 starts
//            at the next field, it has no writer
//   string   instance name
//   uint64   instance fingerprint (Instance::fingerprint())
//   uint32   jobs n, uint32 machines m
//   string   bound (to_string(BoundKind): "lb1", ...)
//   string   branching rule (to_string(BranchingRule): "minmin", ...)
//   int32    initial upper bound; string its origin ("neh", "best-known", "given", ...)
//   int32    best makespan (kInfiniteTime: none)
//   uint32   k, then k × int32: the best permutation, 0-based jobs (k = 0 or k = n)
//   2 × work list (unassigned, then active); a list is
//            uint64 unit count, then per unit: int64 id, uint32 interval count K,
//            K × (mpz begin, mpz end), sorted, disjoint, non-empty, end <= n!
//   uint64   nodes decomposed, uint64 leaves
//   double   wall seconds, cpu seconds, gpu seconds (IEEE 754 bits as uint64)
//   uint32   restarts
//   uint64   worker checkpoints, uint64 work divisions (steals)
//   int64    written at (unix seconds)
//   uint8    1 when the search records a cut for its certificate (--certificate,
//            docs/audit.md), then the records of every link so far (cut_record_codec.hpp);
//            0 otherwise. Versions 1 and 2 end before this field: they hold no records.
//
// The search-space size n! is not stored: search_space_size() derives it from n. A work unit
// of 16384 intervals at n = 100 takes about 2.3 MB (the paper's 2.1 MB plus the length fields);
// the whole payload is built in memory before it is written. In every future version the header
// keeps its layout and the payload starts with the writer's string: so a permbb that meets a
// newer format than it reads can check the file and name the version that wrote it, and the
// user knows which permbb resumes it.
#include <gmpxx.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cut_record.hpp"
#include "flowshop_types.hpp"
#include "instance.hpp"
#include "search_settings.hpp"
#include "work_unit.hpp"

namespace permbb {

inline constexpr char kCheckpointMagic[8] = {'P', 'E', 'R', 'M', 'B', 'B', 'C', 'K'};
inline constexpr std::uint32_t kCheckpointFormatVersion = 3;
inline constexpr std::uint32_t kOldestCheckpointFormatVersion = 1;
inline constexpr std::size_t kCheckpointHeaderSize = 28;

// Totals over every run of the search, the current one included. A restart carries them on
// and increments `restarts`.
struct CheckpointStatistics {
  std::uint64_t nodes_decomposed = 0;
  std::uint64_t leaves = 0;
  double wall_seconds = 0;
  double cpu_seconds = 0;
  double gpu_seconds = 0;
  std::uint32_t restarts = 0;
  std::uint64_t worker_checkpoints = 0;
  std::uint64_t work_divisions = 0;  // steals: units split to feed an idle worker
};

struct GlobalCheckpoint {
  // Set by load_checkpoint to the version read; save_checkpoint always writes the current one.
  std::uint32_t format_version = kCheckpointFormatVersion;
  // The permbb that wrote it (build_version()), empty for format version 1, which did not
  // record it. save_checkpoint writes this build's version (the value here is ignored);
  // encode_checkpoint writes the value as it is.
  std::string written_by;

  std::string instance_name;
  std::uint64_t instance_fingerprint = 0;
  int jobs = 0;
  int machines = 0;
  SearchSettings settings;

  Time initial_ub = kInfiniteTime;
  std::string initial_ub_origin;
  // The best makespan found, or kInfiniteTime. The permutation is empty when the best is
  // only a bound (no schedule known), else a permutation of 0..jobs-1.
  Time best_makespan = kInfiniteTime;
  std::vector<int> best_permutation;

  // On restart both lists go to the unassigned work; they are kept apart for inspection.
  // Together they are the part of [0, n!) not yet explored.
  std::vector<WorkUnit> unassigned;
  std::vector<WorkUnit> active;

  CheckpointStatistics statistics;
  // The cut records of the explored part (a search run with --certificate), merged over
  // every link of the chain; absent for a search without them (and in formats 1 and 2).
  std::optional<CutRecords> cut;
  // Unix seconds at which the file was written: set by save_checkpoint (the value passed in
  // is ignored), read back by load_checkpoint.
  std::int64_t written_at = 0;
};

// Writes `checkpoint` to `path` atomically, keeping the previous checkpoint as path + ".prev":
//   1. write path + ".tmp.<host>.<pid>" (temporary_name) and fsync it;
//   2. if `path` exists: hard-link it as path + ".prev.tmp.<host>.<pid>", rename that onto
//      path + ".prev" (so `path` itself is never missing);
//   3. rename the temporary file onto `path`;  4. fsync the folder.
// Crash safety: rename replaces its target atomically and step 3 only publishes data already
// on disk, so at every moment `path` is a complete checkpoint, the old or the new one (from the
// first save on), and path + ".prev" is complete too (the previous or the one before). Where
// the file system has no hard links, step 2 renames `path` to path + ".prev" instead: between
// steps 2 and 3 only path + ".prev" then exists (load_checkpoint_with_fallback finds it).
// A crash may leave a stale "*.tmp.<host>.<pid>" file behind; it is never read, and the next
// start with this `path` removes it (check_checkpoint_writable).
// Throws std::runtime_error naming the file and strerror(errno) if any step fails (folder
// missing, disk full, rename refused); `path` then still holds the previous checkpoint and the
// temporary files are removed. A failure of step 4 alone also throws, though `path` already
// holds the new checkpoint. Throws std::invalid_argument, writing nothing, for a checkpoint
// that load_checkpoint would refuse (sizes out of range, a best permutation that is not one,
// an interval beyond n!): a bad checkpoint is found when it is written, not at restart.
// Overlaps between different units are not checked.
void save_checkpoint(const GlobalCheckpoint& checkpoint, const std::string& path);

// Throws InputError, with the message save_checkpoint would give, when a checkpoint could not
// be written at `path` (a missing or read-only folder, a folder under that name): so that a
// mistyped --checkpoint is refused at the start, not found at the first save hours later.
// Writes and removes the temporary file a save would use; does nothing for an empty path.
// First removes the temporaries that earlier, killed writers of `path` left behind
// (remove_stale_temporaries, checkpoint_temporaries.hpp): call it before this process saves.
void check_checkpoint_writable(const std::string& path);

// Reads and fully validates a checkpoint. Throws InputError naming the file with a distinct
// message for each failure: "cannot open"/"cannot read" (missing, unreadable, a folder),
// "not a permbb checkpoint" (bad magic), "unknown format version" (lists the known ones),
// "newer format version" (a later permbb wrote it: the message names that version),
// "truncated" (shorter than the header announces) or "trailing bytes" (longer), "corrupted"
// (checksum mismatch), "malformed" (the payload does not decode into a consistent checkpoint:
// overlapping or out-of-range intervals, a bad permutation, an unknown bound name, ...).
GlobalCheckpoint load_checkpoint(const std::string& path);

// The file's whole content as load_checkpoint reads it, with the name it gives in messages
// ("checkpoint 'PATH'"): the decoder behind load_checkpoint, for bytes already in memory.
GlobalCheckpoint decode_checkpoint(const std::vector<std::uint8_t>& bytes,
                                   const std::string& name);

// The bytes save_checkpoint writes (header and payload, the current format version), stamped
// `written_at` instead of the clock and `checkpoint.written_by` as the writer; no consistency
// check (save_checkpoint makes it). For a checkpoint decode_checkpoint
// returned, encode_checkpoint(c, c.written_at) gives the decoded bytes back.
std::vector<std::uint8_t> encode_checkpoint(const GlobalCheckpoint& checkpoint,
                                            std::int64_t written_at);

// load_checkpoint(path); if that fails and `allow_fallback`, load_checkpoint(path + ".prev")
// and set *note (when note is not null) to say which file was used and why `path` was refused;
// *note is cleared when `path` loads. Without fallback the original error is rethrown, with a
// hint at --restart-fallback when path + ".prev" exists. When both fail, the InputError gives
// both reasons.
GlobalCheckpoint load_checkpoint_with_fallback(const std::string& path, bool allow_fallback,
                                               std::string* note);

// Refuses (InputError naming the checkpoint file and both values) a checkpoint written for
// other data — fingerprint, jobs or machines differ — or with other search settings (bound,
// branching rule): a restart must continue the same search. The instance name alone may
// differ (same data under another name). The initial upper bound is not compared: the restart
// keeps the stored initial bound and best. (Lowering the bound on restart would be sound, as
// the explored part was pruned with a higher one; raising it would not. Offering that is the
// command's decision.) With the instance at hand, also refuses a stored best schedule that
// does not make the stored best makespan.
void validate_against(const GlobalCheckpoint& checkpoint, const std::string& instance_name,
                      std::uint64_t fingerprint, int jobs, int machines,
                      const SearchSettings& settings, const std::string& path);
void validate_against(const GlobalCheckpoint& checkpoint, const Instance& instance,
                      const SearchSettings& settings, const std::string& path);

// n!, the size of the whole search space.
mpz_class search_space_size(const GlobalCheckpoint& checkpoint);
// The sum of the sizes of all units, unassigned and active: what is left to explore.
mpz_class remaining_size(const GlobalCheckpoint& checkpoint);

}  // namespace permbb
