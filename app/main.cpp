// permbb: exact permutation-flowshop solver. main() is the one place that turns errors into
// exit statuses: 2 for bad input (a one-line message naming the file or option), 1 for
// anything else.
#include <csignal>
#include <iostream>

#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "checkpoint_command.hpp"
#include "cli_output.hpp"
#include "heuristic_command.hpp"
#include "cluster_solve.hpp"
#include "signal_watcher.hpp"
#include "input_error.hpp"
#include "instance_command.hpp"
#include "knapsack_command.hpp"
#include "mpi_transport.hpp"
#include "pcmax_command.hpp"
#include "report_command.hpp"
#include "solve_command.hpp"
#include "solve_options.hpp"

namespace {

// Log lines (progress, warnings) go to stderr, so stdout carries only results.
void configure_logging(const permbb::app::OutputOptions& output) {
  auto logger = spdlog::stderr_color_mt("permbb");
  logger->set_pattern("[%H:%M:%S] %v");
  logger->set_level(spdlog::level::from_str(output.log_level));
  if (output.quiet && logger->level() < spdlog::level::warn) {
    logger->set_level(spdlog::level::warn);
  }
  spdlog::set_default_logger(logger);
}

// `permbb --version`: what a bug report needs to name the binary.
std::string version_text() {
  return std::string("permbb ") + PERMBB_VERSION_TEXT + " (" + PERMBB_BUILD_TEXT + " build; " +
         PERMBB_GPU_TEXT + "; MPI: " + permbb::cluster::mpi_library_version() + ")";
}

// `mpirun -np P permbb solve ...`: rank 0 coordinates, the others work (P >= 2); a single
// rank under a launcher solves alone. A failure on one rank ends the whole job (MPI_Abort),
// so no rank waits forever for a dead one. Bad input is either seen by every rank alike (the
// instance, the options) or agreed on after each rank's setup (cluster_solve.cpp): every rank
// exits with status 2 and one of them says why.
int solve_under_mpi(int& argc, char**& argv, const permbb::app::SolveOptions& options,
                    permbb::app::SignalWatcher& signals) {
  permbb::cluster::MpiSession session(&argc, &argv);
  try {
    if (session.size() == 1) return permbb::app::run_solve(options, signals);
    return permbb::app::run_cluster_solve(options, session, signals);
  } catch (const permbb::InputError& e) {
    if (session.rank() == 0) std::cerr << "permbb: error: " << e.what() << "\n";
    return permbb::kExitBadInput;
  } catch (const permbb::app::StoppedByAnotherRank& stop) {
    return stop.status;
  } catch (const permbb::app::AbortJob& abort) {
    // What this rank printed must be out before the abort ends it.
    std::cout.flush();
    spdlog::default_logger()->flush();
    permbb::cluster::abort_job(abort.message, abort.status);
    return abort.status;
  } catch (const std::exception& e) {
    permbb::cluster::abort_job("permbb: rank " + std::to_string(session.rank()) +
                                   ": internal error: " + e.what(),
                               1);
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  // First of all: a run signal (TERM, INT, HUP, QUIT, USR1, USR2) sent right after the start
  // (by a job scheduler, a script) must wait for `solve` to take it (SignalWatcher), not end
  // the process.
  const sigset_t signals_before = permbb::app::block_run_signals();
  // A reader that left (a progress log's pipe, `| head`) makes writes fail with EPIPE, which
  // each writer handles, instead of killing the process with its work unsaved.
  std::signal(SIGPIPE, SIG_IGN);
  CLI::App app{"permbb: exact branch-and-bound for the permutation flowshop (makespan)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", version_text());

  permbb::app::SolveOptions solve_options;
  CLI::App* solve = app.add_subcommand("solve", "solve an instance exactly");
  permbb::app::add_solve_options(*solve, solve_options);

  permbb::app::HeuristicCommandOptions heuristic_options;
  CLI::App* heuristic = app.add_subcommand(
      "heuristic", "find a good schedule quickly (neh, ils, truncated-bb, beam): an upper bound");
  permbb::app::add_heuristic_options(*heuristic, heuristic_options);

  permbb::app::PcmaxCommandOptions pcmax_options;
  CLI::App* pcmax = app.add_subcommand(
      "pcmax", "P||Cmax: schedule jobs on identical machines within (1 + epsilon) of optimal");
  permbb::app::add_pcmax_options(*pcmax, pcmax_options);

  permbb::app::CheckpointCommandOptions checkpoint_options;
  CLI::App* checkpoint =
      app.add_subcommand("checkpoint", "print what a checkpoint file holds, without solving");
  permbb::app::add_checkpoint_options(*checkpoint, checkpoint_options);

  permbb::app::ReportCommandOptions report_options;
  CLI::App* report = app.add_subcommand(
      "report", "an HTML page with plots of runs (several: compared): --progress-log files, "
                "Slurm run folders or upper-bound sweep folders");
  permbb::app::add_report_options(*report, report_options);

  std::string instance_spec;
  CLI::App* instance = app.add_subcommand("instance", "print an instance in the plain format");
  instance->add_option("instance", instance_spec, "Taillard name or instance file")->required();

  permbb::app::KnapsackCommandOptions knapsack_options;
  CLI::App* knapsack = app.add_subcommand(
      "knapsack", "solve a 0-1 knapsack instance exactly (branch-and-bound on CPU/GPU, or DP)");
  permbb::app::add_knapsack_options(*knapsack, knapsack_options);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version print as CLI11 formats them; a usage error is one line, exit 2.
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);
    std::cerr << "permbb: error: " << e.what() << "\n";
    return permbb::kExitBadInput;
  }
  try {
    if (solve->parsed()) {
      configure_logging(solve_options.output);
      solve_options.upper_bound_given = solve->count("--ub") > 0;
      // Takes the signals blocked above, those that arrived meanwhile too.
      permbb::app::SignalWatcher signals;
      if (permbb::cluster::launched_by_mpi_launcher()) {
        return solve_under_mpi(argc, argv, solve_options, signals);
      }
      return permbb::app::run_solve(solve_options, signals);
    }
    // The other commands save nothing to resume from: the signals end them as usual.
    permbb::app::restore_signal_mask(signals_before);
    if (report->parsed()) return permbb::app::run_report_command(report_options);
    if (checkpoint->parsed()) {
      configure_logging(checkpoint_options.output);
      permbb::app::check_result_destination(checkpoint_options.output,
                                            {{"the checkpoint", checkpoint_options.file}});
      return permbb::app::run_checkpoint(checkpoint_options);
    }
    if (heuristic->parsed()) {
      configure_logging(heuristic_options.output);
      permbb::app::check_result_destination(heuristic_options.output,
                                            {{"the instance", heuristic_options.instance}});
      return permbb::app::run_heuristic_command(heuristic_options);
    }
    if (pcmax->parsed()) {
      configure_logging(pcmax_options.output);
      permbb::app::check_result_destination(pcmax_options.output,
                                            {{"the instance", pcmax_options.instance_file}});
      return permbb::app::run_pcmax_command(pcmax_options);
    }
    if (knapsack->parsed()) {
      configure_logging(knapsack_options.output);
      permbb::app::check_result_destination(knapsack_options.output,
                                            {{"the instance", knapsack_options.instance_file}});
      return permbb::app::run_knapsack_command(knapsack_options);
    }
    return permbb::app::run_instance(instance_spec);
  } catch (const permbb::InputError& e) {
    std::cerr << "permbb: error: " << e.what() << "\n";
    return permbb::kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "permbb: internal error: " << e.what() << "\n";
    return 1;
  }
}
