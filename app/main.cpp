// permbb: exact permutation-flowshop solver. main() is the one place that turns errors into
// exit statuses: 2 for bad input (a one-line message naming the file or option), 1 for
// anything else.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <functional>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include "audit_command.hpp"
#include "build_info.hpp"
#include "checkpoint_command.hpp"
#include "heuristic_command.hpp"
#include "input_error.hpp"
#include "instance_command.hpp"
#include "knapsack_command.hpp"
#include "mpi_transport.hpp"
#include "output_paths.hpp"
#include "pcmax_command.hpp"
#include "report_command.hpp"
#include "shared_options.hpp"
#include "signal_watcher.hpp"
#include "solve_command.hpp"

namespace {

using namespace permbb::app;

// Log lines (progress, warnings) go to stderr, so stdout carries only results.
void configure_logging(const OutputOptions& output) {
  auto logger = spdlog::stderr_color_mt("permbb");
  logger->set_pattern("[%H:%M:%S] %v");
  logger->set_level(spdlog::level::from_str(output.log_level));
  if (output.quiet && logger->level() < spdlog::level::warn) {
    logger->set_level(spdlog::level::warn);
  }
  spdlog::set_default_logger(logger);
}

// `permbb --version`: what a bug report needs to name the binary: the release and the commit
// it was built from (build_info.hpp), the build type, the GPU code and the MPI library.
std::string version_text() {
  return std::string("permbb ") + permbb::build_version() + " (" + permbb::build_type() +
         " build; " + permbb::build_gpu_code() +
         "; MPI: " + permbb::cluster::mpi_library_version() + ")";
}

// A command of the table: its name and help, how it declares its options, and how it runs
// once they are parsed (returning the exit status). The commands that search (`solve`,
// `heuristic`, `knapsack`, `pcmax`) keep the run signals blocked for their SignalWatcher: a
// signal stops them as their time limit does, with the best so far; the other commands get
// them back and end on them as any program does.
struct Command {
  std::string name;
  std::string help;
  std::function<void(CLI::App&)> add_options;
  std::function<int()> run;
  bool takes_run_signals = false;
};

// Every command's options, filled by the parse.
struct CommandLines {
  SolveCommandLine solve;
  HeuristicCommandOptions heuristic;
  PcmaxCommandOptions pcmax;
  CheckpointCommandOptions checkpoint;
  ReportCommandOptions report;
  std::string instance;
  KnapsackCommandOptions knapsack;
  AuditCommandOptions audit;
};

// The commands that print a result: logging as asked, and their --json file checked against
// what they read (`input`) before any work.
std::function<int()> reporting(const OutputOptions& output, const std::string& input_name,
                               const std::string& input, std::function<int()> run,
                               std::function<void()> settle = {}) {
  return [&output, input_name, &input, run = std::move(run), settle = std::move(settle)] {
    if (settle) settle();
    configure_logging(output);
    check_result_destination(output, {{input_name, input}});
    return run();
  };
}

// The run of a command that searches, with a SignalWatcher taking the run signals for it.
std::function<int()> watching_signals(std::function<int(const permbb::solve::SignalWatcher&)> run) {
  return [run = std::move(run)] {
    const permbb::solve::SignalWatcher signals;
    return run(signals);
  };
}

// Under mpirun every rank runs the command line: only `solve` is a cluster command; any other
// would run once per rank, each copy writing the same outputs. Refused on every rank, said
// once (by rank 0).
void refuse_under_mpi_launcher(const std::string& command) {
  if (command == "solve" || !permbb::cluster::launched_by_mpi_launcher()) return;
  throw permbb::InputError(
      command +
      ": not a cluster command (under mpirun every rank would run its own copy); "
      "run it without mpirun (only solve runs on several ranks)");
}

// Under mpirun only rank 0 says what was wrong with the input. The launcher ends every rank at
// the first non-zero exit, so a silent rank that left first could take rank 0's line with it
// (seen on a loaded 2-core machine: the user got no reason at all). The silent ranks wait
// instead, until the launcher ends them once rank 0 has spoken and left, or at most this long;
// the run signals unblocked, so that the launcher's SIGTERM ends them at once.
constexpr std::chrono::seconds kSilentRankWait{10};

void let_rank_zero_speak_first(const sigset_t& signals_before) {
  if (!permbb::cluster::launched_by_mpi_launcher() || permbb::cluster::launcher_rank() == 0) {
    return;
  }
  permbb::solve::restore_signal_mask(signals_before);
  std::this_thread::sleep_for(kSilentRankWait);
}

// `permbb foo`: CLI11 would only say that a command is required.
std::string unknown_command_message(const std::string& word,
                                    const std::vector<CLI::App*>& parsers) {
  std::string names;
  for (const CLI::App* parser : parsers) names += (names.empty() ? "" : ", ") + parser->get_name();
  return (word.empty() ? std::string("give a command") : "unknown command " + word) + " (" + names +
         "; permbb --help)";
}

std::vector<Command> command_table(CommandLines& c, int& argc, char**& argv) {
  return {
      {"solve", "solve an instance exactly",
       [&](CLI::App& app) { add_solve_options(app, c.solve); },
       [&] {
         configure_logging(c.solve.options.output);
         return run_solve_command(argc, argv, c.solve);
       },
       true},
      {"heuristic", "find a good schedule quickly (neh, ils, truncated-bb, beam): an upper bound",
       [&](CLI::App& app) { add_heuristic_options(app, c.heuristic); },
       reporting(c.heuristic.output, "the instance", c.heuristic.instance,
                 watching_signals([&](const permbb::solve::SignalWatcher& signals) {
                   return run_heuristic_command(c.heuristic, signals);
                 })),
       true},
      {"pcmax", "P||Cmax: schedule jobs on identical machines within (1 + epsilon) of optimal",
       [&](CLI::App& app) { add_pcmax_options(app, c.pcmax); },
       reporting(c.pcmax.output, "the instance", c.pcmax.instance_file,
                 watching_signals([&](const permbb::solve::SignalWatcher& signals) {
                   return run_pcmax_command(c.pcmax, signals);
                 }),
                 [&] {
                   json_word_as_instance(c.pcmax.output, c.pcmax.instance_file,
                                         !c.pcmax.generate.empty());
                 }),
       true},
      {"checkpoint", "print what a checkpoint file holds, without solving",
       [&](CLI::App& app) { add_checkpoint_options(app, c.checkpoint); },
       reporting(c.checkpoint.output, "the checkpoint", c.checkpoint.file,
                 [&] { return run_checkpoint(c.checkpoint); })},
      {"report",
       "an HTML page with plots of runs (several: compared): --progress-log files, "
       "Slurm run folders or upper-bound sweep folders",
       [&](CLI::App& app) { add_report_options(app, c.report); },
       [&] { return run_report_command(c.report); }},
      {"audit",
       "check a certificate of `solve --certificate FILE` with code independent of the search",
       [&](CLI::App& app) { add_audit_options(app, c.audit); },
       [&] { return run_audit_command(c.audit); }},
      {"instance", "print an instance in the plain format",
       [&](CLI::App& app) {
         app.add_option("instance", c.instance, "Taillard name or instance file")->required();
       },
       [&] { return run_instance(c.instance); }},
      {"knapsack", "solve a 0-1 knapsack instance exactly (branch-and-bound on CPU/GPU, or DP)",
       [&](CLI::App& app) { add_knapsack_options(app, c.knapsack); },
       reporting(c.knapsack.output, "the instance", c.knapsack.instance_file,
                 watching_signals([&](const permbb::solve::SignalWatcher& signals) {
                   return run_knapsack_command(c.knapsack, signals);
                 }),
                 [&] {
                   json_word_as_instance(c.knapsack.output, c.knapsack.instance_file,
                                         !c.knapsack.generate.empty());
                 }),
       true},
  };
}

}  // namespace

int main(int argc, char** argv) {
  // First of all: a run signal (TERM, INT, HUP, QUIT, USR1, USR2) sent right after the start
  // (by a job scheduler, a script) must wait for `solve` to take it (SignalWatcher), not end
  // the process.
  const sigset_t signals_before = permbb::solve::block_run_signals();
  // A reader that left (a progress log's pipe, `| head`) makes writes fail with EPIPE, which
  // each writer handles, instead of killing the process with its work unsaved.
  std::signal(SIGPIPE, SIG_IGN);
  CLI::App app{"permbb: exact branch-and-bound for the permutation flowshop (makespan)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", version_text());

  CommandLines lines;
  const std::vector<Command> commands = command_table(lines, argc, argv);
  std::vector<CLI::App*> parsers;
  for (const Command& command : commands) {
    parsers.push_back(app.add_subcommand(command.name, command.help));
    command.add_options(*parsers.back());
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version print as CLI11 formats them; a usage error is one line, exit 2.
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);
    const bool no_command = std::none_of(parsers.begin(), parsers.end(),
                                         [](const CLI::App* parser) { return parser->parsed(); });
    const std::string first = argc > 1 ? argv[1] : "";
    std::cerr << "permbb: error: "
              << (no_command && (first.empty() || first[0] != '-')
                      ? unknown_command_message(first, parsers)
                      : e.what())
              << "\n";
    return permbb::kExitBadInput;
  }
  try {
    for (std::size_t k = 0; k < commands.size(); ++k) {
      if (!parsers[k]->parsed()) continue;
      refuse_under_mpi_launcher(commands[k].name);
      refuse_empty_file_names(*parsers[k]);
      if (!commands[k].takes_run_signals) permbb::solve::restore_signal_mask(signals_before);
      return commands[k].run();
    }
    return 1;  // unreachable: CLI11 requires one command
  } catch (const permbb::InputError& e) {
    // One write, so that under mpirun the launcher's own lines never split it.
    if (permbb::cluster::launcher_rank() == 0) {
      std::cerr << std::string("permbb: error: ") + e.what() + "\n" << std::flush;
    }
    let_rank_zero_speak_first(signals_before);
    return permbb::kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "permbb: internal error: " << e.what() << "\n";
    return 1;
  }
}
