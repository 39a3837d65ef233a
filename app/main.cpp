// permbb: exact permutation-flowshop solver. main() is the one place that turns errors into
// exit statuses: 2 for bad input (a one-line message naming the file or option), 1 for
// anything else.
#include <iostream>

#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "input_error.hpp"
#include "instance_command.hpp"
#include "solve_command.hpp"
#include "solve_options.hpp"

namespace {

// Log lines (progress, warnings) go to stderr, so stdout carries only results.
void configure_logging(const std::string& level, bool quiet) {
  auto logger = spdlog::stderr_color_mt("permbb");
  logger->set_pattern("[%H:%M:%S] %v");
  logger->set_level(spdlog::level::from_str(level));
  if (quiet && logger->level() < spdlog::level::warn) logger->set_level(spdlog::level::warn);
  spdlog::set_default_logger(logger);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"permbb: exact branch-and-bound for the permutation flowshop (makespan)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "permbb 0.1.0");

  permbb::app::SolveOptions solve_options;
  CLI::App* solve = app.add_subcommand("solve", "solve an instance exactly");
  permbb::app::add_solve_options(*solve, solve_options);

  std::string instance_spec;
  CLI::App* instance = app.add_subcommand("instance", "print an instance in the plain format");
  instance->add_option("instance", instance_spec, "Taillard name or instance file")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  try {
    if (solve->parsed()) {
      configure_logging(solve_options.log_level, solve_options.quiet);
      return permbb::app::run_solve(solve_options);
    }
    return permbb::app::run_instance(instance_spec);
  } catch (const permbb::InputError& e) {
    std::cerr << "permbb: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "permbb: internal error: " << e.what() << "\n";
    return 1;
  }
}
