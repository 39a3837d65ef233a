#pragma once
#include "mailbox.hpp"

namespace permbb::cluster {

// The body of a worker's communicator thread (2022 §4.2.2): the only thread of a worker that
// calls MPI. It sends what the explorer posts in the mailbox, waits for the coordinator's one
// reply and delivers it; while idle it looks for checkpoint requests. It returns after
// sending the Farewell; a failure is handed to the explorer through the mailbox.
void communicator_main(Mailbox& mailbox);

}  // namespace permbb::cluster
