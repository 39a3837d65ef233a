#pragma once
// Rank 0's transport loop (Algorithm 1): receive, Coordinator::handle, send the replies, until
// every worker has left or was declared lost; between messages the time and node limits,
// signals, periodic checkpoints, progress lines, and the search for silent ranks.
#include <vector>

#include "coordinator.hpp"
#include "mpi_transport.hpp"
#include "progress_reporter.hpp"
#include "run_checkpoints.hpp"
#include "signal_watcher.hpp"
#include "solve_options.hpp"
#include "wait_clock.hpp"

namespace permbb::cluster {

struct CoordinatorRun {
  double busy_seconds = 0;
  double wall_seconds = 0;
  // Per worker, since when it has had no work (it reported an empty unit and got no work
  // since); negative while it has work. At the end: when each worker ran out for good.
  std::vector<double> idle_since;
  // Per worker, its waits for work and its answers to GiveRequests as rank 0 saw them.
  std::vector<WorkerWaits> waits;
  // The MPI ranks declared lost (silent past --rank-timeout), in the order found.
  std::vector<int> lost_ranks;
};

// What the loop works with; the replies go out through `sends` (never blocking on a worker
// that stopped receiving), which the caller keeps until the job ends.
struct CoordinatorContext {
  const solve::SolveOptions& options;  // the time limit: what is left of it after set-up
  solve::ProgressReporter& progress;
  solve::CheckpointKeeper& keeper;
  solve::SignalWatcher& signals;
  const MpiSession& session;
  AsyncSends& sends;
};

// Runs the loop. A worker that owes a message (Coordinator::owes_message) and has been
// silent for longer than rank_timeout(options) is declared lost: one error line names its
// rank and host, a checkpoint is written and the other workers are stopped as for a signal.
CoordinatorRun coordinate(Coordinator& coordinator, const CoordinatorContext& context);

// What the global checkpoint saves (§4.1.4): W_unassigned and the active copies (a lost
// worker's included), the best, the counters and, with --certificate, the cut records that
// go with them (a restart continues the certificate from them).
solve::SearchState state_of(const Coordinator& c, double wall_seconds);

}  // namespace permbb::cluster
