#pragma once
// The messages between the coordinator and the workers of the cluster level (Gmys et al.
// 2022, §4, Algorithm 1): plain structs, and their encoding as byte vectors. No MPI here: the
// transport sends an encoded payload as MPI_BYTE under its tag, and the receiver, who knows its
// own role, decodes it with the decoder of that direction.
//
// Message tags (the one table; tag values are MPI tags):
//
// | tag  | value | direction            | struct         | payload                               |
// |------|-------|----------------------|----------------|---------------------------------------|
// | WORK | 1     | worker → coordinator | WorkReport     | a worker checkpoint: unit id, nodes   |
// |      |       |                      |                | and leaves since the last checkpoint, |
// |      |       |                      |                | K_max, the worker's best makespan,    |
// |      |       |                      |                | its remaining intervals (sorted), the |
// |      |       |                      |                | cut records of those nodes (optional) |
// | WORK | 1     | coordinator → worker | WorkAssignment | a new or modified unit (id, intervals)|
// |      |       |                      |                | and the global best solution          |
// | BEST | 2     | worker → coordinator | BestMessage    | a candidate solution                  |
// | BEST | 2     | coordinator → worker | BestMessage    | the global best (the default reply)   |
// | END  | 3     | coordinator → worker | StopOrder      | nothing: stop, then say goodbye       |
// | END  | 3     | worker → coordinator | Farewell       | "I left": unit id, nodes and leaves   |
// |      |       |                      |                | since the last checkpoint, the last   |
// |      |       |                      |                | best solution, remaining intervals,   |
// |      |       |                      |                | where its time went (WorkerTimes),    |
// |      |       |                      |                | the cut records (optional)            |
// | CKPT | 4     | coordinator → worker | CheckpointRe-  | nothing: checkpoint soon (a stop)     |
// |      |       |                      | quest          |                                       |
// | GIVE | 5     | coordinator → worker | GiveRequest    | another worker waits for work: hand   |
// |      |       |                      |                | over a part, at most K_max intervals  |
// | GIVE | 5     | worker → coordinator | Handover       | the part handed over (sorted), the    |
// |      |       |                      |                | size kept; no node counts (below)     |
//
// Every message to the coordinator is answered: a worker sends one message and waits for the
// reply (§4.2.2), except Farewell, its last word, which gets none; the reply to a WORK with
// an empty unit waits while no work is free (the worker is "hungry", coordinator.hpp). A
// worker starts by sending a WorkReport with an empty unit (id 0), which the coordinator
// answers with its first work. CheckpointRequest and GiveRequest are the unsolicited
// messages: they may reach a worker at any time (also while it waits for a reply) and are not
// answered themselves. A CheckpointRequest hastens the next checkpoint. A GiveRequest asks
// for a Handover; both end the worker's slice in progress (WorkerSettings::interrupt_slices),
// and at that slice's end the worker splits what it has
// (WorkUnit::split, the same split as the coordinator's) and goes on with the rest, without
// waiting for the reply (BEST), as nothing it kept can change. A GiveRequest that finds a
// checkpoint (WORK) posted or in flight is void: the coordinator sent it before it handled
// that checkpoint, which answers it (the coordinator splits the reported unit instead).
//
// Wire format: a one-byte payload kind (so that a payload decoded as the wrong message fails
// at once), then the fields in the order of the structs, integers little-endian (ByteWriter).
// An interval list is a uint32 count, then per interval its begin and its length as binary
// GMP integers (the length is much shorter than the end once intervals get small). Payloads
// have no version; decoders validate everything (kinds, counts against the bytes left,
// sorted non-empty disjoint intervals, permutations, no trailing bytes) and throw
// std::runtime_error naming the message on any malformed or truncated payload.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "cut_record.hpp"
#include "flowshop_types.hpp"
#include "interval.hpp"
#include "schedule.hpp"

namespace permbb::cluster {

enum class Tag : int { kWork = 1, kBest = 2, kEnd = 3, kCheckpointRequest = 4, kGive = 5 };

// "WORK", "BEST", "END", "CKPT", "GIVE".
std::string to_string(Tag tag);

// WORK, worker → coordinator: a worker checkpoint (§4.1). Counters are deltas since the
// previous checkpoint, so the coordinator's sums are exact totals.
struct WorkReport {
  static constexpr Tag kTag = Tag::kWork;
  std::int64_t unit_id = 0;
  std::uint64_t decomposed = 0;        // nodes decomposed since the last checkpoint
  std::uint64_t leaves = 0;            // leaves evaluated since the last checkpoint
  std::int32_t max_intervals = 1;      // K_max: at least 1, and at least intervals.size()
  Time best_makespan = kInfiniteTime;  // the worker's best (schedules go by BEST)
  std::vector<Interval> intervals;     // what is left of the unit, sorted, disjoint
  // Certificates (docs/audit.md): the cut records of the nodes counted in this report, as
  // a flag byte (0: none, 1: records) and cut_record_codec.hpp's form; the coordinator
  // merges them as it adds the counts, so records travel with the counts they belong to.
  std::optional<CutRecords> cut = std::nullopt;

  friend bool operator==(const WorkReport&, const WorkReport&) = default;
};

// WORK, coordinator → worker: the unit that replaces the worker's (§4.1, Line 14).
struct WorkAssignment {
  static constexpr Tag kTag = Tag::kWork;
  std::int64_t unit_id = 0;
  std::vector<Interval> intervals;  // sorted, disjoint; empty only to withdraw all work
  Schedule best;                    // the global best

  friend bool operator==(const WorkAssignment&, const WorkAssignment&) = default;
};

// BEST, both directions: a candidate (worker → coordinator) or the global best (reply).
struct BestMessage {
  static constexpr Tag kTag = Tag::kBest;
  Schedule best;

  friend bool operator==(const BestMessage&, const BestMessage&) = default;
};

// END, coordinator → worker: stop exploring, send a Farewell, exit.
struct StopOrder {
  static constexpr Tag kTag = Tag::kEnd;

  friend bool operator==(const StopOrder&, const StopOrder&) = default;
};

// CKPT, coordinator → worker: checkpoint soon (unsolicited, unanswered).
struct CheckpointRequest {
  static constexpr Tag kTag = Tag::kCheckpointRequest;

  friend bool operator==(const CheckpointRequest&, const CheckpointRequest&) = default;
};

// GIVE, coordinator → worker: a worker waits for work; hand over a part of yours, at most
// `max_intervals` intervals (unsolicited, answered by a Handover).
struct GiveRequest {
  static constexpr Tag kTag = Tag::kGive;
  std::int32_t max_intervals = 1;  // at least 1

  friend bool operator==(const GiveRequest&, const GiveRequest&) = default;
};

// GIVE, worker → coordinator: the part of its unit a worker handed over (taken from what it
// had left, so inside its copy), and the size of what it kept. Answered by BEST (or END).
// It carries no node counts: the coordinator's copy of the kept part moves on only at the
// next WorkReport (or Farewell), so nodes counted now would belong to work that a global
// checkpoint written meanwhile still holds, and a restart from it would count them twice.
// The worker's counters run on until that message.
struct Handover {
  static constexpr Tag kTag = Tag::kGive;
  std::int64_t unit_id = 0;            // the unit the part comes from
  Time best_makespan = kInfiniteTime;
  mpz_class kept_size;                 // ||what the worker kept||
  std::vector<Interval> intervals;     // what it handed over, sorted, disjoint

  friend bool operator==(const Handover&, const Handover&) = default;
};

// Where a worker's wall time went, from its first request for work to its farewell, as its
// explorer thread spent it (sent with the farewell; the `cluster.worker_times` of the result).
// The parts add up to wall_seconds: what none of them names is `other_seconds`.
struct WorkerTimes {
  double wall_seconds = 0;
  double explore_seconds = 0;     // inside the engine's explore(): its explorers at work
  double checkpoint_seconds = 0;  // building checkpoints, and waiting for their replies
  double handover_seconds = 0;    // building handovers (split, engine refilled)
  double work_wait_seconds = 0;   // waiting for work: nothing to explore, no reply yet
  double hybrid_seconds = 0;      // between slices: subproblems promoted to the heuristics
  double other_seconds = 0;       // the rest: replies applied, the loop itself
  // Of explore_seconds: the time with fewer than half the explorers holding work (sampled
  // at the end of every slice), and the mean share of explorers holding work.
  double thin_seconds = 0;
  double busy_explorer_share = 0;
  // Two readings beside the phases (not in the sum): the seconds spent setting the engine to
  // units received (part of other_seconds), and, as a victim, from each GiveRequest's arrival
  // to the start of its handover (the engine's pause at the end of its round, within
  // explore_seconds). With the coordinator's timings (CoordinatorRun::waits) they split a
  // wait for work into the victim's answer, the coordinator and the messages.
  double assign_seconds = 0;
  double give_latency_seconds = 0;

  friend bool operator==(const WorkerTimes&, const WorkerTimes&) = default;
};

// END, worker → coordinator: the worker has left. `intervals` is what it had not explored
// (empty when the search is over; a stopped search hands it back, so nothing is lost).
struct Farewell {
  static constexpr Tag kTag = Tag::kEnd;
  std::int64_t unit_id = 0;
  std::uint64_t decomposed = 0;  // since the last checkpoint
  std::uint64_t leaves = 0;      // since the last checkpoint
  Schedule best;                 // the worker's last best solution
  std::vector<Interval> intervals;
  WorkerTimes times;             // where its time went
  std::optional<CutRecords> cut = std::nullopt;  // the records counted here, as in WorkReport

  friend bool operator==(const Farewell&, const Farewell&) = default;
};

// What each side receives. A worker's reply is a WorkAssignment, a BestMessage or a
// StopOrder; a CheckpointRequest or GiveRequest is never a reply (the worker's transport
// picks them out by their tags).
using ToCoordinator = std::variant<WorkReport, BestMessage, Farewell, Handover>;
using ToWorker =
    std::variant<WorkAssignment, BestMessage, StopOrder, CheckpointRequest, GiveRequest>;

using Bytes = std::vector<std::uint8_t>;
using ByteSpan = std::span<const std::uint8_t>;

// One message on the wire.
struct Encoded {
  Tag tag;
  Bytes bytes;
};

// Encoders: the buffer is sized to the message before it is written. Throw
// std::invalid_argument on a message that could not be decoded (e.g. unsorted intervals).
Bytes encode(const WorkReport& message);
Bytes encode(const WorkAssignment& message);
Bytes encode(const BestMessage& message);
Bytes encode(const StopOrder& message);
Bytes encode(const CheckpointRequest& message);
Bytes encode(const Farewell& message);
Bytes encode(const GiveRequest& message);
Bytes encode(const Handover& message);
Encoded encode_for_coordinator(const ToCoordinator& message);
Encoded encode_for_worker(const ToWorker& message);

// Decoders: throw std::runtime_error naming the message on malformed or truncated payloads.
WorkReport decode_work_report(ByteSpan bytes);
WorkAssignment decode_work_assignment(ByteSpan bytes);
BestMessage decode_best(ByteSpan bytes);
StopOrder decode_stop_order(ByteSpan bytes);
CheckpointRequest decode_checkpoint_request(ByteSpan bytes);
Farewell decode_farewell(ByteSpan bytes);
GiveRequest decode_give_request(ByteSpan bytes);
Handover decode_handover(ByteSpan bytes);
// By the MPI tag; an unknown tag throws std::runtime_error too.
ToCoordinator decode_from_worker(int tag, ByteSpan bytes);
ToWorker decode_from_coordinator(int tag, ByteSpan bytes);

}  // namespace permbb::cluster
