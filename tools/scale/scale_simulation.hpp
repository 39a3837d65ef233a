#pragma once
// A cluster of N virtual GPU workers around the real coordinator, on a virtual clock
// (discrete events). Every message goes through the real encoders and decoders and the real
// Coordinator::handle; rank 0 serves one message at a time, each for its service time, so a
// coordinator that cannot keep up makes workers wait, as it would on a machine. Workers are
// VirtualWorkers over a WorkModel. docs/scale.md says what is modelled and what is not.
#include <cstdint>
#include <vector>

#include "virtual_worker.hpp"
#include "work_model.hpp"

namespace permbb::scale {

// Rank 0's cost of one message: decode, handle, encode the replies, in seconds. `fixed` per
// message plus `per_interval` per interval the message and its replies carry, as measured on
// this machine (calibrate_service), times `cpu_scale` for another CPU (0.5: twice as fast).
struct ServiceModel {
  double fixed = 2e-6;
  double per_interval = 2e-7;
  // A handover's sweep of the owner's copy (WorkPool::hand_over), at the real K and H.
  double handover = 0;
  double cpu_scale = 1.0;
  // Intervals a real worker's message holds for each one a virtual worker's holds: its K IVMs
  // over the `pieces` the simulation tracks (16,384 / 64 for an H200's default).
  double intervals_per_piece = 1.0;
};

// The network between ranks: latency + bytes / bandwidth.
struct NetworkModel {
  double latency_seconds = 2e-6;
  double bytes_per_second = 1e10;
};

// The design under test. Today's: victims hand a part over (GIVE), a split or handover moves
// at most H intervals, and the workers' periodic checkpoints are stretched with their count
// (report_cadence.hpp). flat(): the design before it, whose rank 0 saturates: victims answer
// by a checkpoint that the coordinator splits, a split moves all of a GPU's intervals, and
// every GPU worker checkpoints every 5 s.
struct DesignSettings {
  bool handovers = true;
  bool stretched_reports = true;
  // H (0: as permbb solve chooses it for the worker count, cluster::handover_interval_cap).
  int max_handover_intervals = 0;
  // Rank 0 saves the global checkpoint (every interval of every copy) this often.
  double global_checkpoint_seconds = 300;
  // The silence after which rank 0 declares a worker lost (--rank-timeout's default).
  double rank_timeout_seconds = 120;

  static DesignSettings flat();
};

struct SimulationSettings {
  int workers = 1;
  WorkerModel worker;
  ServiceModel service;
  NetworkModel network;
  DesignSettings design;
};

struct SimulationResult {
  int workers = 0;
  double wall_seconds = 0;        // until the last farewell was handled
  double ideal_seconds = 0;       // nodes / (workers x nodes_per_second)
  double efficiency = 0;          // ideal / wall
  double coordinator_busy = 0;    // fraction of the wall time rank 0 served messages
  std::uint64_t nodes = 0;        // counted by the coordinator from the workers' messages
  std::uint64_t model_nodes = 0;  // the work model's total: equal when accounting is exact
  std::uint64_t messages = 0;     // both directions
  double bytes = 0;               // both directions, real encodings scaled by intervals_per_piece
  double mean_idle_seconds = 0;   // per worker: wall less exploring
  double max_idle_seconds = 0;
  // The workers' mean share of busy pieces while exploring, and the most seconds one of
  // them explored with fewer than half busy (1 and 0 for ideal workers).
  double mean_busy_share = 1;
  double max_thin_seconds = 0;
  std::uint64_t splits = 0;
  std::uint64_t handovers = 0;
  int handover_intervals = 0;  // H as the run used it
  double checkpoint_period_seconds = 0;  // a worker's unsolicited checkpoints
  bool coverage_holds = false;
};

// Runs the search of `model` to its end with settings.workers workers.
SimulationResult simulate(const WorkModel& model, const SimulationSettings& settings);

// Measures ServiceModel::fixed and per_interval on this machine: the real decode, handle
// and encode of checkpoints with few and with many intervals (at the model's job count), and
// the handover sweep of a copy of `ivms` intervals losing `handover_intervals`.
ServiceModel calibrate_service(int jobs, int intervals, int ivms, int handover_intervals,
                               double seconds);

}  // namespace permbb::scale
