#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include <gmpxx.h>

#include "flowshop_types.hpp"
#include "instance.hpp"
#include "progress_log.hpp"
#include "remaining_work.hpp"

namespace permbb::solve {

struct StartPoint;

// What the run starts from: the first line of its progress log.
struct ProgressStart {
  RunIdentity identity;
  int jobs = 0;
  int machines = 0;
  Time initial_ub = kInfiniteTime;
  // The bound the incumbent starts at when no schedule makes it (--ub N, or a restart of such
  // a search that found none yet): shown as no best at all, never as a schedule's makespan.
  Time bound_without_schedule = kInfiniteTime;
  int ranks = 1;
  int restart = 0;  // 0: a fresh run; k: the k-th restart from a checkpoint
  std::uint64_t nodes_before = 0;  // decomposed by the earlier runs of this search
  double seconds_before = 0;
  mpz_class remaining;  // the work this run starts with
};

// Under MPI: the coordinator's side of a progress tick.
struct CoordinatorLoad {
  double busy_fraction = 0;
  std::uint64_t checkpoints = 0;  // work reports received
  std::uint64_t splits = 0;
  int idle_workers = 0;
};

// What a progress tick shows.
struct ProgressSnapshot {
  std::uint64_t nodes_decomposed = 0;  // this run
  Time best = kInfiniteTime;
  mpz_class remaining;
  int active_explorers = 1;  // busy workers under MPI, busy explorers otherwise
  std::optional<CoordinatorLoad> coordinator;
};

struct ProgressEnd {
  bool complete = false;
  Time best = kInfiniteTime;
  std::uint64_t nodes_decomposed = 0;  // this run
  mpz_class remaining;
};

// Progress of one run, every `period` seconds: a line on stderr (through the logger) unless
// quiet, and a line in the --progress-log file if there is one. due() is cheap, so the
// search loop asks it often and builds a snapshot only when due. begin() comes first.
class ProgressReporter {
 public:
  ProgressReporter(double period_seconds, bool print_lines, ProgressLog log = ProgressLog());

  void begin(const ProgressStart& start);
  bool due() const {
    return (print_lines_ || log_.enabled()) && std::chrono::steady_clock::now() >= next_;
  }
  void report(const ProgressSnapshot& snapshot);
  void finish(const ProgressEnd& end);
  double elapsed_seconds() const;
  double period_seconds() const { return period_.count(); }

 private:
  // One tick's measures of the work left, computed once for the line and the log.
  struct TimeLeft {
    double run_share;
    std::optional<double> space_log10;
    std::optional<double> falling;  // run share per second
    std::optional<double> seconds;  // the guess
  };

  nlohmann::json line(const char* event) const;
  // `best` as a tick shows it: kInfiniteTime (none) while it is only the starting bound.
  Time shown_best(Time best) const {
    return best == bound_without_schedule_ ? kInfiniteTime : best;
  }
  void print(const ProgressSnapshot& s, double rate, const TimeLeft& left) const;

  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point next_;
  std::chrono::duration<double> period_;
  bool print_lines_;
  ProgressLog log_;
  int restart_ = 0;
  Time bound_without_schedule_ = kInfiniteTime;
  std::uint64_t nodes_before_ = 0;
  std::optional<RemainingWork> remaining_;
  TimeLeftEstimate time_left_;
  std::uint64_t last_nodes_ = 0;
  double last_seconds_ = 0;
};

// The ProgressStart of a run from `start` (resolve_start) with `remaining` to explore.
ProgressStart progress_start(const Instance& instance, const SearchSettings& settings,
                             const StartPoint& start, int ranks, const mpz_class& remaining);

}  // namespace permbb::solve
