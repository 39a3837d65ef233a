#pragma once
// Every MPI call of permbb lives here (style.md: one comm module). The coordinator's loop and
// the workers' communicator threads exchange encoded protocol messages (protocol.hpp) as
// MPI_BYTE buffers sized to the message, under the message's tag. MPI is initialised with
// MPI_THREAD_SERIALIZED (2022 §4.2.2): in a worker only the communicator thread calls MPI.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace permbb::cluster {

// True when this process was started by mpirun/srun (and so must call MPI_Init): the
// launcher's environment variables are present.
bool launched_by_mpi_launcher();

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

 private:
  int rank_ = 0;
  int size_ = 1;
  int local_rank_ = 0;
  int local_size_ = 1;
};

struct Received {
  int source = 0;
  int tag = 0;
  std::vector<std::uint8_t> bytes;
};

void send_bytes(int destination, int tag, const std::vector<std::uint8_t>& bytes);
// Blocks for the next message from `source`.
Received receive_from(int source);
// The next message from `source` (default: anyone), if one has arrived (MPI_Iprobe);
// never blocks.
std::optional<Received> poll(int source = -1);

// The largest of every rank's `value` (MPI_Allreduce). Collective: every rank calls it at the
// same point, before any thread of its own calls MPI.
int max_over_ranks(int value);

// Ends the whole job (MPI_Abort) after printing `message` on stderr; for failures that
// would otherwise leave other ranks waiting forever. Only main() calls it; MPI_Abort does
// not return in practice, and if it did main returns `exit_code` itself.
void abort_job(const std::string& message, int exit_code);

}  // namespace permbb::cluster
