#pragma once
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "checkpoint_file.hpp"
#include "file_lock.hpp"
#include "incumbent.hpp"
#include "instance.hpp"
#include "schedule.hpp"
#include "search_settings.hpp"
#include "solve_options.hpp"
#include "upper_bound.hpp"
#include "work_unit.hpp"

namespace permbb::solve {

// Where a run starts: the whole space with a fresh bound, or what a checkpoint left
// (`--restart FILE`): its work, its best, its initial bound and the totals of the earlier
// runs, which the final result adds to this run's.
struct StartPoint {
  std::vector<WorkUnit> units;
  InitialUpperBound initial;
  Schedule best;
  CheckpointStatistics earlier;
  bool restarted = false;
  // --certificate: the cut records of the earlier links (none for a fresh run: no records,
  // at the run's cut depth); absent without --certificate. The run adds its own to them.
  std::optional<CutRecords> cut;
};

// Throws InputError for a checkpoint that cannot be used (corrupt, another instance or other
// settings, another --ub), naming the file.
StartPoint resolve_start(const SolveOptions& options, const Instance& instance,
                         const SearchSettings& settings, const StopCheck& stop = {});

// Makes options.checkpoint_path (none when empty) this run's alone: locks path + ".lock", so a
// second run naming it is refused (exit 2) instead of overwriting the other's checkpoints;
// refuses to replace a search saved there that this run does not continue
// (refuse_replacing_a_saved_search); then checks that it can be written
// (check_checkpoint_writable), which removes what killed earlier writers left: only under
// the lock, so a run never removes another's temporary file. Hold the lock for the whole run.
PathLock claim_checkpoint_path(const SolveOptions& options);

// This run's counters, added to the earlier runs' in a checkpoint and in the result.
struct RunCounters {
  std::uint64_t decomposed = 0;
  std::uint64_t leaves = 0;
  double wall_seconds = 0;
  std::uint64_t worker_checkpoints = 0;
  std::uint64_t splits = 0;
};

// The incumbent a run starts from: a fresh run's initial bound (with NEH's schedule for
// --ub inf); a restart's stored best, schedule included. (The stored initial bound is never
// below the stored best, and seeding it first would refuse a best schedule that equals it.)
void seed_incumbent(const StartPoint& start, Incumbent& incumbent);

CheckpointStatistics totals(const CheckpointStatistics& earlier, const RunCounters& run,
                            bool restarted);

// What a checkpoint saves of a search: the work not yet handed out and the work in progress
// (W_unassigned and W under MPI, 2022 §4.1.4), the best schedule, this run's counters.
struct SearchState {
  std::vector<WorkUnit> unassigned;
  std::vector<WorkUnit> active;
  Schedule best;
  RunCounters counters;
  // --certificate: the cut records of every link so far, merged (those of this run's
  // explorers go with `counters`: committed ones only).
  std::optional<CutRecords> cut;
};

// Writes the global checkpoint (`--checkpoint FILE`) every `--checkpoint-interval` seconds and
// when asked (signals, the end of an incomplete run). Does nothing without --checkpoint. A save
// that fails (disk full) is logged as an error and retried at the next interval; the search
// goes on and FILE keeps the last checkpoint written.
class CheckpointKeeper {
 public:
  CheckpointKeeper(const SolveOptions& options, const Instance& instance,
                   const SearchSettings& settings, const StartPoint& start);

  bool enabled() const { return !path_.empty(); }
  bool due() const;
  void write(const SearchState& state);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::chrono::duration<double> interval_;
  std::chrono::steady_clock::time_point last_;
  GlobalCheckpoint header_;  // instance, settings, initial bound: the same in every write
  CheckpointStatistics earlier_;
  bool restarted_;
};

}  // namespace permbb::solve
