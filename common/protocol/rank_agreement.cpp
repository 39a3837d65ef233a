#include "rank_agreement.hpp"

#include "number_text.hpp"

namespace permbb::cluster {

// Every rank, after its part: a barrier bounded by --rank-timeout. A rank stopped since its
// last message (its farewell, or the coordinator's result) would hold MPI_Finalize for ever;
// instead the job is aborted with `status`.
void meet_at_the_end(const MpiSession& session, double timeout, int status) {
  if (barrier_within(timeout)) return;
  throw AbortJob{status, "permbb: error: " + session.rank_name(session.rank()) +
                             ": another rank did not reach the end of the job within " +
                             number_text(timeout) + " s (--rank-timeout): ending the job"};
}

}  // namespace permbb::cluster
