#pragma once
// The DP on the CPU: a sequential path in index order (every dependency has a smaller
// index), and the level-by-level path of Li et al. Algorithm 2 with OpenMP (the paper's
// baseline), whose states are evaluated by evaluate_state (dp_step.hpp), the GPU's code.
#include <cstdint>

#include "dp_problem.hpp"
#include "dp_table.hpp"
#include "partition_plan.hpp"
#include "run_control.hpp"
#include "table_filler.hpp"

namespace permbb::pcmax {

// Every fill polls `control` (may be null) for a stop, state by state, and returns with the
// table unfinished once it asks for one; it tells `control` the states computed.
void fill_table_sequential(const DpProblem& problem, DpTable& table, RunControl* control = nullptr);

// Level by level over blocks of `block_states` states, `threads` OpenMP threads.
inline constexpr std::uint64_t kDefaultBlockStates = std::uint64_t{1} << 24;
void fill_table_parallel(const DpProblem& problem, DpTable& table, int threads,
                         std::uint64_t block_states = kDefaultBlockStates,
                         RunControl* control = nullptr);

// Fills the table as a device with this plan would: a ring of plan.window entries when
// plan.ring(), blocks copied out to the table after each. The host twin of the GPU's
// partitioned path, so tests check the partitioning logic on any machine.
void fill_table_blocked(const DpProblem& problem, DpTable& table, const PartitionPlan& plan,
                        int threads, RunControl* control = nullptr);

// All hardware threads.
int default_threads();

class CpuTableFiller : public TableFiller {
 public:
  explicit CpuTableFiller(int threads) : threads_(threads < 1 ? default_threads() : threads) {}
  std::string name() const override { return "cpu"; }
  int threads() const override { return threads_; }
  // One table after another, each with all threads (or sequentially with one); none after a
  // stop.
  void fill(std::vector<DpWork>& batch) override;

 private:
  int threads_;
};

}  // namespace permbb::pcmax
