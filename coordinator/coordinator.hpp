#pragma once
// Coordinator: rank 0 of the cluster level as a state machine (2022 §4.1, Algorithm 1),
// without MPI. The transport loop receives a message, decodes it (protocol.hpp), calls
// handle(worker, message) and sends the returned messages; tests drive it directly.
//
// Workers are numbered 0..workers-1 (the transport maps MPI rank r to worker r-1). Each
// worker begins with a WORK carrying an empty unit; from then on every WORK is a checkpoint,
// answered by WORK (new or modified unit), BEST (nothing changed: the global best) or END
// (no work left anywhere, or a stop was requested). A worker answers END with a Farewell,
// after which it counts as terminated.
//
// Splits by the owner (how this differs from the paper). In §4.1.3 a worker whose unit is
// empty at once gets the right halves of the largest copy W_v^c. But that copy dates from
// the victim's last checkpoint (up to 30 s old), and the victim goes on exploring, also into
// the half just given away, until its next checkpoint tells it of the loss: that part is
// explored twice, and the workers' node counts add up to more than a sequential run's.
// Here a copy is split only by its owner, or while its owner's checkpoint is handled. A
// worker that asks for work while none is unassigned becomes "hungry": it gets no reply for
// now (it simply waits, as it waits for any reply), and the owner of the largest unit (by
// the size it last reported) is sent a GiveRequest, one victim per hungry worker. The request
// ends the owner's slice; the owner splits what it has left (WorkUnit::split, the split the coordinator
// would make), goes on with the rest and sends the part (Handover); the coordinator takes
// the part out of the owner's copy (WorkPool::hand_over) and gives it to the first hungry
// worker. When the owner's checkpoint crosses the request, the checkpoint answers it: the
// owner is paused until the reply, so the report is its exact state, and its fresh unit is
// split for the hungry workers, first come first served. Either way no permutation is
// explored twice, so at a fixed upper bound the sum of the workers' node counts equals the
// sequential count, whatever the number of workers. The cost: a hungry worker idles for a
// round trip to its victim and at most one slice. A handover carries at most H intervals
// (CoordinatorSettings) and costs rank 0 no big-integer work for the copy's other
// intervals, where a checkpoint of a GPU's 16,384 costs it milliseconds: what lets one
// rank 0 serve thousands of GPUs (docs/scale.md).
//
// Messages returned by handle() and request_stop(): the reply to the sender first (when it
// gets one now), then WORK or END to hungry workers, then GiveRequests and
// CheckpointRequests. A hungry
// worker must not send anything (it waits for its reply): such a message throws.
//
// Certificates. When the run records a cut (CoordinatorState::cut), every WORK and Farewell
// carries the cut records of the nodes it counts, and they are merged where the counts are
// added (count_nodes): the records always go with stats().decomposed, so a global checkpoint
// (cut_snapshot) restarts with both, and a Handover, which carries no counts, carries none.
// A worker that sends none, records at another depth or names a job outside [0, n) throws.
//
// Lost workers. A rank that stops answering without dying (SIGSTOP, a hung node) is declared
// lost by the transport loop (SilenceWatch). Its copy stays in W as remaining work, as last
// reported: whatever it explored since is not counted and a restart explores it again, so
// node totals stay exact. Nobody else may take that copy (the rank may wake up and go on
// exploring it), so the search stops; the lost worker is sent nothing more and its farewell
// is not waited for.
#include <gmpxx.h>

#include <deque>
#include <optional>
#include <vector>

#include "coordinator_settings.hpp"
#include "coordinator_stats.hpp"
#include "protocol.hpp"
#include "search_cut.hpp"
#include "work_pool.hpp"

namespace permbb::cluster {

// What a global checkpoint saves (§4.1.4), and what a restart starts from.
struct CoordinatorState {
  std::vector<WorkUnit> units;  // unexplored work: W_unassigned, then the non-empty copies
  Schedule best;
  CoordinatorStats stats;
  // Certificates (--certificate): the cut records counted so far (a restart's: the chain's;
  // a fresh run's: none, at the cut depth); absent when the run records no cut.
  std::optional<CutRecords> cut = std::nullopt;
};

// A message to send: the destination worker and the message.
struct Outgoing {
  int worker;
  ToWorker message;
};

// The initial decomposition (2022 §4.1, Algorithm 1 Line 3): [0, n!) cut into one unit per
// worker, so that every worker starts at once instead of waiting for a split of the first
// one's unit (a split needs its owner's next checkpoint). Work stealing evens out what the
// equal cuts do not.
std::vector<WorkUnit> initial_decomposition(int jobs, int workers);

class Coordinator {
 public:
  // A new search: W_unassigned gets one unit (id 1) of `initial_work` (e.g. [0, n!), an
  // initial decomposition or intervals read from a file; Algorithm 1, Line 3). Throws
  // std::invalid_argument on intervals outside [0, n!] or overlapping, on a schedule that is
  // not of n jobs, or on a worker count below 1.
  Coordinator(int jobs, int workers, std::vector<Interval> initial_work, Schedule initial_best,
              CoordinatorSettings settings = {});
  // A restart (§4.1.4): every unit goes to W_unassigned, the counters go on from `restored`.
  Coordinator(int jobs, int workers, CoordinatorState restored, CoordinatorSettings settings = {});

  // One received message, the messages to send (see the file comment for their order). The
  // message is taken by value so that a WORK's intervals move into the copy, never copied
  // (§4.1.1: handling the units is the coordinator's cost). Throws std::out_of_range for a
  // worker outside [0, workers), std::runtime_error for a message from a worker that has
  // left or that is hungry, or for a schedule that is not of n jobs.
  std::vector<Outgoing> handle(int worker, ToCoordinator message);

  // From now on every WORK and BEST is answered with END (a time limit, a signal); the work
  // the workers hand back in their farewells stays in W_unassigned for a checkpoint.
  // Returns what must be sent now: END to every hungry worker (each waits for a reply), and
  // a CheckpointRequest to every other worker still in the search (not yet sent END) that
  // was not already asked (to checkpoint or to hand over), so that it reports soon and gets
  // its END. A second call returns nothing.
  std::vector<Outgoing> request_stop();
  bool stopping() const { return stopping_; }

  // The worker stopped answering (see the file comment): from now on it counts as gone for
  // finished(), its copy stays as remaining work (in checkpoint_state), nothing is sent to
  // it, and a message from it throws. The search stops as for request_stop(), whose
  // messages are returned. Throws std::out_of_range for a worker outside [0, workers),
  // std::logic_error for one that owes no message (it has left, waits for work, or was
  // declared lost already).
  std::vector<Outgoing> declare_lost(int worker);
  bool lost(int worker) const { return lost_.at(worker); }
  int lost_count() const { return lost_count_; }
  // The next message is the worker's to send: it has neither left, nor been declared lost,
  // nor is it waiting for work (then it is the coordinator's turn).
  bool owes_message(int worker) const;

  // Every worker has sent its farewell (Algorithm 1, Line 5) or was declared lost.
  bool finished() const { return terminated_count_ + lost_count_ == workers(); }
  // W and W_unassigned are both empty.
  bool all_work_done() const { return pool_.empty(); }

  int jobs() const { return jobs_; }
  int workers() const { return static_cast<int>(worker_stats_.size()); }
  int terminated_count() const { return terminated_count_; }
  bool terminated(int worker) const { return terminated_.at(worker); }
  // Workers waiting for work (no reply sent yet), for progress lines.
  int hungry_count() const { return static_cast<int>(hungry_.size()); }
  bool hungry(int worker) const { return waiting_.at(worker); }
  // A CheckpointRequest was sent to the worker since its last checkpoint.
  bool asked_to_checkpoint(int worker) const { return asked_.at(worker); }
  // A GiveRequest was sent to the worker and not yet answered (Handover or checkpoint).
  bool asked_to_give(int worker) const { return give_asked_.at(worker); }

  // The global best; its permutation is empty while the makespan is only a bound.
  const Schedule& best() const { return best_; }
  const CoordinatorStats& stats() const { return stats_; }
  const CoordinatorSettings& settings() const { return pool_.settings(); }
  const WorkerStats& worker_stats(int worker) const { return worker_stats_.at(worker); }

  // The lists of §4.1: W_unassigned and W (the copies, indexed by worker).
  const std::vector<WorkUnit>& unassigned() const { return pool_.unassigned(); }
  const std::vector<WorkUnit>& copies() const { return pool_.copies(); }

  // Coverage: explored + remaining == total at all times, total being the size of the work
  // when the search began (n! for a full run, restarts included).
  mpz_class remaining_size() const { return pool_.remaining(); }
  const mpz_class& total_size() const { return total_size_; }
  bool coverage_holds() const { return stats_.explored + remaining_size() == total_size_; }
  // explored / total, in [0, 1], for progress lines.
  double explored_fraction() const;

  CoordinatorState checkpoint_state() const;
  // The cut records merged so far (by node: SearchCut::snapshot), those of the nodes in
  // stats().decomposed; none when the run records no cut.
  std::optional<CutRecords> cut_snapshot() const;

 private:
  struct Hungry {
    int worker;
    int max_intervals;
  };

  std::vector<Outgoing> on(int worker, WorkReport message);
  std::vector<Outgoing> on(int worker, BestMessage message);
  std::vector<Outgoing> on(int worker, Farewell message);
  std::vector<Outgoing> on(int worker, Handover message);
  WorkAssignment assignment(int worker);
  void feed_hungry_from_unassigned(std::vector<Outgoing>& out);
  void feed_hungry_by_splitting(int owner, std::vector<Outgoing>& out);
  void end_hungry(std::vector<Outgoing>& out);
  void ask_victim(std::vector<Outgoing>& out);
  void ask(int worker, std::vector<Outgoing>& out);
  void settle_give(int worker);
  void note_size(int worker, double size);
  Outgoing stop(int worker);
  void note_bound(int worker, Time bound);
  void count_nodes(int worker, std::uint64_t decomposed, std::uint64_t leaves,
                   const std::optional<CutRecords>& cut);
  void merge_cut(int worker, const std::optional<CutRecords>& records);
  void offer(int worker, const Schedule& candidate);

  int jobs_;
  WorkPool pool_;
  Schedule best_;
  CoordinatorStats stats_;
  std::optional<SearchCut> cut_;  // the records that go with stats_'s counts (--certificate)
  std::vector<WorkerStats> worker_stats_;
  std::deque<Hungry> hungry_;  // FIFO: served in the order they asked
  std::vector<bool> waiting_;  // in hungry_
  std::vector<bool> asked_;    // CheckpointRequest sent since its last checkpoint
  std::vector<bool> give_asked_;  // GiveRequest sent, not yet answered
  int gives_outstanding_ = 0;     // how many of those
  // The size of each worker's unit as it last said (checkpoint, handover) or was given, as a
  // double: enough to rank victims, cheap to compare across thousands of workers.
  std::vector<double> known_size_;
  std::vector<bool> ended_;    // END sent
  std::vector<bool> terminated_;
  std::vector<bool> lost_;
  int terminated_count_ = 0;
  int lost_count_ = 0;
  bool stopping_ = false;
  mpz_class total_size_;
};

}  // namespace permbb::cluster
