#include "solve_command.hpp"

#include <iostream>

#include <spdlog/spdlog.h>

#include "coordinator_rank.hpp"
#include "driver_start.hpp"
#include "engine_factory.hpp"
#include "input_error.hpp"
#include "mpi_transport.hpp"
#include "rank_agreement.hpp"
#include "run.hpp"
#include "signal_watcher.hpp"
#include "single_process.hpp"
#include "worker_rank.hpp"

namespace permbb::app {
namespace {

// Under mpirun -np P (P >= 2): rank 0 coordinates, the others work. Every size goes the same
// way, one job included: its search space [0, 1!) is one unit, which one worker explores
// (the root is the leaf) while the others find no work to take.
int solve_as_rank(const solve::SolveOptions& options, const solve::SolveInput& input,
                  const solve::RunClock& clock, const cluster::MpiSession& session,
                  solve::SignalWatcher& signals) {
  if (session.rank() == 0) {
    return cluster::run_coordinator_rank(options, input, clock, session, signals);
  }
  return cluster::run_worker_rank(options, input, session);
}

// A failure on one rank ends the whole job (MPI_Abort), so no rank waits forever for a dead
// one. Bad input is either seen by every rank alike (the instance, the options) or agreed on
// after each rank's setup (rank_agreement.hpp): every rank exits with status 2 and one of
// them says why.
int solve_under_mpi(int& argc, char**& argv, const SolveCommandLine& line,
                    solve::SignalWatcher& signals) {
  cluster::MpiSession session(&argc, &argv);
  const solve::RunClock clock(line.options.time_limit_seconds, signals);
  try {
    const solve::SolveOptions options = solve_options_of(line);
    const solve::SolveInput input = solve::read_solve_input(options);
    if (session.rank() == 0) warn_options_without_effect(line, options, session.size() > 1);
    if (session.size() == 1) return solve::solve_in_one_process(options, input, clock, signals);
    return solve_as_rank(options, input, clock, session, signals);
  } catch (const InputError& e) {
    if (session.rank() == 0) std::cerr << "permbb: error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const cluster::StoppedByAnotherRank& stop) {
    return stop.status;
  } catch (const cluster::AbortJob& abort) {
    // What this rank printed must be out before the abort ends it.
    std::cout.flush();
    spdlog::default_logger()->flush();
    cluster::abort_job(abort.message, abort.status);
    return abort.status;
  } catch (const std::exception& e) {
    cluster::abort_job(
        "permbb: rank " + std::to_string(session.rank()) + ": internal error: " + e.what(), 1);
    return 1;
  }
}

// Whether this process will set up a GPU engine (if a device is visible): not with --no-gpu,
// nor on rank 0 of an MPI job, which coordinates.
bool may_explore_on_a_gpu(const SolveCommandLine& line) {
  if (line.options.gpu == "off") return false;
  return !cluster::launched_by_mpi_launcher() || cluster::launcher_rank() != 0;
}

}  // namespace

int run_solve_command(int& argc, char**& argv, const SolveCommandLine& line) {
  const gpu::DriverStart driver(
      may_explore_on_a_gpu(line),
      cluster::launched_by_mpi_launcher() ? cluster::launcher_local_rank() : std::optional<int>(0));
  // Takes the signals main blocked, those that arrived meanwhile too.
  solve::SignalWatcher signals;
  if (cluster::launched_by_mpi_launcher()) return solve_under_mpi(argc, argv, line, signals);
  const solve::RunClock clock(line.options.time_limit_seconds, signals);
  const solve::SolveOptions options = solve_options_of(line);
  const solve::SolveInput input = solve::read_solve_input(options);
  warn_options_without_effect(line, options, false);
  return solve::solve_in_one_process(options, input, clock, signals);
}

}  // namespace permbb::app
