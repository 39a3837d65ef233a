#pragma once
// How many CPU cores a process may use. A launcher may bind a process to a few cores (Open
// MPI binds each rank to one core when it starts at most two, to a socket beyond): counting
// the machine's hardware threads then starts threads that all share those few cores, and a
// GPU feeder thread among them starves (12x fewer nodes/s seen with a bound rank and 30
// heuristic threads). The affinity mask is what the process really has; the ranks of a node
// whose masks overlap share it.
#include <bitset>
#include <vector>

namespace permbb {

// The CPUs a process may run on, one bit each (as sched.h numbers them, up to 1,024).
using CpuMask = std::bitset<1024>;

// The calling thread's affinity mask (a process's, read before it starts threads); every CPU
// up to the hardware's count when it cannot be read.
CpuMask affinity_mask();

// The CPUs in this process's affinity mask (at least 1).
int cores_available();

// A cluster worker's share of the cores, from the affinity masks of its node's ranks
// (`masks`, by node-local rank; `self`: this worker's; `rank_zero`: rank 0's, or -1 when rank
// 0 runs on another node): the CPUs of its own mask, less one when rank 0's mask overlaps it
// (rank 0 explores nothing, and every handover waits for its loop), divided among the node's
// workers whose masks overlap it. So unbound ranks share the node, a rank bound to cores of
// its own takes those, and ranks bound to one socket share the socket. At least 1.
int worker_cores(const std::vector<CpuMask>& masks, int self, int rank_zero);

}  // namespace permbb
