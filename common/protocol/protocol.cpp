#include "protocol.hpp"

#include <array>
#include <stdexcept>
#include <utility>

#include "byte_buffer.hpp"
#include "cut_record_codec.hpp"

namespace permbb::cluster {
namespace {

// The first byte of every payload: which struct follows.
enum class Kind : std::uint8_t {
  kWorkReport = 1,
  kWorkAssignment = 2,
  kBest = 3,
  kStopOrder = 4,
  kFarewell = 5,
  kCheckpointRequest = 6,
  kGiveRequest = 7,
  kHandover = 8,
};

// Names used in error messages: the tag and the direction.
constexpr const char* kWorkReportName = "WORK message (worker -> coordinator)";
constexpr const char* kWorkAssignmentName = "WORK message (coordinator -> worker)";
constexpr const char* kBestName = "BEST message";
constexpr const char* kStopOrderName = "END message (coordinator -> worker)";
constexpr const char* kFarewellName = "END message (worker -> coordinator)";
constexpr const char* kCheckpointRequestName = "CKPT message (coordinator -> worker)";
constexpr const char* kGiveRequestName = "GIVE message (coordinator -> worker)";
constexpr const char* kHandoverName = "GIVE message (worker -> coordinator)";

// Fixed part of an encoded interval: the two uint32 lengths of its GMP integers.
constexpr std::size_t kIntervalHeader = 2 * sizeof(std::uint32_t);

// As ByteWriter::put_mpz writes it: whole 64-bit words.
std::size_t mpz_bytes(const mpz_class& value) {
  return sgn(value) == 0 ? 0 : 8 * ((mpz_sizeinbase(value.get_mpz_t(), 2) + 63) / 64);
}

// The exact encoded size of an interval list, so that the buffer is allocated once.
std::size_t intervals_size(const std::vector<Interval>& intervals) {
  std::size_t size = sizeof(std::uint32_t);
  mpz_class length;
  for (const Interval& x : intervals) {
    length = x.end - x.begin;
    size += kIntervalHeader + mpz_bytes(x.begin) + mpz_bytes(length);
  }
  return size;
}

// WorkerTimes on the wire: its fields in the order of the struct, as doubles. One list of
// the fields serves the encoder (const) and the decoder.
template <class Times>
auto worker_time_fields(Times& t) {
  return std::array{&t.wall_seconds,      &t.explore_seconds,   &t.checkpoint_seconds,
                    &t.handover_seconds,  &t.work_wait_seconds, &t.hybrid_seconds,
                    &t.other_seconds,     &t.thin_seconds,      &t.busy_explorer_share,
                    &t.assign_seconds,    &t.give_latency_seconds};
}
constexpr std::size_t kWorkerTimesBytes = 11 * sizeof(double);

// Seconds are finite and not negative, a share lies in [0, 1].
WorkerTimes get_worker_times(ByteReader& in) {
  WorkerTimes t;
  for (double* field : worker_time_fields(t)) {
    *field = in.get_double();
    if (!(*field >= 0 && *field < 1e12)) {
      throw std::runtime_error(std::string(kFarewellName) + ": a time of " +
                               std::to_string(*field) + " s");
    }
  }
  if (t.busy_explorer_share > 1) {
    throw std::runtime_error(std::string(kFarewellName) + ": a busy share of " +
                             std::to_string(t.busy_explorer_share));
  }
  return t;
}

std::size_t solution_size(const Schedule& s) {
  return sizeof(Time) + sizeof(std::uint32_t) + s.permutation.size() * sizeof(std::int32_t);
}

// Intervals travel sorted, non-empty and disjoint (touching is fine): the coordinator's
// O(K1 + K2) intersection relies on it (§4.1.2).
void check_sorted(const std::vector<Interval>& intervals, const char* what) {
  for (std::size_t j = 0; j < intervals.size(); ++j) {
    if (sgn(intervals[j].begin) < 0 || intervals[j].empty() ||
        (j > 0 && intervals[j].begin < intervals[j - 1].end)) {
      throw std::invalid_argument(std::string(what) + ": interval " + std::to_string(j) + " " +
                                  to_string(intervals[j]) +
                                  " is empty, negative or not after the previous one");
    }
  }
}

void put_intervals(ByteWriter& out, const std::vector<Interval>& intervals, const char* what) {
  check_sorted(intervals, what);
  out.put(static_cast<std::uint32_t>(intervals.size()));
  mpz_class length;
  for (const Interval& x : intervals) {
    length = x.end - x.begin;
    out.put_mpz(x.begin);
    out.put_mpz(length);
  }
}

void put_solution(ByteWriter& out, const Schedule& s) {
  if (s.makespan < 0) throw std::invalid_argument("negative makespan in a solution");
  out.put(s.makespan);
  out.put(static_cast<std::uint32_t>(s.permutation.size()));
  for (int job : s.permutation) out.put(static_cast<std::int32_t>(job));
}

ByteWriter start(Kind kind, std::size_t size) {
  ByteWriter out;
  out.bytes().reserve(size);
  out.put(static_cast<std::uint8_t>(kind));
  return out;
}

[[noreturn]] void fail(const char* what, const std::string& problem) {
  throw std::runtime_error(std::string(what) + ": " + problem);
}

// A count read from the payload, refused when the bytes left could not hold that many
// items of at least `min_item_size` bytes (so garbage never triggers a huge allocation).
std::uint32_t get_count(ByteReader& in, std::size_t min_item_size, const char* what) {
  const auto count = in.get<std::uint32_t>();
  if (count > in.remaining() / min_item_size) {
    fail(what, "count " + std::to_string(count) + " exceeds the " + std::to_string(in.remaining()) +
                   " bytes left");
  }
  return count;
}

void get_kind(ByteReader& in, Kind expected, const char* what) {
  const auto kind = in.get<std::uint8_t>();
  if (kind != static_cast<std::uint8_t>(expected)) {
    fail(what, "payload kind " + std::to_string(kind) + ", expected " +
                   std::to_string(static_cast<int>(expected)));
  }
}

std::vector<Interval> get_intervals(ByteReader& in, const char* what) {
  const std::uint32_t count = get_count(in, kIntervalHeader, what);
  std::vector<Interval> intervals(count);
  mpz_class length;  // reused: no allocation per interval
  for (std::uint32_t j = 0; j < count; ++j) {
    Interval& x = intervals[j];
    in.get_mpz(x.begin);
    in.get_mpz(length);
    if (sgn(length) == 0) fail(what, "interval " + std::to_string(j) + " is empty");
    if (j > 0 && x.begin < intervals[j - 1].end) {
      fail(what, "interval " + std::to_string(j) + " overlaps or precedes the previous one");
    }
    mpz_add(x.end.get_mpz_t(), x.begin.get_mpz_t(), length.get_mpz_t());
  }
  return intervals;
}

Time get_makespan(ByteReader& in, const char* what) {
  const Time makespan = in.get<Time>();
  if (makespan < 0) fail(what, "negative makespan " + std::to_string(makespan));
  return makespan;
}

// A permutation of 0..k-1 (k = 0: the makespan is only a bound).
Schedule get_solution(ByteReader& in, const char* what) {
  Schedule s;
  s.makespan = get_makespan(in, what);
  const std::uint32_t count = get_count(in, sizeof(std::int32_t), what);
  s.permutation.resize(count);
  std::vector<bool> seen(count, false);
  for (std::uint32_t j = 0; j < count; ++j) {
    const auto job = in.get<std::int32_t>();
    if (job < 0 || static_cast<std::uint32_t>(job) >= count || seen[job]) {
      fail(what, "the schedule is not a permutation (job " + std::to_string(job) + ")");
    }
    seen[job] = true;
    s.permutation[j] = job;
  }
  return s;
}

// An optional set of cut records: a flag byte, then the records (cut_record_codec.hpp).
// Jobs are checked against the largest instance here; the coordinator checks its own.
void put_cut(ByteWriter& out, const std::optional<CutRecords>& cut) {
  out.put(static_cast<std::uint8_t>(cut ? 1 : 0));
  if (cut) put_cut_records(out, *cut);
}

std::optional<CutRecords> get_cut(ByteReader& in, const char* what) {
  const auto flag = in.get<std::uint8_t>();
  if (flag > 1) fail(what, "cut flag " + std::to_string(flag));
  if (flag == 0) return std::nullopt;
  try {
    return get_cut_records(in, kMaxJobs);
  } catch (const std::runtime_error& e) {
    fail(what, e.what());
  }
}

void expect_end(const ByteReader& in, const char* what) {
  if (!in.at_end()) fail(what, std::to_string(in.remaining()) + " trailing bytes");
}

template <class Message>
Encoded encoded(const Message& message) {
  return Encoded{Message::kTag, encode(message)};
}

}  // namespace

std::string to_string(Tag tag) {
  switch (tag) {
    case Tag::kWork:
      return "WORK";
    case Tag::kBest:
      return "BEST";
    case Tag::kEnd:
      return "END";
    case Tag::kCheckpointRequest:
      return "CKPT";
    case Tag::kGive:
      return "GIVE";
  }
  return "tag " + std::to_string(static_cast<int>(tag));
}

Bytes encode(const WorkReport& m) {
  ByteWriter out =
      start(Kind::kWorkReport, 1 + 8 + 8 + 8 + 4 + sizeof(Time) + intervals_size(m.intervals));
  if (m.max_intervals < 1 || m.intervals.size() > static_cast<std::size_t>(m.max_intervals)) {
    throw std::invalid_argument(std::string(kWorkReportName) + ": " +
                                std::to_string(m.intervals.size()) + " intervals for K_max " +
                                std::to_string(m.max_intervals));
  }
  out.put(m.unit_id);
  out.put(m.decomposed);
  out.put(m.leaves);
  out.put(m.max_intervals);
  out.put(m.best_makespan);
  put_intervals(out, m.intervals, kWorkReportName);
  put_cut(out, m.cut);
  return std::move(out.bytes());
}

Bytes encode(const WorkAssignment& m) {
  ByteWriter out =
      start(Kind::kWorkAssignment, 1 + 8 + solution_size(m.best) + intervals_size(m.intervals));
  out.put(m.unit_id);
  put_solution(out, m.best);
  put_intervals(out, m.intervals, kWorkAssignmentName);
  return std::move(out.bytes());
}

Bytes encode(const BestMessage& m) {
  ByteWriter out = start(Kind::kBest, 1 + solution_size(m.best));
  put_solution(out, m.best);
  return std::move(out.bytes());
}

Bytes encode(const StopOrder&) {
  return std::move(start(Kind::kStopOrder, 1).bytes());
}

Bytes encode(const CheckpointRequest&) {
  return std::move(start(Kind::kCheckpointRequest, 1).bytes());
}

Bytes encode(const Farewell& m) {
  ByteWriter out = start(Kind::kFarewell, 1 + 8 + 8 + 8 + solution_size(m.best) +
                                              intervals_size(m.intervals) + kWorkerTimesBytes);
  out.put(m.unit_id);
  out.put(m.decomposed);
  out.put(m.leaves);
  put_solution(out, m.best);
  put_intervals(out, m.intervals, kFarewellName);
  for (const double* seconds : worker_time_fields(m.times)) out.put_double(*seconds);
  put_cut(out, m.cut);
  return std::move(out.bytes());
}

Bytes encode(const GiveRequest& m) {
  if (m.max_intervals < 1) {
    throw std::invalid_argument(std::string(kGiveRequestName) + ": K_max " +
                                std::to_string(m.max_intervals));
  }
  ByteWriter out = start(Kind::kGiveRequest, 1 + 4);
  out.put(m.max_intervals);
  return std::move(out.bytes());
}

Bytes encode(const Handover& m) {
  if (sgn(m.kept_size) < 0) {
    throw std::invalid_argument(std::string(kHandoverName) + ": negative kept size");
  }
  ByteWriter out = start(Kind::kHandover, 1 + 8 + sizeof(Time) + 4 +
                                              mpz_bytes(m.kept_size) + intervals_size(m.intervals));
  out.put(m.unit_id);
  out.put(m.best_makespan);
  out.put_mpz(m.kept_size);
  put_intervals(out, m.intervals, kHandoverName);
  return std::move(out.bytes());
}

Encoded encode_for_coordinator(const ToCoordinator& message) {
  return std::visit([](const auto& m) { return encoded(m); }, message);
}

Encoded encode_for_worker(const ToWorker& message) {
  return std::visit([](const auto& m) { return encoded(m); }, message);
}

WorkReport decode_work_report(ByteSpan bytes) {
  ByteReader in(bytes.data(), bytes.size(), kWorkReportName);
  get_kind(in, Kind::kWorkReport, kWorkReportName);
  WorkReport m;
  m.unit_id = in.get<std::int64_t>();
  m.decomposed = in.get<std::uint64_t>();
  m.leaves = in.get<std::uint64_t>();
  m.max_intervals = in.get<std::int32_t>();
  if (m.max_intervals < 1) fail(kWorkReportName, "K_max " + std::to_string(m.max_intervals));
  m.best_makespan = get_makespan(in, kWorkReportName);
  m.intervals = get_intervals(in, kWorkReportName);
  if (m.intervals.size() > static_cast<std::size_t>(m.max_intervals)) {
    fail(kWorkReportName, std::to_string(m.intervals.size()) + " intervals exceed K_max " +
                              std::to_string(m.max_intervals));
  }
  m.cut = get_cut(in, kWorkReportName);
  expect_end(in, kWorkReportName);
  return m;
}

WorkAssignment decode_work_assignment(ByteSpan bytes) {
  ByteReader in(bytes.data(), bytes.size(), kWorkAssignmentName);
  get_kind(in, Kind::kWorkAssignment, kWorkAssignmentName);
  WorkAssignment m;
  m.unit_id = in.get<std::int64_t>();
  m.best = get_solution(in, kWorkAssignmentName);
  m.intervals = get_intervals(in, kWorkAssignmentName);
  expect_end(in, kWorkAssignmentName);
  return m;
}

BestMessage decode_best(ByteSpan bytes) {
  ByteReader in(bytes.data(), bytes.size(), kBestName);
  get_kind(in, Kind::kBest, kBestName);
  BestMessage m{get_solution(in, kBestName)};
  expect_end(in, kBestName);
  return m;
}

StopOrder decode_stop_order(ByteSpan bytes) {
  ByteReader in(bytes.data(), bytes.size(), kStopOrderName);
  get_kind(in, Kind::kStopOrder, kStopOrderName);
  expect_end(in, kStopOrderName);
  return StopOrder{};
}

CheckpointRequest decode_checkpoint_request(ByteSpan bytes) {
  ByteReader in(bytes.data(), bytes.size(), kCheckpointRequestName);
  get_kind(in, Kind::kCheckpointRequest, kCheckpointRequestName);
  expect_end(in, kCheckpointRequestName);
  return CheckpointRequest{};
}

Farewell decode_farewell(ByteSpan bytes) {
  ByteReader in(bytes.data(), bytes.size(), kFarewellName);
  get_kind(in, Kind::kFarewell, kFarewellName);
  Farewell m;
  m.unit_id = in.get<std::int64_t>();
  m.decomposed = in.get<std::uint64_t>();
  m.leaves = in.get<std::uint64_t>();
  m.best = get_solution(in, kFarewellName);
  m.intervals = get_intervals(in, kFarewellName);
  m.times = get_worker_times(in);
  m.cut = get_cut(in, kFarewellName);
  expect_end(in, kFarewellName);
  return m;
}

GiveRequest decode_give_request(ByteSpan bytes) {
  ByteReader in(bytes.data(), bytes.size(), kGiveRequestName);
  get_kind(in, Kind::kGiveRequest, kGiveRequestName);
  GiveRequest m;
  m.max_intervals = in.get<std::int32_t>();
  if (m.max_intervals < 1) fail(kGiveRequestName, "K_max " + std::to_string(m.max_intervals));
  expect_end(in, kGiveRequestName);
  return m;
}

Handover decode_handover(ByteSpan bytes) {
  ByteReader in(bytes.data(), bytes.size(), kHandoverName);
  get_kind(in, Kind::kHandover, kHandoverName);
  Handover m;
  m.unit_id = in.get<std::int64_t>();
  m.best_makespan = get_makespan(in, kHandoverName);
  in.get_mpz(m.kept_size);
  m.intervals = get_intervals(in, kHandoverName);
  expect_end(in, kHandoverName);
  return m;
}

ToCoordinator decode_from_worker(int tag, ByteSpan bytes) {
  switch (static_cast<Tag>(tag)) {
    case Tag::kWork:
      return decode_work_report(bytes);
    case Tag::kBest:
      return decode_best(bytes);
    case Tag::kEnd:
      return decode_farewell(bytes);
    case Tag::kGive:
      return decode_handover(bytes);
    case Tag::kCheckpointRequest:
      break;  // never sent by a worker
  }
  throw std::runtime_error("message from a worker: unknown or unexpected tag " +
                           std::to_string(tag));
}

ToWorker decode_from_coordinator(int tag, ByteSpan bytes) {
  switch (static_cast<Tag>(tag)) {
    case Tag::kWork:
      return decode_work_assignment(bytes);
    case Tag::kBest:
      return decode_best(bytes);
    case Tag::kEnd:
      return decode_stop_order(bytes);
    case Tag::kCheckpointRequest:
      return decode_checkpoint_request(bytes);
    case Tag::kGive:
      return decode_give_request(bytes);
  }
  throw std::runtime_error("message from the coordinator: unknown tag " + std::to_string(tag));
}

}  // namespace permbb::cluster
