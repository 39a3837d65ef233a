// Fuzz target: the cluster message decoders (common/protocol/protocol.hpp), every tag, both directions.
// The first byte picks the receiver (bit 0: 0 the coordinator, 1 a worker) and the MPI tag
// ((byte >> 1) mod 7: the five tags and two unknown ones); the rest is the payload.
//
// A refusal is a std::runtime_error naming the message (the protocol's contract: a malformed
// payload is a peer's fault, not the user's). A decoded message holds the invariants the
// coordinator relies on, re-encodes under the same tag to the very payload it came from, and
// decodes again to itself.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "fuzz_support.hpp"
#include "interval_checks.hpp"
#include "protocol.hpp"

namespace permbb::fuzz {
namespace {

using namespace permbb::cluster;

void check_solution(const Schedule& s) {
  check(s.makespan >= 0, "a decoded makespan is negative");
  std::vector<bool> seen(s.permutation.size(), false);
  for (const int job : s.permutation) {
    check(job >= 0 && static_cast<std::size_t>(job) < seen.size() && !seen[job],
          "a decoded schedule is not a permutation");
    seen[job] = true;
  }
}

void check_invariants(const WorkReport& m) {
  check(m.max_intervals >= 1 && m.intervals.size() <= static_cast<std::size_t>(m.max_intervals),
        "a decoded report exceeds its K_max");
  check(m.best_makespan >= 0, "a decoded makespan is negative");
  check_sorted_disjoint(m.intervals, "decoded intervals are not sorted and disjoint");
}
void check_invariants(const WorkAssignment& m) {
  check_solution(m.best);
  check_sorted_disjoint(m.intervals, "decoded intervals are not sorted and disjoint");
}
void check_invariants(const Farewell& m) {
  check_solution(m.best);
  check_sorted_disjoint(m.intervals, "decoded intervals are not sorted and disjoint");
}
void check_invariants(const BestMessage& m) {
  check_solution(m.best);
}
void check_invariants(const StopOrder&) {}
void check_invariants(const CheckpointRequest&) {}
void check_invariants(const GiveRequest& m) {
  check(m.max_intervals >= 1, "a decoded GiveRequest asks for fewer than one interval");
}
void check_invariants(const Handover& m) {
  check(m.best_makespan >= 0, "a decoded makespan is negative");
  check(sgn(m.kept_size) >= 0, "a decoded kept size is negative");
  check_sorted_disjoint(m.intervals, "decoded intervals are not sorted and disjoint");
}

// How a refusal's message starts: the message's name, or the sender for a tag the receiver
// does not expect (unknown, or CKPT from a worker).
std::string expected_prefix(int tag, bool to_worker) {
  const bool known = tag >= 1 && tag <= 5;
  const bool expected = known && (to_worker || tag != static_cast<int>(Tag::kCheckpointRequest));
  if (expected) return to_string(static_cast<Tag>(tag)) + " message";
  return to_worker ? "message from the coordinator" : "message from a worker";
}

// Decodes with `decode`, checks, re-encodes with `encode`, decodes again.
template <class Decode, class Encode>
void run(int tag, bool to_worker, ByteSpan payload, Decode decode, Encode encode) {
  const std::string prefix = expected_prefix(tag, to_worker);
  const auto message = decode_or_refuse<std::runtime_error>(
      [&] { return decode(tag, payload); },
      [&](std::string_view text) {
        if (text.substr(0, prefix.size()) != prefix) {
          fail("the refusal does not start with " + prefix + ": " + std::string(text));
        }
      });
  if (!message) return;
  std::visit([](const auto& m) { check_invariants(m); }, *message);
  Encoded again;
  check_no_exception([&] { again = encode(*message); }, "a decoded message does not encode");
  check(static_cast<int>(again.tag) == tag, "a decoded message re-encodes under another tag");
  check(again.bytes == Bytes(payload.begin(), payload.end()),
        "a decoded message does not re-encode to the same payload");
  check(decode(tag, again.bytes) == *message, "a re-encoded message decodes to another one");
}

}  // namespace
}  // namespace permbb::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace permbb::fuzz;
  if (size == 0) return 0;
  const bool to_worker = (data[0] & 1) != 0;
  const int tag = (data[0] >> 1) % 7;
  const ByteSpan payload(data + 1, size - 1);
  if (to_worker) {
    run(tag, true, payload, decode_from_coordinator, encode_for_worker);
  } else {
    run(tag, false, payload, decode_from_worker, encode_for_coordinator);
  }
  return 0;
}
