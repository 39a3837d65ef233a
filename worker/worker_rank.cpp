#include "worker_rank.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include <spdlog/spdlog.h>

#include "cpu_cores.hpp"
#include "engine_factory.hpp"
#include "number_text.hpp"
#include "rank_agreement.hpp"
#include "solve_result.hpp"
#include "worker_process.hpp"

namespace permbb::cluster {
namespace {

// Under --node-limit, workers report their counts at least this often (seconds), so the
// coordinator sees the limit reached soon after it is.
constexpr double kNodeLimitReportSeconds = 0.2;

}  // namespace

int run_worker_rank(const solve::SolveOptions& options, const solve::SolveInput& input,
                    const MpiSession& session) {
  const Instance& instance = input.instance;
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
  const auto& ub = options.upper_bound;
  if (ub && ub->kind != solve::UpperBoundSpec::Kind::kNeh) {
    incumbent.lower_to(solve::bound_without_heuristic(*ub, instance));
  }
  const int cores =
      worker_cores(session.node_masks(), session.local_rank(), session.rank_zero_local_rank());
  solve::SolveOptions rank_options = options;
  if (rank_options.threads == 0) rank_options.threads = cores;
  const std::optional<int> guessed = launcher_local_rank();
  if (guessed && options.gpu != "off" && *guessed != session.local_rank()) {
    spdlog::warn("rank {}: the launcher's local rank {} is not MPI's {}: the device guessed "
                 "before MPI started holds a context this rank does not use",
                 session.rank(), *guessed, session.local_rank());
  }
  const auto engine = agreed_setup(session, [&] {
    return solve::make_engine(rank_options, instance, input.settings, incumbent,
                              session.local_rank());
  });
  WorkerSettings worker;
  worker.checkpoint_seconds =
      options.node_limit > 0 ? std::min(options.worker_checkpoint_seconds, kNodeLimitReportSeconds)
                             : options.worker_checkpoint_seconds;
  worker.min_steal_checkpoint_seconds =
      std::min(options.worker_steal_checkpoint_seconds, worker.checkpoint_seconds);
  worker.workers = session.size() - 1;
  worker.worker_index = session.rank() - 1;
  // A GPU engine pauses all its IVMs at the end of a slice; a CPU engine pauses cheaply.
  if (engine->name() == "gpu") worker.slice_seconds = 0.2;
  worker.time_limit_seconds = options.time_limit_seconds;
  worker.interrupt_slices = options.interrupt_slices;
  worker.reply_timeout_seconds = solve::rank_timeout(options);
  if (!options.certificate_path.empty()) {
    worker.cut_depth = cut_depth_for(instance.jobs(), options.certificate_subproblems);
  }
  // Heuristic threads share this rank's cores; each rank seeds them differently, and the
  // first worker alone runs the (deterministic) root beam search.
  const auto hybrid = solve::start_hybridization(
      options, instance, incumbent, engine->name(), cores,
      static_cast<std::uint64_t>(session.rank()) * 1000003u, worker.worker_index == 0);
  if (hybrid) worker.between_slices = [&hybrid](SearchEngine& e) { hybrid->between_slices(e); };
  try {
    run_worker(*engine, incumbent, worker);
  } catch (const ReplyOverdue& e) {
    // The coordinator stopped answering: its last periodic checkpoint holds the state (a unit
    // leaves it only once explored), so the job ends resumable.
    throw AbortJob{solve::exit_code(solve::SolveStatus::kIncomplete),
                   "permbb: error: " + session.rank_name(session.rank()) + ": " + e.what() +
                       " (--rank-timeout " + number_text(worker.reply_timeout_seconds) +
                       "): ending the job; restart from the last checkpoint"};
  }
  if (hybrid) solve::finish_hybridization(*hybrid);
  meet_at_the_end(session, worker.reply_timeout_seconds,
                  solve::exit_code(solve::SolveStatus::kIncomplete));
  return 0;
}

}  // namespace permbb::cluster
