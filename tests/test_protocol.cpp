// Tests of the cluster messages: round trips of every message (small ones and a 16384-interval
// unit at n = 100), truncated and foreign payloads, and each validation rule of the decoders.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "byte_buffer.hpp"
#include "cut_record_samples.hpp"
#include "factoradic_mpz.hpp"
#include "protocol.hpp"

namespace permbb::cluster {
namespace {

Interval iv(long begin, long end) {
  return Interval{mpz_class(begin), mpz_class(end)};
}

WorkReport small_report() {
  return WorkReport{
      42, 123456789012ULL, 987654321ULL, 4, 1278, {iv(0, 5), iv(5, 9), iv(100, 1000)}};
}

WorkAssignment small_assignment() {
  return WorkAssignment{7, {iv(3, 4), iv(1L << 40, 1L << 41)}, Schedule{{2, 0, 3, 1}, 1278}};
}

Farewell small_farewell() {
  return Farewell{9, 17, 3, Schedule{{1, 0}, 55}, {iv(11, 12)}, WorkerTimes{}};
}

// Sorted disjoint intervals of [0, 100!): 2 * count distinct random values, paired up.
std::vector<Interval> random_intervals(std::size_t count, unsigned long seed) {
  gmp_randclass rng(gmp_randinit_mt);
  rng.seed(seed);
  const mpz_class limit = factorial(100);
  std::vector<mpz_class> points;
  while (points.size() < 2 * count) {
    while (points.size() < 2 * count) points.push_back(rng.get_z_range(limit));
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
  }
  std::vector<Interval> intervals(count);
  for (std::size_t j = 0; j < count; ++j) intervals[j] = Interval{points[2 * j], points[2 * j + 1]};
  return intervals;
}

// Decoding any strict prefix of a valid payload fails with std::runtime_error.
template <class Decode>
void expect_prefixes_throw(const Bytes& bytes, Decode decode, std::size_t step = 1) {
  for (std::size_t length = 0; length < bytes.size(); length += step) {
    EXPECT_THROW(decode(ByteSpan(bytes.data(), length)), std::runtime_error)
        << "prefix of " << length << " of " << bytes.size() << " bytes";
  }
}

// The message text of what `call` throws.
std::string error_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

TEST(Protocol, TagsAreDistinctMpiTags) {
  EXPECT_EQ(static_cast<int>(Tag::kWork), 1);
  EXPECT_EQ(static_cast<int>(Tag::kBest), 2);
  EXPECT_EQ(static_cast<int>(Tag::kEnd), 3);
  EXPECT_EQ(to_string(Tag::kWork), "WORK");
  EXPECT_EQ(to_string(Tag::kBest), "BEST");
  EXPECT_EQ(to_string(Tag::kEnd), "END");
  EXPECT_EQ(static_cast<int>(Tag::kCheckpointRequest), 4);
  EXPECT_EQ(to_string(Tag::kCheckpointRequest), "CKPT");
  EXPECT_EQ(static_cast<int>(Tag::kGive), 5);
  EXPECT_EQ(to_string(Tag::kGive), "GIVE");
}

// GIVE both ways: the request's K_max, and a handover whose kept size exceeds 64 bits.
TEST(Protocol, GiveRequestAndHandoverRoundTrip) {
  const GiveRequest request{256};
  EXPECT_EQ(decode_give_request(encode(request)), request);
  EXPECT_EQ(encode(request).size(), 5u);  // the kind byte and an int32
  EXPECT_THROW(encode(GiveRequest{0}), std::invalid_argument);
  mpz_class kept;
  mpz_ui_pow_ui(kept.get_mpz_t(), 10, 30);
  const Handover handover{7, 6115, kept, {iv(100, 200), iv(300, 301)}};
  EXPECT_EQ(decode_handover(encode(handover)), handover);
  const Handover nothing_kept{7, kInfiniteTime, 0, {iv(0, 5)}};
  EXPECT_EQ(decode_handover(encode(nothing_kept)), nothing_kept);
  EXPECT_THROW(encode(Handover{7, 0, -1, {}}), std::invalid_argument);
  expect_prefixes_throw(encode(handover), decode_handover);
  expect_prefixes_throw(encode(request), decode_give_request);

  const Encoded give = encode_for_worker(request);
  EXPECT_EQ(give.tag, Tag::kGive);
  EXPECT_EQ(std::get<GiveRequest>(decode_from_coordinator(5, give.bytes)), request);
  const Encoded over = encode_for_coordinator(handover);
  EXPECT_EQ(over.tag, Tag::kGive);
  EXPECT_EQ(std::get<Handover>(decode_from_worker(5, over.bytes)), handover);
  // A request's payload is not a handover, nor the other way round.
  EXPECT_THROW(decode_from_worker(5, give.bytes), std::runtime_error);
  EXPECT_THROW(decode_from_coordinator(5, over.bytes), std::runtime_error);
}

TEST(Protocol, WorkReportRoundTrip) {
  const WorkReport m = small_report();
  EXPECT_EQ(decode_work_report(encode(m)), m);
  const WorkReport first_request{};  // a worker's first message: an empty unit
  EXPECT_EQ(decode_work_report(encode(first_request)), first_request);
}

// Certificates: a worker's cut records travel with the counts of its report or farewell.
TEST(Protocol, CutRecordsRoundTripInReportsAndFarewells) {
  WorkReport report = small_report();
  report.cut = testing::two_cut_records();
  const WorkReport back = decode_work_report(encode(report));
  EXPECT_EQ(back, report);
  ASSERT_TRUE(back.cut.has_value());
  EXPECT_EQ(back.cut->records[0].nodes.decomposed, 17u);
  EXPECT_EQ(back.cut->records[1].bound, 402);
  Farewell farewell = small_farewell();
  farewell.cut = CutRecords{2, {}};  // recording, nothing recorded since the last report
  EXPECT_EQ(decode_farewell(encode(farewell)), farewell);
}

TEST(Protocol, MalformedCutRecordsThrowNamingTheMessage) {
  const auto refused = [](WorkReport m, const char* why) {
    try {
      decode_work_report(encode(m));
      ADD_FAILURE() << why << ": decoded";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("WORK message"), std::string::npos) << e.what();
    }
  };
  WorkReport twice = small_report();
  twice.cut = testing::two_cut_records();
  twice.cut->records[0].path = {cut_step(2, 0), cut_step(2, 1)};
  refused(twice, "a job fixed twice");
  WorkReport unordered = small_report();
  unordered.cut = testing::two_cut_records();
  std::swap(unordered.cut->records[0], unordered.cut->records[1]);
  refused(unordered, "records out of order");
  Bytes flag = encode(small_report());
  flag.back() = 2;  // the cut flag is the last byte of a report without records
  EXPECT_THROW(decode_work_report(flag), std::runtime_error);
}

TEST(Protocol, WorkAssignmentRoundTrip) {
  const WorkAssignment m = small_assignment();
  EXPECT_EQ(decode_work_assignment(encode(m)), m);
  const WorkAssignment bound_only{3, {iv(0, 1)}, Schedule{{}, 900}};
  EXPECT_EQ(decode_work_assignment(encode(bound_only)), bound_only);
}

TEST(Protocol, BestRoundTrip) {
  const BestMessage with_schedule{Schedule{{4, 2, 0, 1, 3}, 3000}};
  EXPECT_EQ(decode_best(encode(with_schedule)), with_schedule);
  const BestMessage bound_only{Schedule{{}, kInfiniteTime}};
  EXPECT_EQ(decode_best(encode(bound_only)), bound_only);
}

TEST(Protocol, StopOrderAndFarewellRoundTrip) {
  EXPECT_EQ(decode_stop_order(encode(StopOrder{})), StopOrder{});
  EXPECT_EQ(encode(StopOrder{}).size(), 1u);  // the kind byte alone
  const Farewell m = small_farewell();
  EXPECT_EQ(decode_farewell(encode(m)), m);
  EXPECT_EQ(decode_checkpoint_request(encode(CheckpointRequest{})), CheckpointRequest{});
  EXPECT_EQ(encode(CheckpointRequest{}).size(), 1u);
}

// A farewell carries where the worker's time went; a negative time or a busy share above 1
// is refused on decoding (the 11 doubles are the payload's last bytes).
TEST(Protocol, FarewellCarriesTheWorkersTimes) {
  Farewell m = small_farewell();
  m.times = WorkerTimes{10.5, 8.25, 0.5, 0.25, 1.0, 0.25, 0.25, 2.0, 0.75, 0.125, 0.0625};
  EXPECT_EQ(decode_farewell(encode(m)), m);

  Bytes negative = encode(m);
  const double minus_one = -1.0;
  std::memcpy(negative.data() + negative.size() - 11 * sizeof(double), &minus_one, sizeof minus_one);
  EXPECT_THROW(decode_farewell(negative), std::runtime_error);

  m.times.busy_explorer_share = 1.5;
  EXPECT_THROW(decode_farewell(encode(m)), std::runtime_error);
}

// 16384 intervals at n = 100: each bound below 100! < 2^525 fits in 9 64-bit words (72
// bytes), so the unit takes at most 16384 * 2 * (4 + 72) bytes plus a small header: about
// 2.5 MB, the order of the 2.1 MB §4.1.4 estimates.
TEST(Protocol, LargeUnitsRoundTripCompactly) {
  const std::vector<Interval> intervals = random_intervals(16384, 2022);
  const std::size_t bound = 16384 * 2 * (4 + 72) + 64;

  const WorkReport report{5, 1ULL << 40, 1ULL << 30, 16384, 6115, intervals};
  const Bytes report_bytes = encode(report);
  EXPECT_LE(report_bytes.size(), bound);
  EXPECT_GT(report_bytes.size(), 16384u * 66);  // each begin alone takes ~66 bytes
  EXPECT_EQ(decode_work_report(report_bytes), report);

  std::vector<int> schedule(100);
  for (int j = 0; j < 100; ++j) schedule[j] = 99 - j;
  const WorkAssignment assignment{6, intervals, Schedule{schedule, 6115}};
  const Bytes assignment_bytes = encode(assignment);
  EXPECT_LE(assignment_bytes.size(), bound + 4 * 100);
  EXPECT_EQ(decode_work_assignment(assignment_bytes), assignment);

  const Farewell farewell{6, 1, 2, Schedule{schedule, 6115}, intervals, WorkerTimes{}};
  EXPECT_EQ(decode_farewell(encode(farewell)), farewell);

  expect_prefixes_throw(report_bytes, decode_work_report, 99991);
  EXPECT_THROW(decode_work_report(ByteSpan(report_bytes.data(), report_bytes.size() - 1)),
               std::runtime_error);
}

TEST(Protocol, VariantsTravelUnderTheirTags) {
  const Encoded work = encode_for_coordinator(small_report());
  EXPECT_EQ(work.tag, Tag::kWork);
  const ToCoordinator received = decode_from_worker(static_cast<int>(work.tag), work.bytes);
  ASSERT_TRUE(std::holds_alternative<WorkReport>(received));
  EXPECT_EQ(std::get<WorkReport>(received), small_report());

  const Encoded end = encode_for_coordinator(small_farewell());
  EXPECT_EQ(end.tag, Tag::kEnd);
  EXPECT_EQ(std::get<Farewell>(decode_from_worker(3, end.bytes)), small_farewell());

  const Encoded best = encode_for_coordinator(BestMessage{Schedule{{0}, 10}});
  EXPECT_EQ(best.tag, Tag::kBest);
  EXPECT_EQ(std::get<BestMessage>(decode_from_worker(2, best.bytes)).best.makespan, 10);

  const Encoded reply = encode_for_worker(small_assignment());
  EXPECT_EQ(reply.tag, Tag::kWork);
  EXPECT_EQ(std::get<WorkAssignment>(decode_from_coordinator(1, reply.bytes)), small_assignment());
  const Encoded stop = encode_for_worker(StopOrder{});
  EXPECT_EQ(stop.tag, Tag::kEnd);
  EXPECT_TRUE(std::holds_alternative<StopOrder>(decode_from_coordinator(3, stop.bytes)));
  const Encoded request = encode_for_worker(CheckpointRequest{});
  EXPECT_EQ(request.tag, Tag::kCheckpointRequest);
  EXPECT_TRUE(std::holds_alternative<CheckpointRequest>(decode_from_coordinator(4, request.bytes)));
  EXPECT_THROW(decode_from_worker(4, request.bytes), std::runtime_error);  // never from a worker
}

TEST(Protocol, TruncatedPayloadsThrow) {
  expect_prefixes_throw(encode(small_report()), decode_work_report);
  expect_prefixes_throw(encode(small_assignment()), decode_work_assignment);
  expect_prefixes_throw(encode(BestMessage{Schedule{{1, 2, 0}, 77}}), decode_best);
  expect_prefixes_throw(encode(StopOrder{}), decode_stop_order);
  expect_prefixes_throw(encode(small_farewell()), decode_farewell);
  expect_prefixes_throw(encode(CheckpointRequest{}), decode_checkpoint_request);
}

TEST(Protocol, PayloadsOfAnotherMessageThrow) {
  const std::vector<Bytes> payloads = {encode(small_report()), encode(small_assignment()),
                                       encode(BestMessage{Schedule{{0}, 5}}), encode(StopOrder{}),
                                       encode(small_farewell())};
  const std::vector<std::function<void(ByteSpan)>> decoders = {
      [](ByteSpan b) { decode_work_report(b); }, [](ByteSpan b) { decode_work_assignment(b); },
      [](ByteSpan b) { decode_best(b); },        [](ByteSpan b) { decode_stop_order(b); },
      [](ByteSpan b) { decode_farewell(b); },    [](ByteSpan b) { decode_checkpoint_request(b); }};
  for (std::size_t p = 0; p < payloads.size(); ++p) {
    for (std::size_t d = 0; d < decoders.size(); ++d) {
      if (p == d) {
        EXPECT_NO_THROW(decoders[d](payloads[p]));
      } else {
        EXPECT_THROW(decoders[d](payloads[p]), std::runtime_error) << p << " as " << d;
      }
    }
  }
  // By tag: a WORK report sent under BEST, an assignment received as a worker's END.
  EXPECT_THROW(decode_from_worker(2, payloads[0]), std::runtime_error);
  EXPECT_THROW(decode_from_worker(3, payloads[1]), std::runtime_error);
  EXPECT_THROW(decode_from_coordinator(1, payloads[0]), std::runtime_error);
  EXPECT_THROW(decode_from_worker(7, payloads[0]), std::runtime_error);
  EXPECT_THROW(decode_from_coordinator(0, payloads[3]), std::runtime_error);
  // Errors name the message.
  EXPECT_NE(error_of([&] { decode_best(payloads[0]); }).find("BEST"), std::string::npos);
  EXPECT_NE(error_of([&] { decode_work_report(payloads[2]); }).find("WORK"), std::string::npos);
  EXPECT_NE(error_of([&] { decode_farewell(ByteSpan(payloads[4].data(), 5)); }).find("END"),
            std::string::npos);
}

// Hand-built WORK reports following the documented wire format, each breaking one rule.
struct RawReport {
  std::int32_t max_intervals = 4;
  Time makespan = 100;
  std::vector<std::pair<long, long>> begin_length;  // as written on the wire
  std::uint32_t count_override = 0;                 // when non-zero, the count written
  bool trailing_byte = false;

  Bytes bytes() const {
    ByteWriter out;
    out.put(encode(WorkReport{})[0]);  // the kind byte of a WORK report
    out.put(std::int64_t{1});
    out.put(std::uint64_t{0});
    out.put(std::uint64_t{0});
    out.put(max_intervals);
    out.put(makespan);
    out.put(count_override != 0 ? count_override : static_cast<std::uint32_t>(begin_length.size()));
    for (auto [begin, length] : begin_length) {
      out.put_mpz(mpz_class(begin));
      out.put_mpz(mpz_class(length));
    }
    out.put(std::uint8_t{0});  // no cut records
    if (trailing_byte) out.put(std::uint8_t{0});
    return out.bytes();
  }
};

TEST(Protocol, MalformedReportsThrow) {
  RawReport good;
  good.begin_length = {{0, 5}, {5, 4}, {20, 1}};
  const WorkReport decoded = decode_work_report(good.bytes());
  EXPECT_EQ(decoded.intervals, (std::vector<Interval>{iv(0, 5), iv(5, 9), iv(20, 21)}));

  RawReport empty_interval = good;
  empty_interval.begin_length[1].second = 0;
  EXPECT_THROW(decode_work_report(empty_interval.bytes()), std::runtime_error);

  RawReport overlapping = good;
  overlapping.begin_length[1].first = 4;  // [4, 8[ overlaps [0, 5[
  EXPECT_THROW(decode_work_report(overlapping.bytes()), std::runtime_error);

  RawReport unsorted = good;
  std::swap(unsorted.begin_length[0], unsorted.begin_length[2]);
  EXPECT_THROW(decode_work_report(unsorted.bytes()), std::runtime_error);

  RawReport no_capacity = good;
  no_capacity.max_intervals = 0;
  EXPECT_THROW(decode_work_report(no_capacity.bytes()), std::runtime_error);

  RawReport over_capacity = good;
  over_capacity.max_intervals = 2;
  EXPECT_THROW(decode_work_report(over_capacity.bytes()), std::runtime_error);

  RawReport negative_makespan = good;
  negative_makespan.makespan = -3;
  EXPECT_THROW(decode_work_report(negative_makespan.bytes()), std::runtime_error);

  RawReport huge_count = good;
  huge_count.count_override = 0xFFFFFFFFu;
  EXPECT_THROW(decode_work_report(huge_count.bytes()), std::runtime_error);

  RawReport trailing = good;
  trailing.trailing_byte = true;
  EXPECT_THROW(decode_work_report(trailing.bytes()), std::runtime_error);
}

// A GMP integer has one encoding, the one put_mpz writes (whole 64-bit words, the top one not
// zero), so that a decoded message re-encodes to the bytes it came from.
TEST(Protocol, IntegersHaveOneEncoding) {
  // A report with one interval [0, length[, the length's field written as given.
  const auto report = [](std::uint32_t byte_count, std::vector<std::uint8_t> magnitude) {
    RawReport header;
    header.count_override = 1;
    ByteWriter out;
    const Bytes start = header.bytes();
    out.put_bytes(start.data(), start.size() - 1);  // the interval goes before the cut flag
    out.put_mpz(mpz_class(0));
    out.put(byte_count);
    out.put_bytes(magnitude.data(), magnitude.size());
    out.put(std::uint8_t{0});
    return out.bytes();
  };
  const Bytes canonical = report(8, {5, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(decode_work_report(canonical).intervals, std::vector<Interval>{iv(0, 5)});
  EXPECT_EQ(encode(decode_work_report(canonical)), canonical);
  const Bytes padded = report(16, {5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_NE(error_of([&] { decode_work_report(padded); }).find("zero most significant word"),
            std::string::npos);
  const Bytes byte_sized = report(1, {5});
  EXPECT_NE(error_of([&] { decode_work_report(byte_sized); }).find("not whole 64-bit words"),
            std::string::npos);
}

TEST(Protocol, SchedulesMustBePermutations) {
  Bytes bytes = encode(BestMessage{Schedule{{0, 1, 2}, 50}});
  // The last 4 bytes are job 2; make it a second job 1, then an out-of-range 3.
  bytes[bytes.size() - 4] = 1;
  EXPECT_THROW(decode_best(bytes), std::runtime_error);
  bytes[bytes.size() - 4] = 3;
  EXPECT_THROW(decode_best(bytes), std::runtime_error);
  bytes[bytes.size() - 4] = 2;
  EXPECT_EQ(decode_best(bytes).best.permutation, (std::vector<int>{0, 1, 2}));
}

TEST(Protocol, EncodersRefuseWhatCouldNotBeDecoded) {
  WorkAssignment unsorted{1, {iv(10, 20), iv(0, 5)}, Schedule{}};
  EXPECT_THROW(encode(unsorted), std::invalid_argument);
  WorkReport over_capacity{1, 0, 0, 1, kInfiniteTime, {iv(0, 1), iv(2, 3)}};
  EXPECT_THROW(encode(over_capacity), std::invalid_argument);
  Farewell empty_interval{1, 0, 0, Schedule{}, {iv(4, 4)}, WorkerTimes{}};
  EXPECT_THROW(encode(empty_interval), std::invalid_argument);
}

}  // namespace
}  // namespace permbb::cluster
