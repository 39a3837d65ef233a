#pragma once
// How many CPU cores a process may use. A launcher may bind a process to a few cores (Open
// MPI binds each rank to one core when it starts at most two): counting the machine's
// hardware threads then starts threads that all share those few cores, and a GPU feeder
// thread among them starves (12x fewer nodes/s seen with a bound rank and 30 heuristic
// threads). The affinity mask is what the process really has.
namespace permbb {

// The CPUs in this process's affinity mask (at least 1).
int cores_available();

// This process's share of the cores when `processes_on_node` processes share the node: the
// affinity mask when a launcher narrowed it (it is then this process's share already), else
// the node's hardware threads less `reserved_cores` (for a process not counted, such as a
// cluster's rank 0) divided evenly. At least 1.
int cores_per_process(int processes_on_node, int reserved_cores = 0);

// A cluster worker's share when `ranks_on_node` ranks share its node: rank 0, when it is one
// of them, is not a worker and keeps one core, since every handover waits for its loop
// (docs/scale.md, "Where a wait for work goes").
int cores_per_worker(int ranks_on_node, bool rank_zero_here);

}  // namespace permbb
