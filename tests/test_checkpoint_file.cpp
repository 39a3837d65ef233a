// Tests of the global checkpoint file: round trips (small, and n = 100 with units of 16384
// random intervals), the .prev rotation, every way a file is refused with its own message,
// the fallback to .prev, and save errors. Files are written by hand from the layout table
// too, so the format is checked against its documentation. The checksum and the check
// against the instance and settings have their own files (test_crc64.cpp,
// test_checkpoint_validation.cpp).
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "build_info.hpp"
#include "byte_buffer.hpp"
#include "checkpoint_file.hpp"
#include "checkpoint_samples.hpp"
#include "crc64.hpp"
#include "cut_record_samples.hpp"
#include "input_error.hpp"
#include "test_support.hpp"

namespace permbb {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

// A fresh folder per test, removed afterwards.
class CheckpointFile : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    folder_ = fs::temp_directory_path() /
              ("permbb_ckpt_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(folder_);
    fs::create_directories(folder_);
    path_ = (folder_ / "search.ckpt").string();
  }
  void TearDown() override { fs::remove_all(folder_); }

  fs::path folder_;
  std::string path_;
};

std::int64_t now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Bytes read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_bytes(const std::string& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

Interval iv(long begin, long end) {
  return Interval{mpz_class(begin), mpz_class(end)};
}

using testing::contains;
using testing::small_checkpoint;

void expect_same(const GlobalCheckpoint& a, const GlobalCheckpoint& b) {
  EXPECT_EQ(a.format_version, b.format_version);
  EXPECT_EQ(a.instance_name, b.instance_name);
  EXPECT_EQ(a.instance_fingerprint, b.instance_fingerprint);
  EXPECT_EQ(a.jobs, b.jobs);
  EXPECT_EQ(a.machines, b.machines);
  EXPECT_EQ(a.settings.bound, b.settings.bound);
  EXPECT_EQ(a.settings.branching, b.settings.branching);
  EXPECT_EQ(a.initial_ub, b.initial_ub);
  EXPECT_EQ(a.initial_ub_origin, b.initial_ub_origin);
  EXPECT_EQ(a.best_makespan, b.best_makespan);
  EXPECT_EQ(a.best_permutation, b.best_permutation);
  EXPECT_TRUE(a.unassigned == b.unassigned);
  EXPECT_TRUE(a.active == b.active);
  const CheckpointStatistics& s = a.statistics;
  const CheckpointStatistics& t = b.statistics;
  EXPECT_EQ(s.nodes_decomposed, t.nodes_decomposed);
  EXPECT_EQ(s.leaves, t.leaves);
  EXPECT_EQ(s.wall_seconds, t.wall_seconds);  // bit-exact
  EXPECT_EQ(s.cpu_seconds, t.cpu_seconds);
  EXPECT_EQ(s.gpu_seconds, t.gpu_seconds);
  EXPECT_EQ(s.restarts, t.restarts);
  EXPECT_EQ(s.worker_checkpoints, t.worker_checkpoints);
  EXPECT_EQ(s.work_divisions, t.work_divisions);
}


// ------------------------------------------------------------------ round trips

TEST_F(CheckpointFile, RoundTripKeepsEveryField) {
  const GlobalCheckpoint c = small_checkpoint();
  const std::int64_t before = now_seconds();
  save_checkpoint(c, path_);
  const std::int64_t after = now_seconds();
  const GlobalCheckpoint back = load_checkpoint(path_);
  expect_same(c, back);
  EXPECT_EQ(back.format_version, 3u);
  EXPECT_EQ(back.written_by, build_version());
  EXPECT_GE(back.written_at, before);
  EXPECT_LE(back.written_at, after);
  // 10 + 8 + 1 + 20 of 5! = 120.
  EXPECT_EQ(remaining_size(back), 39);
  EXPECT_EQ(search_space_size(back), 120);
}

// Certificates (docs/audit.md): the cut records of a restart chain travel in the checkpoint.
TEST_F(CheckpointFile, RoundTripKeepsTheCutRecords) {
  GlobalCheckpoint c = small_checkpoint();
  c.cut = testing::two_cut_records();
  save_checkpoint(c, path_);
  const GlobalCheckpoint back = load_checkpoint(path_);
  ASSERT_TRUE(back.cut.has_value());
  EXPECT_EQ(back.cut->depth, 2);
  ASSERT_EQ(back.cut->records.size(), 2u);
  const CutRecord& e = back.cut->records[0];
  EXPECT_EQ(e.path, (CutPath{6, 3}));
  EXPECT_FALSE(e.pruned);
  EXPECT_EQ(e.nodes.decomposed, 17u);
  EXPECT_EQ(e.nodes.leaves, 5u);
  EXPECT_EQ(e.ub_start, 400);
  EXPECT_EQ(e.ub_end, 390);
  EXPECT_EQ(e.best, 391);
  const CutRecord& p = back.cut->records[1];
  EXPECT_EQ(p.path, (CutPath{9}));
  EXPECT_TRUE(p.pruned);
  EXPECT_EQ(p.bound, 402);
  // A checkpoint of a search without --certificate holds none, and says so.
  save_checkpoint(small_checkpoint(), path_);
  EXPECT_FALSE(load_checkpoint(path_).cut.has_value());
}

// Records out of order, a job fixed twice or outside the instance: refused as malformed.
TEST_F(CheckpointFile, RefusesMalformedCutRecords) {
  const auto refused = [&](const CutRecords& cut, const char* why) {
    GlobalCheckpoint c = small_checkpoint();
    c.cut = cut;
    write_bytes(path_, encode_checkpoint(c, 1));
    const std::string message = testing::input_error_of([&] { load_checkpoint(path_); });
    EXPECT_TRUE(contains(message, "malformed")) << why << ": " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  };
  CutRecords swapped = testing::two_cut_records();
  std::swap(swapped.records[0], swapped.records[1]);
  refused(swapped, "out of order");
  CutRecords twice = testing::two_cut_records();
  twice.records[0].path = {cut_step(3, 0), cut_step(3, 1)};
  refused(twice, "a job twice");
  CutRecords outside = testing::two_cut_records();
  outside.records[1].path = {cut_step(5, 0)};
  refused(outside, "job 5 of 5");
  CutRecords deep = testing::two_cut_records();
  deep.depth = 5;
  refused(deep, "depth n");
}

TEST_F(CheckpointFile, RoundTripWithoutBestSchedule) {
  GlobalCheckpoint c = small_checkpoint();
  c.best_makespan = kInfiniteTime;
  c.best_permutation.clear();
  c.initial_ub = kInfiniteTime;
  c.unassigned.clear();
  c.active.clear();
  save_checkpoint(c, path_);
  const GlobalCheckpoint back = load_checkpoint(path_);
  expect_same(c, back);
  EXPECT_EQ(remaining_size(back), 0);
}

// Work units as the paper sizes them (§4.1.4): n = 100, 16384 intervals each, bounds drawn
// uniformly below 100!, one interval ending exactly at 100!.
TEST_F(CheckpointFile, RoundTripOfLargeUnitsAtHundredJobs) {
  mpz_class limit;
  mpz_fac_ui(limit.get_mpz_t(), 100);
  gmp_randclass random(gmp_randinit_default);
  random.seed(20220401);
  constexpr int kUnits = 3;
  constexpr std::size_t kIntervals = 16384;
  std::vector<mpz_class> points;
  for (std::size_t i = 0; i < 2 * kUnits * kIntervals - 1; ++i)
    points.push_back(random.get_z_range(limit));
  points.push_back(limit);
  std::sort(points.begin(), points.end());
  ASSERT_TRUE(std::adjacent_find(points.begin(), points.end()) == points.end());
  std::vector<std::vector<Interval>> lists(kUnits);
  mpz_class expected_remaining = 0;
  for (std::size_t i = 0; i < points.size(); i += 2) {
    lists[(i / 2) % kUnits].push_back(Interval{points[i], points[i + 1]});
    expected_remaining += points[i + 1] - points[i];
  }
  GlobalCheckpoint c = small_checkpoint();
  c.jobs = 100;
  c.machines = 20;
  c.best_permutation.resize(100);
  for (int j = 0; j < 100; ++j) c.best_permutation[j] = 99 - j;
  c.unassigned = {WorkUnit(1, lists[0]), WorkUnit(2, {})};
  c.active = {WorkUnit(10, lists[1]), WorkUnit(11, lists[2])};
  ASSERT_EQ(c.active[1].interval_count(), kIntervals);

  save_checkpoint(c, path_);
  // Each bound takes at most 4 + 72 bytes (log2(100!) < 525 bits: 9 64-bit words).
  EXPECT_LT(fs::file_size(path_), kUnits * kIntervals * 2 * 76 + 1000);
  const GlobalCheckpoint back = load_checkpoint(path_);
  expect_same(c, back);
  EXPECT_EQ(remaining_size(back), expected_remaining);
  EXPECT_EQ(search_space_size(back), limit);
}

// ------------------------------------------------------------------ the file as documented

// A payload written field by field from the table in checkpoint_file.hpp; `edit` may change it.
struct HandPayload {
  std::uint32_t version = 2;  // 1: no writer field
  std::string writer = "0.0.9-g0123456789ab";
  std::string bound = "lb1";
  std::uint32_t jobs = 4;
  std::vector<std::int32_t> permutation = {2, 0, 3, 1};
  std::vector<std::pair<long, long>> intervals = {{0, 5}, {6, 24}};  // 4! = 24
  std::size_t trailing = 0;

  Bytes encode() const {
    ByteWriter out;
    if (version >= 2) out.put_string(writer);
    out.put_string("hand");
    out.put(std::uint64_t{0xFEEDULL});
    out.put(jobs);
    out.put(std::uint32_t{2});
    out.put_string(bound);
    out.put_string("fwd");
    out.put(std::int32_t{60});
    out.put_string("given");
    out.put(std::int32_t{55});
    out.put(static_cast<std::uint32_t>(permutation.size()));
    for (auto job : permutation) out.put(job);
    out.put(std::uint64_t{1});  // unassigned: one unit
    out.put(std::int64_t{-5});
    out.put(static_cast<std::uint32_t>(intervals.size()));
    for (auto [a, b] : intervals) {
      out.put_mpz(mpz_class(a));
      out.put_mpz(mpz_class(b));
    }
    out.put(std::uint64_t{0});  // active: none
    out.put(std::uint64_t{1000});
    out.put(std::uint64_t{200});
    out.put_double(1.5);
    out.put_double(3.0);
    out.put_double(0.0);
    out.put(std::uint32_t{2});
    out.put(std::uint64_t{30});
    out.put(std::uint64_t{4});
    out.put(std::int64_t{1700000000});
    for (std::size_t i = 0; i < trailing; ++i) out.put(std::uint8_t{0});
    return out.bytes();
  }
};

Bytes file_of(const Bytes& payload, std::uint32_t version = 2) {
  ByteWriter out;
  out.put_bytes("PERMBBCK", 8);
  out.put(version);
  out.put(static_cast<std::uint64_t>(payload.size()));
  out.put(crc64(payload.data(), payload.size()));
  out.put_bytes(payload.data(), payload.size());
  return out.bytes();
}

TEST_F(CheckpointFile, ReadsAFileWrittenFromTheLayoutTable) {
  write_bytes(path_, file_of(HandPayload{}.encode()));
  const GlobalCheckpoint c = load_checkpoint(path_);
  EXPECT_EQ(c.instance_name, "hand");
  EXPECT_EQ(c.instance_fingerprint, 0xFEEDu);
  EXPECT_EQ(c.jobs, 4);
  EXPECT_EQ(c.machines, 2);
  EXPECT_EQ(c.settings.bound, BoundKind::kLb1);
  EXPECT_EQ(c.settings.branching, BranchingRule::kForward);
  EXPECT_EQ(c.initial_ub, 60);
  EXPECT_EQ(c.initial_ub_origin, "given");
  EXPECT_EQ(c.best_makespan, 55);
  EXPECT_EQ(c.best_permutation, (std::vector<int>{2, 0, 3, 1}));
  ASSERT_EQ(c.unassigned.size(), 1u);
  EXPECT_TRUE(c.unassigned[0] == WorkUnit(-5, {iv(0, 5), iv(6, 24)}));
  EXPECT_TRUE(c.active.empty());
  EXPECT_EQ(c.statistics.nodes_decomposed, 1000u);
  EXPECT_EQ(c.statistics.leaves, 200u);
  EXPECT_EQ(c.statistics.wall_seconds, 1.5);
  EXPECT_EQ(c.statistics.cpu_seconds, 3.0);
  EXPECT_EQ(c.statistics.gpu_seconds, 0.0);
  EXPECT_EQ(c.statistics.restarts, 2u);
  EXPECT_EQ(c.statistics.worker_checkpoints, 30u);
  EXPECT_EQ(c.statistics.work_divisions, 4u);
  EXPECT_EQ(c.written_at, 1700000000);
  EXPECT_EQ(remaining_size(c), 23);
}

TEST_F(CheckpointFile, ReadsTheWriterOfVersion2AndVersion1WithoutOne) {
  write_bytes(path_, file_of(HandPayload{}.encode()));
  EXPECT_EQ(load_checkpoint(path_).written_by, "0.0.9-g0123456789ab");
  HandPayload old;
  old.version = 1;
  write_bytes(path_, file_of(old.encode(), 1));
  const GlobalCheckpoint c = load_checkpoint(path_);
  EXPECT_EQ(c.format_version, 1u);
  EXPECT_EQ(c.written_by, "");
  EXPECT_EQ(c.instance_name, "hand");
  EXPECT_EQ(c.written_at, 1700000000);
}

// A later format (4) is refused with the name of the permbb that wrote it, read from the
// payload's first field, which every version from 2 on keeps; whatever follows it is not read.
TEST_F(CheckpointFile, NewerFormatIsRefusedNamingItsWriter) {
  HandPayload later;
  later.writer = "0.4.0-gfedcba987654";
  Bytes payload = later.encode();
  payload.push_back(7);  // a field this version does not know
  write_bytes(path_, file_of(payload, 4));
  const std::string message = testing::input_error_of([&] { load_checkpoint(path_); });
  EXPECT_TRUE(contains(message, path_)) << message;
  EXPECT_TRUE(contains(message, "written by permbb 0.4.0-gfedcba987654")) << message;
  EXPECT_TRUE(contains(message, "newer format version (4)")) << message;
  EXPECT_TRUE(contains(message, build_version())) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  // Without a readable writer it is only an unknown format.
  write_bytes(path_, file_of(Bytes{1, 2, 3}, 4));
  const std::string unnamed = testing::input_error_of([&] { load_checkpoint(path_); });
  EXPECT_TRUE(contains(unnamed, "unknown format version 4 (known versions: 1 to 3)")) << unnamed;
}

TEST_F(CheckpointFile, SavedFileStartsWithTheDocumentedHeader) {
  save_checkpoint(small_checkpoint(), path_);
  const Bytes bytes = read_bytes(path_);
  ASSERT_GT(bytes.size(), 28u);
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 8), "PERMBBCK");
  ByteReader header(bytes.data() + 8, 20, "header");
  EXPECT_EQ(header.get<std::uint32_t>(), 3u);
  EXPECT_EQ(header.get<std::uint64_t>(), bytes.size() - 28);
  EXPECT_EQ(header.get<std::uint64_t>(), crc64(bytes.data() + 28, bytes.size() - 28));
}

// ------------------------------------------------------------------ refused files

TEST_F(CheckpointFile, PayloadsThatDoNotDecodeAreMalformed) {
  std::vector<HandPayload> bad(7);
  bad[0].bound = "lb9";                   // unknown bound name
  bad[1].intervals = {{0, 10}, {5, 24}};  // overlapping
  bad[2].intervals = {{6, 24}, {0, 5}};   // out of order
  bad[3].intervals = {{0, 25}};           // beyond 4!
  bad[4].permutation = {0, 1, 1, 2};      // not a permutation
  bad[5].trailing = 3;                    // bytes after the last field
  bad[6].jobs = 5000;                     // more jobs than kMaxJobs
  for (const HandPayload& payload : bad) {
    write_bytes(path_, file_of(payload.encode()));
    const std::string message = testing::input_error_of([&] { load_checkpoint(path_); });
    EXPECT_TRUE(contains(message, "malformed")) << message;
    EXPECT_TRUE(contains(message, path_)) << message;
  }
  // Garbage with a valid checksum.
  write_bytes(path_, file_of(Bytes{1, 2, 3, 4, 5}));
  const std::string message = testing::input_error_of([&] { load_checkpoint(path_); });
  EXPECT_TRUE(contains(message, "malformed")) << message;
}

// Content that no run writes: work of two units overlapping (each unit alone is sorted and
// disjoint) and a best above the initial bound. Loading such files (made with a valid
// checksum) is tested from the command line (tests/data/checkpoints).
TEST_F(CheckpointFile, InconsistentContentIsNeverWritten) {
  GlobalCheckpoint overlap = small_checkpoint();
  overlap.active = {WorkUnit(3, {iv(5, 11)})};  // unit 7 holds [0, 10)
  GlobalCheckpoint above = small_checkpoint();
  above.best_makespan = above.initial_ub + 1;
  for (const GlobalCheckpoint& c : {overlap, above}) {
    EXPECT_THROW(save_checkpoint(c, path_), std::invalid_argument);
  }
}

// Each way of breaking the file gets its own message, naming the file, and a failed load
// leaves the previous checkpoint as it was.
TEST_F(CheckpointFile, EachDamageHasItsOwnMessage) {
  save_checkpoint(small_checkpoint(1), path_);
  save_checkpoint(small_checkpoint(2), path_);
  const std::string prev = path_ + ".prev";
  const Bytes prev_bytes = read_bytes(prev);
  const Bytes good = read_bytes(path_);

  struct Case {
    const char* what;
    Bytes bytes;
    const char* expected;
  };
  std::vector<Case> cases;
  cases.push_back({"cut payload", Bytes(good.begin(), good.end() - 10), "is truncated"});
  cases.push_back({"cut header", Bytes(good.begin(), good.begin() + 20), "is truncated"});
  cases.push_back({"empty", Bytes{}, "is truncated"});
  Bytes longer = good;
  longer.push_back(0);
  cases.push_back({"extra byte", longer, "trailing bytes"});
  Bytes flipped_payload = good;
  flipped_payload[good.size() / 2] ^= 0x10;
  cases.push_back({"flipped payload byte", flipped_payload, "is corrupted"});
  Bytes flipped_magic = good;
  flipped_magic[3] ^= 0x01;
  cases.push_back({"flipped magic byte", flipped_magic, "is not a permbb checkpoint"});
  Bytes version = good;
  version[8] = 0;
  cases.push_back({"version 0", version, "unknown format version 0"});
  cases.push_back({"malformed", file_of(Bytes{9, 9, 9}), "is malformed"});

  const std::vector<std::string> all = {
      "is truncated",           "trailing bytes", "is corrupted", "is not a permbb checkpoint",
      "unknown format version", "is malformed",   "cannot open"};
  for (const Case& c : cases) {
    write_bytes(path_, c.bytes);
    const std::string message = testing::input_error_of([&] { load_checkpoint(path_); });
    EXPECT_TRUE(contains(message, c.expected)) << c.what << ": " << message;
    EXPECT_TRUE(contains(message, path_)) << c.what << ": " << message;
    for (const std::string& other : all) {
      if (!contains(c.expected, other)) {
        EXPECT_FALSE(contains(message, other)) << c.what << ": " << message;
      }
    }
    EXPECT_EQ(read_bytes(prev), prev_bytes) << c.what;
  }
  const std::string known = testing::input_error_of([&] {
    write_bytes(path_, version);
    load_checkpoint(path_);
  });
  EXPECT_TRUE(contains(known, "known versions: 1 to 3")) << known;
  expect_same(load_checkpoint(prev), small_checkpoint(1));
}

TEST_F(CheckpointFile, MissingFileOrFolderCannotBeOpened) {
  for (const std::string& path : {path_ + ".none", folder_.string()}) {
    const std::string message = testing::input_error_of([&] { load_checkpoint(path); });
    EXPECT_TRUE(contains(message, "cannot open")) << message;
    EXPECT_TRUE(contains(message, path)) << message;
  }
}

TEST_F(CheckpointFile, WritabilityCheckRefusesAMissingFolderOrAFolderAndLeavesNothing) {
  const std::string missing = (folder_ / "no-such-folder" / "run.ckpt").string();
  for (const std::string& path : {missing, folder_.string()}) {
    const std::string message = testing::input_error_of([&] { check_checkpoint_writable(path); });
    EXPECT_TRUE(contains(message, "cannot save checkpoint '" + path + "'")) << message;
  }
  check_checkpoint_writable(path_);  // a writable folder: accepted, and nothing is left there
  check_checkpoint_writable("");     // no --checkpoint: nothing to check
  EXPECT_TRUE(fs::is_empty(folder_));
}

// ------------------------------------------------------------------ .prev and fallback

TEST_F(CheckpointFile, PrevHoldsThePreviousCheckpoint) {
  save_checkpoint(small_checkpoint(1), path_);
  EXPECT_FALSE(fs::exists(path_ + ".prev"));
  save_checkpoint(small_checkpoint(2), path_);
  expect_same(load_checkpoint(path_), small_checkpoint(2));
  expect_same(load_checkpoint(path_ + ".prev"), small_checkpoint(1));
  save_checkpoint(small_checkpoint(3), path_);
  expect_same(load_checkpoint(path_), small_checkpoint(3));
  expect_same(load_checkpoint(path_ + ".prev"), small_checkpoint(2));
}

TEST_F(CheckpointFile, NoTemporaryFileIsLeftBehind) {
  for (std::uint64_t tag = 1; tag <= 3; ++tag) save_checkpoint(small_checkpoint(tag), path_);
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder_)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"search.ckpt", "search.ckpt.prev"}));
}

TEST_F(CheckpointFile, FallbackLoadsPrevWhenTheMainFileIsCorrupted) {
  save_checkpoint(small_checkpoint(1), path_);
  save_checkpoint(small_checkpoint(2), path_);
  Bytes bytes = read_bytes(path_);
  bytes.back() ^= 0xFF;
  write_bytes(path_, bytes);

  std::string note = "stale";
  const GlobalCheckpoint c = load_checkpoint_with_fallback(path_, true, &note);
  expect_same(c, small_checkpoint(1));
  EXPECT_TRUE(contains(note, path_ + ".prev")) << note;
  EXPECT_TRUE(contains(note, "corrupted")) << note;

  const std::string refused =
      testing::input_error_of([&] { load_checkpoint_with_fallback(path_, false, &note); });
  EXPECT_TRUE(contains(refused, "corrupted")) << refused;
  EXPECT_TRUE(contains(refused, "--restart-fallback")) << refused;
}

TEST_F(CheckpointFile, FallbackIsSilentWhenTheMainFileIsGood) {
  save_checkpoint(small_checkpoint(1), path_);
  save_checkpoint(small_checkpoint(2), path_);
  std::string note = "stale";
  expect_same(load_checkpoint_with_fallback(path_, true, &note), small_checkpoint(2));
  EXPECT_EQ(note, "");
  expect_same(load_checkpoint_with_fallback(path_, false, nullptr), small_checkpoint(2));
}

TEST_F(CheckpointFile, FallbackGivesBothReasonsWhenBothFilesAreBad) {
  write_bytes(path_, Bytes{'P', 'E'});
  write_bytes(path_ + ".prev", Bytes{'X', 'Y', 'Z'});
  const std::string message =
      testing::input_error_of([&] { load_checkpoint_with_fallback(path_, true, nullptr); });
  EXPECT_TRUE(contains(message, "truncated")) << message;
  EXPECT_TRUE(contains(message, "not a permbb checkpoint")) << message;
  EXPECT_TRUE(contains(message, path_ + ".prev")) << message;
  // Without .prev there is nothing to hint at.
  fs::remove(path_ + ".prev");
  const std::string alone =
      testing::input_error_of([&] { load_checkpoint_with_fallback(path_, false, nullptr); });
  EXPECT_TRUE(contains(alone, "truncated")) << alone;
  EXPECT_FALSE(contains(alone, "--restart-fallback")) << alone;
}

// ------------------------------------------------------------------ save errors

TEST_F(CheckpointFile, SaveIntoAMissingFolderNamesThePath) {
  const std::string path = (folder_ / "no" / "such" / "run.ckpt").string();
  try {
    save_checkpoint(small_checkpoint(), path);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), path)) << e.what();
    EXPECT_TRUE(contains(e.what(), "No such file or directory")) << e.what();
  }
  EXPECT_FALSE(fs::exists(folder_ / "no"));
}

TEST_F(CheckpointFile, SaveOntoAFolderFailsAndLeavesItAlone) {
  fs::create_directories(fs::path(path_) / "inside");
  EXPECT_THROW(save_checkpoint(small_checkpoint(), path_), std::runtime_error);
  EXPECT_TRUE(fs::is_directory(fs::path(path_) / "inside"));
  EXPECT_FALSE(fs::exists(path_ + ".prev"));
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(folder_)) ++entries;
  EXPECT_EQ(entries, 1u);  // no temporary file either
}

TEST_F(CheckpointFile, SaveRefusesACheckpointThatWouldNotLoad) {
  save_checkpoint(small_checkpoint(1), path_);
  const Bytes before = read_bytes(path_);
  std::vector<GlobalCheckpoint> bad(3, small_checkpoint(2));
  bad[0].active.push_back(WorkUnit(4, {iv(110, 121)}));  // beyond 5!
  bad[1].best_permutation = {0, 1, 2};
  bad[2].jobs = 0;
  for (const GlobalCheckpoint& c : bad) {
    EXPECT_THROW(save_checkpoint(c, path_), std::invalid_argument);
    EXPECT_EQ(read_bytes(path_), before);
  }
  EXPECT_FALSE(fs::exists(path_ + ".prev"));
}

}  // namespace
}  // namespace permbb
