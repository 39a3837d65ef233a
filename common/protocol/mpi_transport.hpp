#pragma once
// Every MPI call of permbb lives here (style.md: one comm module). The coordinator's loop and
// the workers' communicator threads exchange encoded protocol messages (protocol.hpp) as
// MPI_BYTE buffers sized to the message, under the message's tag. MPI is initialised with
// MPI_THREAD_SERIALIZED (2022 §4.2.2): in a worker only the communicator thread calls MPI.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cpu_cores.hpp"

namespace permbb::cluster {

// True when this process was started by mpirun/srun (and so must call MPI_Init): the
// launcher's environment variables are present.
bool launched_by_mpi_launcher();

// This process's rank as the launcher's environment says it, before MPI starts (0 when none
// says it): for the one line that a refusal of every rank prints once.
int launcher_rank();

// This process's place among the ranks of its node as the launcher's environment says it,
// before MPI starts (Open MPI's mpirun, MPICH's Hydra), if one says it: the GPU a worker will
// take, guessed early (gpu::DriverStart). MpiSession::local_rank() is the one that counts.
std::optional<int> launcher_local_rank();

// The MPI library's name and version, first line (MPI_Get_library_version: callable before
// MPI_Init), for `permbb --version`.
std::string mpi_library_version();

// MPI for the lifetime of this object.
class MpiSession {
 public:
  MpiSession(int* argc, char*** argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  // Rank and rank count on this node (ranks pick their GPU by it).
  int local_rank() const { return local_rank_; }
  int local_size() const { return local_size_; }
  // The affinity masks of this node's ranks, by node-local rank (read as MPI starts), and
  // rank 0's node-local rank, -1 when it runs on another node: a worker's share of the cores
  // (worker_cores).
  const std::vector<CpuMask>& node_masks() const { return node_masks_; }
  int rank_zero_local_rank() const { return rank_zero_local_rank_; }
  // The host that runs `rank` (MPI_Get_processor_name, gathered at the start); empty for a
  // rank outside [0, size).
  std::string host_name(int rank) const;
  // "rank R (host NAME)", or "rank R" when the host is unknown: for messages naming a rank.
  std::string rank_name(int rank) const;
  // The node-local rank of `rank` (gathered at the start), -1 outside [0, size): the layout
  // the result reports, which decides each worker's GPU.
  int local_rank_of(int rank) const;

 private:
  int rank_ = 0;
  int size_ = 1;
  int local_rank_ = 0;
  int local_size_ = 1;
  int rank_zero_local_rank_ = 0;
  std::vector<CpuMask> node_masks_;
  std::vector<std::string> host_names_;
  std::vector<int> local_ranks_;

  void gather_host_names();
  void gather_local_ranks();
};

struct Received {
  int source = 0;
  int tag = 0;
  std::vector<std::uint8_t> bytes;
};

void send_bytes(int destination, int tag, const std::vector<std::uint8_t>& bytes);

// Sends that never block the caller (MPI_Isend): the coordinator must go on when a worker
// stops receiving (SIGSTOP), and an MPI_Send to such a rank blocks as soon as its buffers
// fill, even for a few hundred bytes. Messages to one destination arrive in the order sent.
// Each buffer is kept until its send completes.
class AsyncSends {
 public:
  AsyncSends();
  ~AsyncSends();  // leaves unfinished sends to MPI_Abort: call wait_all() before MPI_Finalize
  AsyncSends(const AsyncSends&) = delete;
  AsyncSends& operator=(const AsyncSends&) = delete;

  void send(int destination, int tag, std::vector<std::uint8_t> bytes);
  // Frees the buffers of the sends that have completed (MPI_Test); never blocks.
  void progress();
  // Blocks until every send has completed (all destinations are receiving).
  void wait_all();
  std::size_t pending() const;

 private:
  struct Pending;
  std::vector<std::unique_ptr<Pending>> pending_;
};
// Blocks for the next message from `source`.
Received receive_from(int source);
// The next message from `source` (default: anyone), if one has arrived (MPI_Iprobe);
// never blocks.
std::optional<Received> poll(int source = -1);

// The largest of every rank's `value` (MPI_Allreduce). Collective: every rank calls it at the
// same point, before any thread of its own calls MPI.
int max_over_ranks(int value);

// Whether every rank reached this call within `seconds` (MPI_Ibarrier, polled). Collective,
// and called by one thread per rank. False leaves the barrier unfinished: the caller then
// ends the job with abort_job, since MPI_Finalize would wait for the missing rank forever.
bool barrier_within(double seconds);

// Ends the whole job (MPI_Abort) after printing `message` on stderr; for failures that
// would otherwise leave other ranks waiting forever. Only main() calls it; MPI_Abort does
// not return in practice, and if it did main returns `exit_code` itself.
void abort_job(const std::string& message, int exit_code);

}  // namespace permbb::cluster
