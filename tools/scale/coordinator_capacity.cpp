// How many worker checkpoints the coordinator handles per second on one core, with units of
// K intervals at n jobs (2022 §4.1.1: GMP marshalling and interval conversions saturate the
// paper's coordinator at a few hundred GPUs). One checkpoint is what the coordinator's loop
// does per WORK message: decode the bytes, handle() (intersect with the copy), encode the
// reply. Each step is timed apart, so the table says where the time goes. A second table
// gives the cost of a handover (GIVE), which replaces a victim's checkpoint.
//
// Usage: permbb-bench-coordinator [--seconds S]    (prints a Markdown table)
#include <cstdio>
#include <cstring>
#include <string>

#include "checkpoint_cost.hpp"

int main(int argc, char** argv) {
  double seconds = 1.0;
  if (argc == 3 && std::strcmp(argv[1], "--seconds") == 0) seconds = std::stod(argv[2]);
  std::printf("| n | K intervals | checkpoints/s | decode | handle | encode reply |\n");
  std::printf("|---:|---:|---:|---:|---:|---:|\n");
  for (int n : {20, 50, 100}) {
    for (int k : {256, 1024, 16384}) {
      const permbb::scale::CheckpointCost t = permbb::scale::measure_checkpoint_cost(n, k, seconds);
      const double total = t.decode + t.handle + t.encode;
      std::printf("| %d | %d | %.0f | %.0f%% | %.0f%% | %.0f%% |\n", n, k, t.checkpoints / total,
                  100 * t.decode / total, 100 * t.handle / total, 100 * t.encode / total);
      std::fflush(stdout);
    }
  }
  // A handover (GIVE) of H = 256 intervals from a worker whose copy holds K: what rank 0
  // spends instead of a checkpoint when a victim splits its own work.
  std::printf("\n| n | K intervals | handover of 256: microseconds |\n|---:|---:|---:|\n");
  for (int n : {20, 50, 100}) {
    for (int k : {1024, 16384}) {
      const double s = permbb::scale::measure_handover_sweep(n, k, 256, seconds);
      std::printf("| %d | %d | %.0f |\n", n, k, s * 1e6);
      std::fflush(stdout);
    }
  }
  return 0;
}
