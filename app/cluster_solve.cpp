#include "cluster_solve.hpp"
#include "bound_choice.hpp"
#include "cpu_cores.hpp"

#include <algorithm>
#include <exception>
#include <iostream>
#include <optional>

#include <spdlog/spdlog.h>

#include "cli_numbers.hpp"
#include "coordinator.hpp"
#include "coordinator_loop.hpp"
#include "engine_factory.hpp"
#include "factoradic_mpz.hpp"
#include "input_error.hpp"
#include "instance_source.hpp"
#include "mailbox.hpp"
#include "progress_reporter.hpp"
#include "run_checkpoints.hpp"
#include "search_driver.hpp"
#include "solve_command.hpp"
#include "solve_output.hpp"
#include "upper_bound.hpp"
#include "worker_process.hpp"

namespace permbb::app {
namespace {

using cluster::Coordinator;

// Under --node-limit, workers report their counts at least this often (seconds), so the
// coordinator sees the limit reached soon after it is.
constexpr double kNodeLimitReportSeconds = 0.2;

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
    bounds.push_back(makespan_or_null(c.worker_stats(w).lowest_bound));
  }
  return bounds;
}

// Where the ranks run, by rank (0: the coordinator): host and node-local rank. A worker
// takes GPU (node-local rank mod the node's GPUs): engine_factory.cpp.
nlohmann::json rank_layout(const cluster::MpiSession& session) {
  nlohmann::json ranks = nlohmann::json::array();
  for (int r = 0; r < session.size(); ++r) {
    ranks.push_back({{"host", session.host_name(r)}, {"local_rank", session.local_rank_of(r)}});
  }
  return ranks;
}

// The initial decomposition (2022 §4.1, Algorithm 1 Line 3): [0, n!) cut into one unit per
// worker, so that every worker starts at once instead of waiting for a split of the first
// one's unit (a split needs its owner's next checkpoint). Work stealing evens out what the
// equal cuts do not.
std::vector<WorkUnit> initial_decomposition(int jobs, int workers) {
  const mpz_class space = factorial(jobs);
  std::vector<WorkUnit> units;
  for (int w = 0; w < workers; ++w) {
    const mpz_class begin = space * w / workers;
    const mpz_class end = space * (w + 1) / workers;
    if (begin < end) units.emplace_back(w + 1, std::vector<Interval>{Interval{begin, end}});
  }
  return units;
}

// Bad input that one rank alone meets in its own setup (rank 0: the restart file, the
// checkpoint folder; a worker: --gpu without a GPU) must end every rank, or the others wait
// forever for it. Every rank runs its setup, then all agree before the first message. The
// lowest rank that met an input error reports it (rank 0 through main, a worker here, naming
// itself); every other rank throws StoppedByAnotherRank.
template <class Setup>
auto agreed_setup(const cluster::MpiSession& session, const Setup& setup) -> decltype(setup()) {
  using Result = decltype(setup());
  std::optional<Result> result;
  std::exception_ptr input_error;
  try {
    result.emplace(setup());
  } catch (const InputError&) {
    input_error = std::current_exception();
  }
  const int size = session.size();
  // size - (the lowest failing rank), or 0 when every setup succeeded.
  const int reporter = size - cluster::max_over_ranks(input_error ? size - session.rank() : 0);
  if (reporter == size) return std::move(*result);
  if (session.rank() == reporter) {
    if (reporter == 0) std::rethrow_exception(input_error);
    try {
      std::rethrow_exception(input_error);
    } catch (const InputError& e) {
      std::cerr << "permbb: error: rank " << reporter << ": " << e.what() << std::endl;
    }
  }
  throw StoppedByAnotherRank{kExitBadInput};
}

// Every rank, after its part: a barrier bounded by --rank-timeout. A rank stopped since its
// last message (its farewell, or the coordinator's result) would hold MPI_Finalize for ever;
// instead the job is aborted with `status`.
void meet_at_the_end(const cluster::MpiSession& session, double timeout, int status) {
  if (cluster::barrier_within(timeout)) return;
  throw AbortJob{status, "permbb: error: " + session.rank_name(session.rank()) +
                             ": another rank did not reach the end of the job within " +
                             number_text(timeout) + " s (--rank-timeout): ending the job"};
}

// The job ends together: MPI_Finalize waits for every rank, so a rank that stopped answering
// would hold the others there for ever. Lost ranks: the result and checkpoint are out, the job
// is aborted with the result's status (3: resumable). Otherwise every rank meets in a barrier
// (meet_at_the_end) before MPI_Finalize.
void end_coordinator_rank(const cluster::MpiSession& session, int status,
                          const std::vector<int>& lost_ranks, cluster::AsyncSends& sends,
                          double timeout) {
  if (!lost_ranks.empty()) {
    std::string ranks;
    for (int rank : lost_ranks) ranks += (ranks.empty() ? "" : ", ") + std::to_string(rank);
    throw AbortJob{status, "permbb: ending the job without the lost rank(s) " + ranks +
                               " (MPI_Abort, exit status " + std::to_string(status) + ")"};
  }
  sends.wait_all();  // every worker has said farewell after its END: all were received
  meet_at_the_end(session, timeout, status);
}

Coordinator make_coordinator(const Instance& instance, int workers, const StartPoint& start) {
  std::vector<WorkUnit> units =
      start.restarted ? start.units : initial_decomposition(instance.jobs(), workers);
  return Coordinator(instance.jobs(), workers,
                     cluster::CoordinatorState{std::move(units), start.best, {}});
}

int run_coordinator_rank(const SolveOptions& options, const Instance& instance,
                         const SearchSettings& settings, const cluster::MpiSession& session,
                         SignalWatcher& signals) {
  const int workers = session.size() - 1;
  const RunClock run_clock(options.time_limit_seconds, signals);
  // Opened inside the agreed set-up: a refused --progress-log ends every rank alike.
  ProgressLog progress_log;
  PathLock checkpoint_lock;
  const StartPoint start = agreed_setup(session, [&] {
    checkpoint_lock = claim_checkpoint_path(options.checkpoint_path);
    progress_log = ProgressLog(options.progress_log_path, run_identity(instance, settings));
    return resolve_start(options, instance, settings, run_clock.setup_stop());
  });
  spdlog::info("{}: {} jobs x {} machines, {} + {}, initial UB {} ({}), {} workers",
               instance.name(), instance.jobs(), instance.machines(), to_string(settings.bound),
               to_string(settings.branching), start.initial.value, start.initial.origin, workers);
  Coordinator coordinator = make_coordinator(instance, workers, start);
  ProgressReporter progress(options.progress_seconds, !options.output.quiet, std::move(progress_log));
  progress.begin(
      progress_start(instance, settings, start, session.size(), coordinator.total_size()));
  CheckpointKeeper keeper(options, instance, settings, start);
  // From the start on, the file holds a usable checkpoint, whatever ends the job.
  write_checkpoint(keeper, coordinator, 0);
  SolveOptions search_options = options;  // the time limit's part left after set-up
  search_options.time_limit_seconds = run_clock.search_time_limit();
  cluster::AsyncSends sends;
  const CoordinatorRun run = coordinate(
      coordinator, CoordinatorContext{search_options, progress, keeper, signals, session, sends});
  write_checkpoint(keeper, coordinator, progress.elapsed_seconds());

  SolveResult result = make_result_header(instance, settings, start.initial);
  const bool complete = coordinator.all_work_done();
  const auto& best = coordinator.best();
  result.has_schedule = !best.permutation.empty();
  result.makespan = best.makespan;
  result.permutation = best.permutation;
  result.status = !complete ? SolveStatus::kIncomplete
                            : (result.has_schedule ? SolveStatus::kOptimal
                                                   : SolveStatus::kNoBetterThanUb);
  const CheckpointStatistics all =
      totals(start.earlier, counters_of(coordinator, progress.elapsed_seconds()), start.restarted);
  progress.finish({complete, best.makespan, coordinator.stats().decomposed,
                   coordinator.remaining_size()});
  result.nodes_decomposed = all.nodes_decomposed;
  result.leaves = all.leaves;
  result.seconds = all.wall_seconds;
  result.run_seconds = progress.elapsed_seconds();
  result.restarts = all.restarts;
  result.steals = coordinator.stats().splits;
  result.engine = "cluster";
  result.threads = workers;
  result.cluster = nlohmann::json{
      {"workers", workers},
      {"coordinator_busy_fraction", run.wall_seconds > 0 ? run.busy_seconds / run.wall_seconds : 0},
      {"work_messages", coordinator.stats().work_messages},
      {"best_messages", coordinator.stats().best_messages},
      {"splits", coordinator.stats().splits},
      {"coverage_holds", coordinator.coverage_holds()},
      {"worker_lowest_bounds", lowest_bounds(coordinator)},
      {"first_idle_seconds", first_and_last_idle(run).first},
      {"last_idle_seconds", first_and_last_idle(run).second},
      {"lost_ranks", run.lost_ranks},
      {"ranks", rank_layout(session)}};
  const int status = emit_result(result, options);
  end_coordinator_rank(session, status, run.lost_ranks, sends, rank_timeout(options));
  return status;
}

int run_worker_rank(const SolveOptions& options, const Instance& instance,
                    const SearchSettings& settings, const cluster::MpiSession& session) {
  // The coordinator speaks for the job; a worker's own lines (its hybridization's summary)
  // show only at --log-level debug or trace.
  if (spdlog::default_logger()->level() > spdlog::level::debug) {
    spdlog::set_level(spdlog::level::warn);
  }
  if (options.fault_injection == "worker-exception" && session.rank() == 1) {
    throw std::runtime_error("injected fault (--fault-injection worker-exception)");
  }
  // Workers start from the given bound (--ub N or opt) or none; the coordinator's first
  // reply carries the global best (NEH's schedule for --ub inf).
  Incumbent incumbent;
  if (options.upper_bound != "inf") {
    seed_incumbent(resolve_upper_bound(options.upper_bound, instance), incumbent);
  }
  SolveOptions rank_options = options;
  if (rank_options.threads == 0) {
    rank_options.threads = cores_per_process(std::max(1, session.local_size() - 1));
  }
  const auto engine = agreed_setup(session, [&] {
    return make_engine(rank_options, instance, settings, incumbent, session.local_rank());
  });
  cluster::WorkerSettings worker;
  worker.checkpoint_seconds = options.node_limit > 0
                                  ? std::min(options.worker_checkpoint_seconds, kNodeLimitReportSeconds)
                                  : options.worker_checkpoint_seconds;
  worker.min_steal_checkpoint_seconds = std::min(5.0, options.worker_checkpoint_seconds);
  // A GPU engine pauses all its IVMs at the end of a slice; a CPU engine pauses cheaply.
  if (engine->name() == "gpu") worker.slice_seconds = 0.2;
  worker.time_limit_seconds = options.time_limit_seconds;
  worker.reply_timeout_seconds = rank_timeout(options);
  // Heuristic threads share this rank's cores; each rank seeds them differently.
  const auto hybrid = start_hybridization(options, instance, incumbent, engine->name(),
                                          std::max(1, session.local_size() - 1),
                                          static_cast<std::uint64_t>(session.rank()) * 1000003u);
  if (hybrid) worker.between_slices = [&hybrid](SearchEngine& e) { hybrid->between_slices(e); };
  try {
    cluster::run_worker(*engine, incumbent, worker);
  } catch (const cluster::ReplyOverdue& e) {
    // The coordinator stopped answering: its last periodic checkpoint holds the state (a unit
    // leaves it only once explored), so the job ends resumable.
    throw AbortJob{exit_code(SolveStatus::kIncomplete),
                   "permbb: error: " + session.rank_name(session.rank()) + ": " + e.what() +
                       " (--rank-timeout " + number_text(worker.reply_timeout_seconds) +
                       "): ending the job; restart from the last checkpoint"};
  }
  if (hybrid) finish_hybridization(*hybrid);
  meet_at_the_end(session, worker.reply_timeout_seconds, exit_code(SolveStatus::kIncomplete));
  return 0;
}

}  // namespace

int run_cluster_solve(const SolveOptions& options, const cluster::MpiSession& session,
                      SignalWatcher& signals) {
  check_output_paths(options);
  rank_timeout(options);  // refused (exit 2) before any rank starts its part
  const Instance instance = load_instance(options.instance);
  // One job has one schedule and nothing to explore or share: rank 0 answers alone, as a
  // single process would, and the workers end at once.
  if (instance.jobs() == 1) return session.rank() == 0 ? run_solve(options, signals) : 0;
  const SearchSettings settings{bound_for(options.bound, instance),
                                parse_branching_rule(options.branching)};
  if (session.rank() == 0) {
    return run_coordinator_rank(options, instance, settings, session, signals);
  }
  return run_worker_rank(options, instance, settings, session);
}

}  // namespace permbb::app
