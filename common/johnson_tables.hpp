#pragma once
#include <vector>

#include "flowshop_types.hpp"
#include "instance.hpp"
#include "lb2.hpp"

namespace permbb {

// Which machine pairs the two-machine bound LB2 considers (Lageweg et al. 1978).
enum class MachinePairs { kAll, kAdjacent };

// Built once per instance: the machine pairs, the time lags between the two machines of each
// pair (the jobs' total time on the machines strictly between them) and each pair's jobs in
// Johnson's order for (p_a + lag, lag + p_b) (Mitten's extension of Johnson's rule). The
// bound then only sweeps the pre-sorted orders, skipping scheduled jobs.
class JohnsonTables {
 public:
  JohnsonTables(const Instance& instance, MachinePairs pairs);

  JohnsonView view() const;
  int pair_count() const { return static_cast<int>(machine_a_.size()); }

 private:
  int jobs_;
  std::vector<int> machine_a_;
  std::vector<int> machine_b_;
  std::vector<Time> lags_;  // [pair * jobs + job]
  std::vector<int> orders_;  // [pair * jobs + rank] = job
};

}  // namespace permbb
