// permbb-scale-sim: N virtual GPU workers around the real coordinator (scale_simulation.hpp),
// for each N asked; one JSON object per N on standard output (JSON Lines), a table on stderr.
//
//   permbb-scale-sim --workload vfr30_15_2 --workers 1,2,4,...,4096
//   permbb-scale-sim --jobs 12 --nodes 2000000 --workers 1,2,4 --service 2e-6,2e-7
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "coordinator_settings.hpp"
#include "scale_simulation.hpp"
#include "work_model.hpp"

namespace {

using namespace permbb::scale;

// The workloads of the 2022 paper (Table 2: proofs at C*, node counts of its runs) and one
// the size of ta058's proof (339 T nodes, 13 h on 256 V100s, §5.4).
const std::map<std::string, WorkModelShape>& workloads() {
  static const std::map<std::string, WorkModelShape> table = {
      {"vfr30_15_2", {30, 122'000'000'000ULL}},
      {"vfr30_15_5", {30, 564'000'000'000ULL}},
      {"vfr30_15_9", {30, 3'660'000'000'000ULL}},
      {"ta058", {50, 339'000'000'000'000ULL}},
  };
  return table;
}

const std::map<std::string, std::optional<StealRule>>& steal_rules() {
  static const std::map<std::string, std::optional<StealRule>> table = {
      {"ideal", std::nullopt}, {"largest", StealRule::kLargest}, {"mean", StealRule::kMean}};
  return table;
}

std::string steal_rule_name(const std::optional<StealRule>& rule) {
  for (const auto& [name, value] : steal_rules()) {
    if (value == rule) return name;
  }
  return "?";
}

nlohmann::json to_json(const SimulationResult& r, const SimulationSettings& s) {
  return {{"workers", r.workers},
          {"wall_seconds", r.wall_seconds},
          {"ideal_seconds", r.ideal_seconds},
          {"efficiency", r.efficiency},
          {"coordinator_busy", r.coordinator_busy},
          {"nodes", r.nodes},
          {"model_nodes", r.model_nodes},
          {"nodes_exact", r.nodes == r.model_nodes},
          {"coverage_holds", r.coverage_holds},
          {"messages", r.messages},
          {"messages_per_second", r.wall_seconds > 0 ? r.messages / r.wall_seconds : 0},
          {"bytes_per_second", r.wall_seconds > 0 ? r.bytes / r.wall_seconds : 0},
          {"mean_idle_seconds", r.mean_idle_seconds},
          {"max_idle_seconds", r.max_idle_seconds},
          {"mean_busy_share", r.mean_busy_share},
          {"max_thin_seconds", r.max_thin_seconds},
          {"steal_rule", steal_rule_name(s.worker.steal_rule)},
          {"splits", r.splits},
          {"handovers", r.handovers},
          {"handover_intervals", r.handover_intervals},
          {"checkpoint_period_seconds", r.checkpoint_period_seconds},
          {"design", s.design.handovers ? "handovers" : "flat"},
          {"service_handover_seconds", s.service.handover * s.service.cpu_scale},
          {"service_fixed_seconds", s.service.fixed * s.service.cpu_scale},
          {"service_per_interval_seconds", s.service.per_interval * s.service.cpu_scale},
          {"nodes_per_second_per_worker", s.worker.nodes_per_second}};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"permbb-scale-sim: the real coordinator with N virtual GPU workers"};
  std::string workload = "vfr30_15_2";
  WorkModelShape shape;
  SimulationSettings settings;
  std::vector<int> counts = {1, 2, 4};
  int ivms = 16384;
  double calibrate_seconds = 1;
  std::vector<double> service;
  std::string design = "handovers";
  app.add_option("--workload", workload, "vfr30_15_2|vfr30_15_5|vfr30_15_9|ta058")
      ->capture_default_str();
  auto* jobs = app.add_option("--jobs", shape.jobs, "a workload of your own: jobs (with --nodes)");
  auto* nodes = app.add_option("--nodes", shape.nodes, "a workload of your own: its node count");
  jobs->needs(nodes);
  nodes->needs(jobs);
  app.add_option("--workers", counts, "worker counts to simulate")->delimiter(',');
  app.add_option("--rate", settings.worker.nodes_per_second, "nodes/s of one GPU worker")
      ->capture_default_str();
  app.add_option("--ivms", ivms, "IVMs per GPU: the intervals a real checkpoint holds")
      ->capture_default_str();
  app.add_option("--pieces", settings.worker.pieces, "intervals tracked per virtual worker")
      ->capture_default_str();
  app.add_option("--slice", settings.worker.slice_seconds, "a worker's slice (s)")
      ->capture_default_str();
  app.add_option("--checkpoint", settings.worker.checkpoint_seconds,
                 "seconds between a worker's checkpoints")
      ->capture_default_str();
  app.add_option("--tail", settings.worker.tail_seconds, "seconds of work below which IVMs run dry")
      ->capture_default_str();
  app.add_option("--sigma", shape.sigma, "spread of the work model's log-normal bins")
      ->capture_default_str();
  app.add_option("--bins", shape.bins, "bins of the work model")->capture_default_str();
  app.add_option("--cascade", shape.cascade,
                 "spread of the work model's cascade: halves split w : 1 - w, w in 0.5 +- it")
      ->check(CLI::Range(0.0, 0.49))
      ->capture_default_str();
  app.add_option("--inner-spread", shape.inner_spread,
                 "spread of the cascade inside each bin (0: a bin's nodes are even)")
      ->check(CLI::Range(0.0, 0.49))
      ->capture_default_str();
  app.add_option("--inner-levels", shape.inner_levels, "levels of the cascade inside each bin")
      ->check(CLI::Range(8, 62))
      ->capture_default_str();
  app.add_option("--cascade-gaps", shape.cascade_gaps,
                 "chance that a level of the cascade over the bins leaves a half without nodes")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  app.add_option("--inner-gaps", shape.inner_gaps,
                 "chance that a level of the cascade inside a bin leaves a half without nodes")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  app.add_option("--seed", shape.seed, "seed of the work model")->capture_default_str();
  app.add_option("--cpu-scale", settings.service.cpu_scale,
                 "rank 0's CPU against this one's (0.5: twice as fast)")
      ->capture_default_str();
  app.add_option("--calibrate-seconds", calibrate_seconds,
                 "time to measure the coordinator's cost per message on this machine")
      ->capture_default_str();
  app.add_option("--service", service,
                 "FIXED,PER_INTERVAL[,HANDOVER] seconds instead of measuring them "
                 "(repeatable runs)")
      ->delimiter(',')
      ->expected(2, 3);
  app.add_option("--design", design,
                 "handovers (today's coordinator) or flat (victims checkpoint, whole splits, "
                 "5 s reports)")
      ->check(CLI::IsMember({"handovers", "flat"}))
      ->capture_default_str();
  int handover_intervals = 0;
  app.add_option("--handover-intervals", handover_intervals,
                 "H: the most intervals a split or handover moves (0: as permbb solve chooses "
                 "it for the worker count, cluster::handover_interval_cap)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--checkpoint-pause", settings.worker.checkpoint_pause_seconds,
                 "seconds a worker's engine pauses to build a checkpoint with work")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--handover-pause", settings.worker.handover_pause_seconds,
                 "seconds a victim's engine pauses to build a handover")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--refill", settings.worker.refill_seconds,
                 "seconds a worker explores nothing after it gets a new unit")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--interrupt", settings.worker.interrupt_seconds,
                 "seconds after which a request ends a run (negative: at the next slice boundary)")
      ->capture_default_str();
  app.add_option("--handover-share", settings.worker.handover_share,
                 "the share of a halved interval's nodes that a handover moves (0: the right "
                 "half by permutations, as the real split)")
      ->check(CLI::Range(0.0, 0.99))
      ->capture_default_str();
  bool report_ivms = false;
  app.add_flag("--report-ivms", report_ivms,
               "workers give their real IVM count (--ivms) as K_max, as worker_process.cpp "
               "does; without it, their pieces (the fits before)");
  std::string steal_rule = "ideal";
  app.add_option("--steal-rule", steal_rule,
                 "the GPU's own stealing: ideal (every piece busy, halved by nodes), or in "
                 "rounds with the largest-neighbour or the mean rule (halves by permutations)")
      ->check(CLI::IsMember({"ideal", "largest", "mean"}))
      ->capture_default_str();
  app.add_option("--round", settings.worker.round_seconds,
                 "seconds between a worker's steal phases (in rounds)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--steal-trigger", settings.worker.steal_trigger,
                 "a steal phase runs while fewer than this share of pieces is busy")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  app.add_option("--busy-exponent", settings.worker.busy_rate_exponent,
                 "a GPU's rate is (share of busy pieces)^this of the full rate (in rounds)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--host-loss", settings.worker.host_loss,
                 "the share of its rate each GPU loses when four share a host")
      ->check(CLI::Range(0.0, 0.99))
      ->capture_default_str();
  app.add_option("--global-checkpoint", settings.design.global_checkpoint_seconds,
                 "seconds between rank 0's global checkpoints")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  try {
    if (!jobs->count()) {
      const auto found = workloads().find(workload);
      if (found == workloads().end()) throw std::invalid_argument("unknown workload " + workload);
      const WorkModelShape& named = found->second;
      shape.jobs = named.jobs;
      shape.nodes = named.nodes;
    }
    settings.worker.steal_rule = steal_rules().at(steal_rule);
    const WorkModel model(shape);
    const double global_checkpoint = settings.design.global_checkpoint_seconds;
    if (design == "flat") settings.design = DesignSettings::flat();
    // The handover sweep measured at the largest count's H (the simulation resolves its own).
    const int measured_handover = handover_intervals > 0
                                      ? handover_intervals
                                      : permbb::cluster::handover_interval_cap(counts.back());
    settings.design.global_checkpoint_seconds = global_checkpoint;
    if (service.size() >= 2) {
      settings.service.fixed = service[0];
      settings.service.per_interval = service[1];
      settings.service.handover = service.size() == 3 ? service[2] : 0;
    } else {
      const ServiceModel measured =
          calibrate_service(shape.jobs, 4096, ivms, measured_handover, calibrate_seconds);
      settings.service.fixed = measured.fixed;
      settings.service.per_interval = measured.per_interval;
      settings.service.handover = measured.handover;
    }
    if (report_ivms) settings.worker.reported_ivms = ivms;
    settings.service.intervals_per_piece =
        static_cast<double>(ivms) / static_cast<double>(settings.worker.pieces);
    std::fprintf(stderr, "| GPUs | wall s | efficiency | rank 0 busy | msgs/s | exact |\n");
    for (int n : counts) {
      settings.workers = n;
      if (design != "flat") settings.design.max_handover_intervals = handover_intervals;
      const SimulationResult r = simulate(model, settings);
      std::cout << to_json(r, settings).dump() << std::endl;
      std::fprintf(stderr, "| %d | %.2f | %.3f | %.3f | %.0f | %s |\n", n, r.wall_seconds,
                   r.efficiency, r.coordinator_busy, r.messages / r.wall_seconds,
                   r.nodes == r.model_nodes && r.coverage_holds ? "yes" : "NO");
    }
  } catch (const std::exception& e) {
    std::cerr << "permbb-scale-sim: error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
