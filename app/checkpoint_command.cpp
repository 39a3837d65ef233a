#include "checkpoint_command.hpp"

#include <iostream>

#include <nlohmann/json.hpp>

#include "shared_options.hpp"
#include "remaining_work.hpp"

#include "checkpoint_file.hpp"

namespace permbb::app {
namespace {

nlohmann::json describe(const GlobalCheckpoint& c) {
  mpq_class left(remaining_size(c), search_space_size(c));
  left.canonicalize();
  size_t intervals = 0;
  for (const auto* list : {&c.unassigned, &c.active}) {
    for (const WorkUnit& unit : *list) intervals += unit.interval_count();
  }
  const auto& s = c.statistics;
  return {
      {"format_version", c.format_version},
      // The permbb that wrote the file; null for format version 1, which did not say.
      {"written_by", c.written_by.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.written_by)},
      {"instance", c.instance_name},
      {"fingerprint", c.instance_fingerprint},
      {"jobs", c.jobs},
      {"machines", c.machines},
      {"bound", to_string(c.settings.bound)},
      {"branching", to_string(c.settings.branching)},
      {"initial_ub", c.initial_ub},
      {"initial_ub_origin", c.initial_ub_origin},
      {"best_makespan", makespan_or_null(c.best_makespan)},
      {"best_permutation", c.best_permutation.empty()
                               ? nlohmann::json(nullptr)
                               : nlohmann::json(one_based(c.best_permutation))},
      {"complete", intervals == 0},
      {"remaining_fraction", left.get_d()},
      // The same measure as progress lines: the share of n! left, as a power of ten.
      {"remaining_log10", sgn(remaining_size(c)) > 0
                              ? nlohmann::json(solve::log10_share(remaining_size(c), search_space_size(c)))
                              : nlohmann::json(nullptr)},
      {"units", c.unassigned.size() + c.active.size()},
      {"intervals", intervals},
      {"nodes_decomposed", s.nodes_decomposed},
      {"leaves", s.leaves},
      {"wall_seconds", s.wall_seconds},
      {"restarts", s.restarts},
      {"worker_checkpoints", s.worker_checkpoints},
      {"steals", s.work_divisions},
      {"written_at", c.written_at}};
}

// The text: one "key  value" line per field, in the JSON's order.
std::string as_text(const nlohmann::json& d) {
  std::string out;
  for (const auto& [key, value] : d.items()) {
    out += key + std::string(key.size() < 20 ? 20 - key.size() : 1, ' ') + json_text(value, -1) +
           "\n";
  }
  return out;
}

}  // namespace

void add_checkpoint_options(CLI::App& command, CheckpointCommandOptions& options) {
  command.add_option("file", options.file, "checkpoint file")->required();
  add_output_options(command, options.output);
}

int run_checkpoint(const CheckpointCommandOptions& options) {
  // FILE.prev is the search's other copy (a restart falls back to it): no output over it.
  refuse_outputs_naming_inputs({{"--json", options.output.json_path}},
                               {{"the previous checkpoint", options.file + ".prev"}});
  const nlohmann::json d = describe(load_checkpoint(options.file));
  write_result(options.output, as_text(d), d);
  return 0;
}

}  // namespace permbb::app
