#pragma once
#include <functional>
#include <optional>

#include "incumbent.hpp"
#include "mailbox.hpp"
#include "protocol.hpp"
#include "search_engine.hpp"

namespace permbb::cluster {

struct WorkerSettings {
  // A checkpoint is sent at least this often (2022 §4.2.1: 30 s) ...
  double checkpoint_seconds = 30;
  // ... and after this many local load-balancing operations (0: a fifth of the explorers,
  // as in §4.2.1), but not sooner than `min_steal_checkpoint_seconds` after the last one: a
  // GPU steals thousands of times a second, and a checkpoint pauses the engine for its round
  // trip (the coordinator's copy only needs to be fresh for global checkpoints; idle workers
  // get work through handovers). At 5 s, four GPU workers lost 0.6-0.8 % of their time to
  // these checkpoints (docs/scale.md), so a rank waits as long as for the periodic one.
  std::uint64_t steals_per_checkpoint = 0;
  double min_steal_checkpoint_seconds = 30;
  // The workers of the job: with many, both periods above are stretched so that the
  // workers' checkpoints keep rank 0 busy at most a fifth of the time (report_cadence.hpp),
  // but to no more than half the reply timeout, the silence after which rank 0 declares a
  // worker lost.
  int workers = 1;
  // This worker's number among them (0..workers-1): its first periodic checkpoint comes
  // worker_index / workers of a period early, so that the workers' checkpoints, all timed
  // from the same start, do not reach rank 0 at once (docs/scale.md).
  int worker_index = 0;
  // The engine explores in slices of this length between looks at the mailbox. A GPU
  // engine pauses its IVMs at the end of every slice, so it wants longer ones.
  double slice_seconds = 0.02;
  // A checkpoint or give request ends the slice in progress (Mailbox::on_request): a waiting
  // worker then waits for the victim's engine to pause, not for the rest of its slice.
  bool interrupt_slices = true;
  // Past this (0: none) the worker checkpoints so that a stopping coordinator can end it.
  double time_limit_seconds = 0;
  // K_max: the most intervals a unit sent to this worker may hold (0: the engine's explorers).
  int max_intervals = 0;
  // A reply (or the farewell's send) that takes longer than this (0: no limit) means that the
  // coordinator stopped answering: run_worker throws ReplyOverdue (mailbox.hpp).
  double reply_timeout_seconds = 0;
  // Certificates (--certificate, docs/audit.md): the cut depth the engine records at. Each
  // checkpoint (WORK) and the farewell then carry the engine's committed cut records since
  // the last one, the records of the nodes they count; a handover carries none (nor counts).
  std::optional<int> cut_depth;
  // Called on this (the exploring) thread after each slice that left work, with the paused
  // engine (hybridization: promote subproblems to the solution pool, 2022 §4.2.3). An
  // improvement it offers to the Incumbent is posted to the coordinator (BEST) at once.
  std::function<void(SearchEngine&)> between_slices;
};

struct WorkerOutcome {
  EngineStats stats;
  Time final_upper_bound = kInfiniteTime;  // what this worker pruned against at the end
  WorkerTimes times;                         // where its time went (also in its Farewell)
};

// A worker process (2022 §4.2, Figure 8) over any engine: this thread explores, a
// communicator thread does all MPI. Checkpoints are sent on a better local solution (BEST),
// when out of work, after a number of local steals, after a time, and when the coordinator
// asks (a thief waits). While a checkpoint is in flight the engine does not explore, so the
// unit the coordinator splits is exactly the worker's state: nothing is explored twice.
// Returns after the coordinator's END, once the Farewell is sent. Throws ReplyOverdue when
// the coordinator does not answer within settings.reply_timeout_seconds.
//
// `communicator` is the communicator thread's main loop: communicator_main (all MPI) in a
// job; tests give one that plays the coordinator through the mailbox.
using CommunicatorMain = std::function<void(Mailbox&)>;
WorkerOutcome run_worker(SearchEngine& engine, Incumbent& incumbent,
                         const WorkerSettings& settings);
WorkerOutcome run_worker(SearchEngine& engine, Incumbent& incumbent,
                         const WorkerSettings& settings, const CommunicatorMain& communicator);

}  // namespace permbb::cluster
