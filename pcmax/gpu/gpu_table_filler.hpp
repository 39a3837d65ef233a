#pragma once
// The P||Cmax DP on a GPU (Li et al. §III): a TableFiller whose tables are filled on the
// device, one kernel launch per level of each block (no dynamic parallelism: a thread per
// state runs evaluate_state, the CPU's code), the tables of one bisection round concurrently,
// each from its own host thread on its own CUDA stream (the paper's concurrent targets of
// the quarter split, there on Hyper-Q queues).
//
// Each table's device memory is planned against a budget (partition_plan.hpp): the whole
// table when it fits, else a ring window of the entries that configurations still reach,
// blocks computed in order and copied to the host table. A table that cannot be computed
// within the budget is filled on the CPU instead (FillReport::device "cpu-fallback", with a
// note saying what it needed), or refused with InputError when host_fallback is off.
//
// A stop (DpWork::control) is seen between kernel launches: the fill returns, its tables
// unfinished.
//
// Built without CUDA, make_gpu_table_filler throws std::runtime_error("built without CUDA").
#include <cstdint>
#include <memory>

#include "table_filler.hpp"

namespace permbb::pcmax::gpu {

struct GpuFillerOptions {
  int device = 0;
  // Device memory for the tables of one fill call, shared equally among them; 0: the free
  // memory at the call, less a margin (a tenth, at least 256 MiB).
  std::uint64_t memory_limit_bytes = 0;
  bool host_fallback = true;
  int fallback_threads = 0;  // CPU threads of a fallback fill (0: all)
};

std::unique_ptr<TableFiller> make_gpu_table_filler(const GpuFillerOptions& options);

}  // namespace permbb::pcmax::gpu
