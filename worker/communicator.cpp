#include "communicator.hpp"

#include <chrono>

#include "mpi_transport.hpp"

namespace permbb::cluster {
namespace {

constexpr int kCoordinator = 0;
// How often an idle communicator looks for a checkpoint request: it sleeps in between.
constexpr auto kIdlePoll = std::chrono::milliseconds(2);

// A message from the coordinator: a checkpoint or give request is noted in the mailbox
// (true); anything else is the reply (false).
bool noted_request(Mailbox& mailbox, const Received& received) {
  if (received.tag == static_cast<int>(Tag::kCheckpointRequest)) {
    mailbox.request_checkpoint();
    return true;
  }
  if (received.tag == static_cast<int>(Tag::kGive)) {
    mailbox.request_give(decode_give_request(received.bytes).max_intervals);
    return true;
  }
  return false;
}

void send(const ToCoordinator& message) {
  const Encoded encoded = encode_for_coordinator(message);
  send_bytes(kCoordinator, static_cast<int>(encoded.tag), encoded.bytes);
}

ToWorker wait_reply(Mailbox& mailbox) {
  while (true) {
    const Received received = receive_from(kCoordinator);
    if (noted_request(mailbox, received)) continue;
    return decode_from_coordinator(received.tag, received.bytes);
  }
}

}  // namespace

void communicator_main(Mailbox& mailbox) {
  try {
    while (true) {
      const auto message = mailbox.wait_outgoing(kIdlePoll);
      if (!message) {
        while (const auto received = poll(kCoordinator)) {
          if (!noted_request(mailbox, *received)) {
            throw std::runtime_error("unexpected message (tag " + std::to_string(received->tag) +
                                     ") from the coordinator while no request was pending");
          }
        }
        continue;
      }
      send(*message);
      if (std::holds_alternative<Farewell>(*message)) return;
      mailbox.deliver(wait_reply(mailbox));
    }
  } catch (...) {
    mailbox.fail(std::current_exception());
  }
}

}  // namespace permbb::cluster
