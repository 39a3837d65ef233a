#include "coordinator_rank.hpp"

#include <algorithm>
#include <optional>

#include <spdlog/spdlog.h>

#include "coordinator.hpp"
#include "coordinator_loop.hpp"
#include "factoradic_mpz.hpp"
#include "rank_agreement.hpp"
#include "result_output.hpp"

namespace permbb::cluster {
namespace {

using solve::RunCounters;
using solve::SearchState;

// When the first and the last worker ran out of work for good (2022 Figure 10's idle GPUs).
std::pair<double, double> first_and_last_idle(const CoordinatorRun& run) {
  double first = run.wall_seconds;
  double last = 0;
  for (double t : run.idle_since) {
    const double idle = t < 0 ? run.wall_seconds : t;
    first = std::min(first, idle);
    last = std::max(last, idle);
  }
  return {first, last};
}

// Per worker, the lowest bound it reported pruning with (null: it reported none).
nlohmann::json lowest_bounds(const Coordinator& c) {
  nlohmann::json bounds = nlohmann::json::array();
  for (int w = 0; w < c.workers(); ++w) {
    bounds.push_back(solve::makespan_or_null(c.worker_stats(w).lowest_bound));
  }
  return bounds;
}

// Per worker, where its time went (its farewell's WorkerTimes) and its nodes per second of
// its own wall time: the efficiency lost inside the workers, read by cause; beside them its
// waits as rank 0 saw them (WaitClock).
nlohmann::json worker_times(const Coordinator& c, const CoordinatorRun& run) {
  nlohmann::json all = nlohmann::json::array();
  for (int w = 0; w < c.workers(); ++w) {
    const WorkerStats& s = c.worker_stats(w);
    const WorkerTimes& t = s.times;
    const WorkerWaits waits =
        static_cast<std::size_t>(w) < run.waits.size() ? run.waits[w] : WorkerWaits{};
    all.push_back({{"wall_seconds", t.wall_seconds},
                   {"explore_seconds", t.explore_seconds},
                   {"checkpoint_seconds", t.checkpoint_seconds},
                   {"handover_seconds", t.handover_seconds},
                   {"work_wait_seconds", t.work_wait_seconds},
                   {"hybrid_seconds", t.hybrid_seconds},
                   {"other_seconds", t.other_seconds},
                   {"thin_seconds", t.thin_seconds},
                   {"busy_explorer_share", t.busy_explorer_share},
                   {"assign_seconds", t.assign_seconds},
                   {"give_latency_seconds", t.give_latency_seconds},
                   {"idle_spells", waits.idle_spells},
                   {"idle_seconds", waits.idle_seconds},
                   {"gives_answered", waits.gives},
                   {"give_seconds", waits.give_seconds},
                   {"checkpoints", s.checkpoints},
                   {"nodes_decomposed", s.decomposed},
                   {"nodes_per_second", t.wall_seconds > 0 ? s.decomposed / t.wall_seconds : 0.0}});
  }
  return all;
}

// Where the ranks run, by rank (0: the coordinator): host and node-local rank. A worker
// takes GPU (node-local rank mod the node's GPUs): engine_factory.cpp.
nlohmann::json rank_layout(const MpiSession& session) {
  nlohmann::json ranks = nlohmann::json::array();
  for (int r = 0; r < session.size(); ++r) {
    ranks.push_back({{"host", session.host_name(r)}, {"local_rank", session.local_rank_of(r)}});
  }
  return ranks;
}

// "2, 5": MPI ranks as messages name them.
std::string rank_list(const std::vector<int>& ranks) {
  std::string text;
  for (int rank : ranks) text += (text.empty() ? "" : ", ") + std::to_string(rank);
  return text;
}

// The job ends together: MPI_Finalize waits for every rank, so a rank that stopped answering
// would hold the others there for ever. Lost ranks: the result and checkpoint are out, the job
// is aborted with the result's status (3: resumable). Otherwise every rank meets in a barrier
// (meet_at_the_end) before MPI_Finalize.
void end_coordinator_rank(const MpiSession& session, int status, const std::vector<int>& lost_ranks,
                          AsyncSends& sends, double timeout) {
  if (!lost_ranks.empty()) {
    throw AbortJob{status, "permbb: ending the job without the lost rank(s) " +
                               rank_list(lost_ranks) +
                               " (MPI_Abort, exit status " + std::to_string(status) + ")"};
  }
  sends.wait_all();  // every worker has said farewell after its END: all were received
  meet_at_the_end(session, timeout, status);
}

Coordinator make_coordinator(const Instance& instance, int workers,
                             const solve::StartPoint& start, int handover_intervals) {
  std::vector<WorkUnit> units =
      start.restarted ? start.units : initial_decomposition(instance.jobs(), workers);
  CoordinatorSettings settings;
  settings.max_handover_intervals =
      handover_intervals > 0 ? handover_intervals : handover_interval_cap(workers);
  return Coordinator(instance.jobs(), workers,
                     CoordinatorState{std::move(units), start.best, {}, start.cut},
                     std::move(settings));
}

// The coordinator's statistics in the result (`cluster`): 2022 Figure 10's quantities.
nlohmann::json cluster_statistics(const Coordinator& c, const CoordinatorRun& run,
                                  const MpiSession& session) {
  return nlohmann::json{
      {"workers", c.workers()},
      {"coordinator_busy_fraction", run.wall_seconds > 0 ? run.busy_seconds / run.wall_seconds : 0},
      {"work_messages", c.stats().work_messages},
      {"best_messages", c.stats().best_messages},
      {"splits", c.stats().splits},
      {"handovers", c.stats().handovers},
      {"give_requests", c.stats().give_requests},
      {"handover_intervals", c.settings().max_handover_intervals},
      {"coverage_holds", c.coverage_holds()},
      {"worker_lowest_bounds", lowest_bounds(c)},
      {"first_idle_seconds", first_and_last_idle(run).first},
      {"last_idle_seconds", first_and_last_idle(run).second},
      {"lost_ranks", run.lost_ranks},
      {"worker_times", worker_times(c, run)},
      {"ranks", rank_layout(session)}};
}

}  // namespace

int run_coordinator_rank(const solve::SolveOptions& options, const solve::SolveInput& input,
                         const solve::RunClock& clock, const MpiSession& session,
                         solve::SignalWatcher& signals) {
  const int workers = session.size() - 1;
  // Set up inside the agreement: a refused --checkpoint, --progress-log or --restart ends
  // every rank alike.
  std::optional<solve::Run> run;
  agreed_setup(session, [&] {
    run.emplace(options, input, clock);
    return true;
  });
  Coordinator coordinator =
      make_coordinator(input.instance, workers, run->start(), options.handover_intervals);
  run->begin(session.size(), coordinator.total_size(), state_of(coordinator, 0));
  solve::SolveOptions search_options = options;  // the time limit's part left after set-up
  search_options.time_limit_seconds = clock.search_time_limit();
  AsyncSends sends;
  const CoordinatorRun loop =
      coordinate(coordinator, CoordinatorContext{search_options, run->progress(),
                                                 run->checkpoints(), signals, session, sends});
  solve::RunEnd end;
  end.complete = coordinator.all_work_done();
  end.state = state_of(coordinator, run->progress().elapsed_seconds());
  end.remaining = coordinator.remaining_size();
  end.engine = "cluster";
  end.explorers = workers;
  if (!loop.lost_ranks.empty()) end.stopped_because = "lost rank(s) " + rank_list(loop.lost_ranks);
  end.cluster = cluster_statistics(coordinator, loop, session);
  const int status = run->finish(end);
  end_coordinator_rank(session, status, loop.lost_ranks, sends, solve::rank_timeout(options));
  return status;
}

}  // namespace permbb::cluster
