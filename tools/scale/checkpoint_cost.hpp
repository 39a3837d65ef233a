#pragma once
// What one worker checkpoint costs rank 0 (2022 §4.1.1: GMP marshalling and interval
// conversions saturate the paper's coordinator at a few hundred GPUs): decode the bytes,
// handle() (intersect with the copy), encode the reply, each step timed apart, with units of
// K intervals at n jobs. permbb-bench-coordinator prints it as a table; the scale simulator
// calibrates its service times with it.
namespace permbb::scale {

struct CheckpointCost {
  double decode = 0, handle = 0, encode = 0;  // seconds, summed over the checkpoints
  long checkpoints = 0;
  double seconds_per_checkpoint() const {
    return checkpoints > 0 ? (decode + handle + encode) / checkpoints : 0;
  }
};

// Two workers hold one unit each (K intervals spread over [0, n!)); worker 0 checkpoints
// again and again for about `seconds`, each time a little further into every interval.
CheckpointCost measure_checkpoint_cost(int jobs, int intervals, double seconds);

// Seconds rank 0 spends in handle() for one Handover of `given` intervals from a worker whose
// copy holds `intervals` (the sweep of WorkPool::hand_over), averaged over about `seconds`.
double measure_handover_sweep(int jobs, int intervals, int given, double seconds);

}  // namespace permbb::scale
