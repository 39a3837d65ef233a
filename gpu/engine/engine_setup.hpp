#pragma once
// The configuration of a GpuEngine, decided once from the instance and the device: where
// warps keep their IVM (shared or global memory), whether the processing times are copied
// to shared memory, the number K of IVMs and the steps per launch (docs/gpu.md, "Sizing").
#include <vector>

#include "device_buffer.hpp"
#include "device_types.hpp"
#include "flowshop_tables.hpp"
#include "gpu_engine.hpp"
#include "johnson_tables.hpp"
#include "search_settings.hpp"

namespace permbb::gpu {

// The instance tables in device memory (FlowshopTables' arrays).
struct DeviceData {
  DeviceBuffer<Time> times_by_job, min_heads, min_tails, total_times;
  DeviceBuffer<int> machine_a, machine_b;   // LB2: Johnson's tables
  DeviceBuffer<JohnsonEntry> sequence;
};

struct EngineSetup {
  GpuEngineInfo info;
  ExploreParams params;  // control pointer still unset
};

// Selects the device, uploads the tables (and Johnson's, for LB2 bounds) into `data`, sizes
// everything. Throws
// std::invalid_argument for a bad device index or a forced placement that does not fit,
// std::runtime_error when no device is visible.
EngineSetup prepare_engine(const FlowshopTables& tables, const JohnsonTables* johnson,
                           const SearchSettings& settings, const GpuOptions& options,
                           DeviceData& data);

// The makespan of a complete schedule (the host's check of what the device reports).
Time makespan_of(const FlowshopTables& tables, const std::vector<int>& schedule);

}  // namespace permbb::gpu
