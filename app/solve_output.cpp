#include "solve_output.hpp"

#include <iostream>

#include "cli_output.hpp"

namespace permbb::app {

SolveResult make_result_header(const Instance& instance, const SearchSettings& settings,
                               const InitialUpperBound& initial) {
  SolveResult result;
  result.instance = instance.name();
  result.jobs = instance.jobs();
  result.machines = instance.machines();
  result.bound = to_string(settings.bound);
  result.branching = to_string(settings.branching);
  result.initial_ub = initial.value;
  result.initial_ub_origin = initial.origin;
  return result;
}

int emit_result(const SolveResult& result, const SolveOptions& options) {
  if (options.json_path != "-") std::cout << format_human(result) << std::flush;
  if (!options.json_path.empty()) write_json_file(to_json(result), options.json_path);
  return exit_code(result.status);
}

}  // namespace permbb::app
