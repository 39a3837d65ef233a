#include "cluster_solve.hpp"
#include "bound_choice.hpp"
#include "cpu_cores.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <iostream>
#include <optional>
#include <thread>

#include <spdlog/spdlog.h>

#include "coordinator.hpp"
#include "engine_factory.hpp"
#include "factoradic_mpz.hpp"
#include "input_error.hpp"
#include "instance_source.hpp"
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

// How long the coordinator sleeps when no message is waiting; its busy fraction counts the
// rest of its time.
constexpr auto kIdleSleep = std::chrono::microseconds(200);
// Under --node-limit, workers report their counts at least this often (seconds), so the
// coordinator sees the limit reached soon after it is.
constexpr double kNodeLimitReportSeconds = 0.2;

struct CoordinatorRun {
  double busy_seconds = 0;
  double wall_seconds = 0;
  // Per worker, since when it has had no work (it reported an empty unit and got no work
  // since); negative while it has work. At the end: when each worker ran out for good.
  std::vector<double> idle_since;
};

// Follows who has work from the messages: an empty report makes a worker idle, work makes it
// busy again.
void track_idle(CoordinatorRun& run, int worker, bool reported_empty,
                const std::vector<cluster::Outgoing>& replies) {
  if (reported_empty && run.idle_since[worker] < 0) run.idle_since[worker] = run.wall_seconds;
  for (const auto& out : replies) {
    const auto* work = std::get_if<cluster::WorkAssignment>(&out.message);
    if (work != nullptr && !work->intervals.empty()) run.idle_since[out.worker] = -1;
  }
}

void send(const cluster::Outgoing& out) {
  const cluster::Encoded encoded = cluster::encode_for_worker(out.message);
  cluster::send_bytes(out.worker + 1, static_cast<int>(encoded.tag), encoded.bytes);
}

void report_progress(ProgressReporter& progress, const Coordinator& c, const CoordinatorRun& run) {
  const int active = c.workers() - c.terminated_count() - c.hungry_count();
  progress.report({c.stats().decomposed, c.best().makespan, c.explored_fraction(), active});
  spdlog::info("coordinator busy {:.1f}% | {} checkpoints | {} splits | {} idle workers",
               run.wall_seconds > 0 ? 100.0 * run.busy_seconds / run.wall_seconds : 0.0,
               c.stats().work_messages, c.stats().splits, c.hungry_count());
}

RunCounters counters_of(const Coordinator& c, double wall_seconds) {
  return {c.stats().decomposed, c.stats().leaves, wall_seconds, c.stats().work_messages,
          c.stats().splits};
}

// The global checkpoint (§4.1.4): W_unassigned and the active copies, the best, the counters.
void write_checkpoint(CheckpointKeeper& keeper, const Coordinator& c, double wall_seconds) {
  std::vector<WorkUnit> active;
  for (const WorkUnit& copy : c.copies()) {
    if (!copy.empty()) active.push_back(copy);
  }
  keeper.write(c.unassigned(), std::move(active), c.best(), counters_of(c, wall_seconds));
}

// Stops the search for a limit or a signal: the workers get END at their next message (asked
// for one at once) and hand back what they had not explored.
void stop(Coordinator& coordinator, const char* why) {
  if (coordinator.stopping()) return;
  spdlog::warn("{}: stopping the workers", why);
  for (const auto& out : coordinator.request_stop()) send(out);
}

// Checkpoints and stops decided between messages: the time limit, signals, the interval.
void between_messages(Coordinator& coordinator, const SolveOptions& options,
                      ProgressReporter& progress, CheckpointKeeper& keeper,
                      SignalWatcher& signals) {
  const double now = progress.elapsed_seconds();
  if (options.time_limit_seconds > 0 && now >= options.time_limit_seconds) {
    stop(coordinator, "time limit");
  }
  // The workers' counts arrive with their checkpoints (every kNodeLimitReportSeconds under a
  // node limit): the limit is overshot by at most that much search.
  if (options.node_limit > 0 && coordinator.stats().decomposed >= options.node_limit) {
    stop(coordinator, "node limit");
  }
  const bool signalled_stop = signals.stop_requested() && !coordinator.stopping();
  if (signals.take_checkpoint_request() || keeper.due() || signalled_stop) {
    write_checkpoint(keeper, coordinator, now);
  }
  if (signalled_stop) stop(coordinator, "signal");
}

// Algorithm 1's loop: receive, handle, reply, until every worker has left.
CoordinatorRun coordinate(Coordinator& coordinator, const SolveOptions& options,
                          ProgressReporter& progress, CheckpointKeeper& keeper,
                          SignalWatcher& signals) {
  CoordinatorRun run;
  run.idle_since.assign(static_cast<size_t>(coordinator.workers()), -1);
  const auto start = std::chrono::steady_clock::now();
  while (!coordinator.finished()) {
    between_messages(coordinator, options, progress, keeper, signals);
    const auto received = cluster::poll();
    if (!received) {
      std::this_thread::sleep_for(kIdleSleep);
    } else {
      const auto t0 = std::chrono::steady_clock::now();
      const int worker = received->source - 1;
      auto message = cluster::decode_from_worker(received->tag, received->bytes);
      const auto* report = std::get_if<cluster::WorkReport>(&message);
      const bool reported_empty = report != nullptr && report->intervals.empty();
      const auto replies = coordinator.handle(worker, std::move(message));
      for (const auto& out : replies) send(out);
      track_idle(run, worker, reported_empty, replies);
      run.busy_seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    run.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (progress.due()) report_progress(progress, coordinator, run);
  }
  return run;
}

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
    const Time b = c.worker_stats(w).lowest_bound;
    bounds.push_back(b == kInfiniteTime ? nlohmann::json(nullptr) : nlohmann::json(b));
  }
  return bounds;
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
  const StartPoint start = agreed_setup(session, [&] {
    check_checkpoint_writable(options.checkpoint_path);
    return resolve_start(options, instance, settings, run_clock.setup_stop());
  });
  spdlog::info("{}: {} jobs x {} machines, {} + {}, initial UB {} ({}), {} workers",
               instance.name(), instance.jobs(), instance.machines(), to_string(settings.bound),
               to_string(settings.branching), start.initial.value, start.initial.origin, workers);
  Coordinator coordinator = make_coordinator(instance, workers, start);
  ProgressReporter progress(options.progress_seconds, !options.quiet);
  CheckpointKeeper keeper(options, instance, settings, start);
  SolveOptions search_options = options;  // the time limit's part left after set-up
  search_options.time_limit_seconds = run_clock.search_time_limit();
  const CoordinatorRun run = coordinate(coordinator, search_options, progress, keeper, signals);
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
      {"last_idle_seconds", first_and_last_idle(run).second}};
  return emit_result(result, options);
}

int run_worker_rank(const SolveOptions& options, const Instance& instance,
                    const SearchSettings& settings, const cluster::MpiSession& session) {
  spdlog::set_level(spdlog::level::warn);  // the coordinator speaks for the job
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
  // Heuristic threads share this rank's cores; each rank seeds them differently.
  const auto hybrid = start_hybridization(options, instance, incumbent, engine->name(),
                                          std::max(1, session.local_size() - 1),
                                          static_cast<std::uint64_t>(session.rank()) * 1000003u);
  if (hybrid) worker.between_slices = [&hybrid](SearchEngine& e) { hybrid->between_slices(e); };
  cluster::run_worker(*engine, incumbent, worker);
  if (hybrid) hybrid->stop();
  return 0;
}

}  // namespace

int run_cluster_solve(const SolveOptions& options, const cluster::MpiSession& session,
                      SignalWatcher& signals) {
  check_output_paths(options);
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
