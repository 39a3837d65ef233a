#pragma once
// How the ranks of a job start and end together (2022 §4): each rank's set-up is agreed on
// before the first message, and every rank meets the others at the end, so that bad input or
// a stopped rank ends the whole job instead of leaving the others waiting for ever.
#include <exception>
#include <iostream>
#include <optional>
#include <string>

#include "input_error.hpp"
#include "mpi_transport.hpp"

namespace permbb::cluster {

// Thrown on the ranks of a job that must end because another rank met bad input in its own
// setup (that rank reports it); main returns `status`, printing nothing more.
struct StoppedByAnotherRank {
  int status;
};

// Thrown to end the whole job at once: main prints `message` and calls MPI_Abort with
// `status`. For a rank that stopped answering: MPI_Finalize would wait for it for ever.
struct AbortJob {
  int status;
  std::string message;
};

// Bad input that one rank alone meets in its own setup (rank 0: the restart file, the
// checkpoint folder; a worker: --gpu without a GPU) must end every rank, or the others wait
// forever for it. Every rank runs its setup, then all agree before the first message. The
// lowest rank that met an input error reports it (rank 0 through main, a worker here, naming
// itself); every other rank throws StoppedByAnotherRank.
template <class Setup>
auto agreed_setup(const MpiSession& session, const Setup& setup) -> decltype(setup()) {
  using Result = decltype(setup());
  std::optional<Result> result;
  std::exception_ptr input_error;
  try {
    result.emplace(setup());
  } catch (const InputError&) {
    input_error = std::current_exception();
  }
  const int size = session.size();
  // size - (the lowest failing rank), or 0 when every setup succeeded.
  const int reporter = size - max_over_ranks(input_error ? size - session.rank() : 0);
  if (reporter == size) return std::move(*result);
  if (session.rank() == reporter) {
    if (reporter == 0) std::rethrow_exception(input_error);
    try {
      std::rethrow_exception(input_error);
    } catch (const InputError& e) {
      std::cerr << "permbb: error: rank " << reporter << ": " << e.what() << std::endl;
    }
  }
  throw StoppedByAnotherRank{kExitBadInput};
}

// Every rank, after its part: a barrier bounded by --rank-timeout. A rank stopped since its
// last message (its farewell, or the coordinator's result) would hold MPI_Finalize for ever;
// instead the job is aborted with `status`.
void meet_at_the_end(const MpiSession& session, double timeout, int status);

}  // namespace permbb::cluster
