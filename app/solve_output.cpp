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
  write_result(options.output, format_human(result), to_json(result));
  return exit_code(result.status);
}

}  // namespace permbb::app
