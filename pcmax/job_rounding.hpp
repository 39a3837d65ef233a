#pragma once
// The long/short split and the rounding of Hochbaum & Shmoys for one target makespan T
// (Li et al., Algorithm 1 lines 7-8), with integer arithmetic throughout:
//
//   long jobs:  t * k > T (t > T/k);  short jobs: the others.
//   delta = max(1, floor(T / k^2)): floor(T/k^2) is 0 when T < k^2; then no rounding is
//           needed at all, as times are integers (delta = 1 rounds nothing).
//   a long job's rounded time is units * delta with units = floor(t / delta); jobs of equal
//   units form one class, a dimension of the DP table.
//   capacity = floor(T / delta): a machine's rounded long jobs fit in T iff their units sum
//           to at most capacity.
//
// Two facts the guarantee rests on (docs/pcmax.md): k * delta <= T/k < t, so every long job
// has units >= k, and t - units * delta <= delta - 1.
#include <cstdint>
#include <vector>

#include "pcmax_instance.hpp"
#include "table_shape.hpp"

namespace permbb::pcmax {

struct JobClass {
  std::uint32_t units = 0;  // rounded time / delta
  std::vector<int> jobs;    // the class's jobs, longest first (ties: lower index first)
};

struct RoundedJobs {
  Duration target = 0;  // T
  int k = 1;
  Duration delta = 1;
  std::uint64_t capacity = 0;     // floor(T / delta)
  std::vector<JobClass> classes;  // increasing units
  std::vector<int> short_jobs;    // increasing job index

  int long_jobs() const;
};

// Needs T >= max t (the bisection never goes below it), 1 <= k <= kMaxK.
RoundedJobs round_jobs(const std::vector<Duration>& times, Duration target, int k);

inline constexpr int kMaxK = 1000;

// The DP table's classes: each class's units and job count, in the classes' order.
std::vector<ClassCount> class_counts(const RoundedJobs& rounded);

}  // namespace permbb::pcmax
