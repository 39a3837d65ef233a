#pragma once
// One solve from its set-up to its result: the lifecycle shared by the single process
// (single_process.cpp) and rank 0 of a cluster (coordinator/coordinator_rank.cpp), so that a
// run starts, checkpoints and assembles its result in one place:
//
//   Run run(options, input, clock);        // checkpoint lock, progress log, start point
//   run.begin(processes, total, first);    // progress starts, the first checkpoint
//   ... search: run.progress(), run.checkpoints() ...
//   return run.finish(end);                // last checkpoint, progress ends, result out
#include <optional>
#include <string>

#include <gmpxx.h>
#include <nlohmann/json.hpp>

#include "file_lock.hpp"
#include "instance.hpp"
#include "progress_log.hpp"
#include "progress_reporter.hpp"
#include "run_checkpoints.hpp"
#include "search_driver.hpp"
#include "search_settings.hpp"
#include "solve_options.hpp"

namespace permbb::solve {

// What every rank reads before a solve, alike on all of them: the instance and its settings,
// once the output paths and --rank-timeout are checked. Throws InputError.
struct SolveInput {
  Instance instance;
  SearchSettings settings;
};
SolveInput read_solve_input(const SolveOptions& options);

// How a search ended: what the last checkpoint saves, and what the result reports beyond it.
struct RunEnd {
  bool complete = false;
  SearchState state;           // the last checkpoint; state.best is the result's schedule
  mpz_class remaining;         // the size of the work left (0 when complete)
  std::string engine = "cpu";  // "cpu", "gpu", "cluster", "none"
  int explorers = 1;           // CPU threads, GPU IVMs or cluster workers
  nlohmann::json cluster;      // the coordinator's statistics under MPI (null otherwise)
  // Why an incomplete search stopped, when its caller knows better than the run (lost ranks);
  // "" lets Run::finish find it (a signal, --node-limit, --time-limit).
  std::string stopped_because;
};

class Run {
 public:
  // Claims --checkpoint (PathLock), opens --progress-log and resolves where the search starts
  // (fresh, with NEH cut short by `clock`'s set-up stop, or --restart). Throws InputError.
  Run(const SolveOptions& options, const SolveInput& input, const RunClock& clock);

  const StartPoint& start() const { return start_; }
  const RunClock& clock() const { return clock_; }

  // Logs the start, begins progress (`processes` processes, `total_work` leaves to explore)
  // and writes `first` as the first checkpoint: from then on the file holds a usable one,
  // whatever ends the process.
  void begin(int processes, const mpz_class& total_work, const SearchState& first);

  ProgressReporter& progress() { return *progress_; }
  CheckpointKeeper& checkpoints() { return *keeper_; }

  // Writes the last checkpoint and, with --certificate, the certificate of a completed
  // search from the records end.state holds (run_certificate.hpp), ends progress, prints the
  // result (and its JSON) and returns the exit status: 0 complete, 3 incomplete.
  int finish(const RunEnd& end);

 private:
  std::string stop_cause(const RunEnd& end, std::uint64_t run_nodes,
                         std::uint64_t all_nodes) const;

  const SolveOptions& options_;
  const SolveInput& input_;
  const RunClock& clock_;
  PathLock checkpoint_lock_;  // held for the whole run
  ProgressLog progress_log_;  // handed to progress_ by begin()
  StartPoint start_;
  std::optional<CheckpointKeeper> keeper_;
  std::optional<ProgressReporter> progress_;
};

}  // namespace permbb::solve
