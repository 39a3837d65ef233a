#pragma once
#include "flowshop_types.hpp"
#include "host_device.hpp"

namespace permbb {

// The read-only instance data the bounds need, as plain pointers so the same view works on
// the host and on the device. FlowshopTables (host) owns the arrays.
struct FlowshopView {
  int jobs = 0;
  int machines = 0;
  // Job-major processing times: time(job, k) = times_by_job[job * machines + k], so that
  // evaluating one job on all machines walks contiguous memory.
  const Time* times_by_job = nullptr;
  // min_heads[k]: the smallest head over all jobs, a job's head on machine k being the sum of
  // its times on machines 0..k-1. It stands in for an empty prefix's completion times.
  const Time* min_heads = nullptr;
  // min_tails[k]: the smallest tail over all jobs (sum of its times on machines k+1..m-1);
  // it stands in for an empty suffix.
  const Time* min_tails = nullptr;
  // total_times[k]: the sum over all jobs of their time on machine k.
  const Time* total_times = nullptr;

  PERMBB_HD Time time(int job, int machine) const { return times_by_job[job * machines + machine]; }
};

}  // namespace permbb
