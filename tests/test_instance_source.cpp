// Instance validation, instance files (plain and VRF), Taillard names and format_plain.
// Expected values are those written in the test files under tests/data/instances, read off
// the shared VRF file by eye, or published (Taillard checksums).
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "input_error.hpp"
#include "instance.hpp"
#include "instance_source.hpp"

namespace permbb {
namespace {

const std::string kDataDir = PERMBB_TEST_DATA_DIR "/instances/";
const std::string kVrfFile =
    PERMBB_TEST_DATA_DIR "/../../../shared/data/vrf-small/VFR10_5_1_Gap.txt";

// The message of the InputError that reading `path` throws ("" when none is thrown).
std::string read_error(const std::string& path) {
  try {
    read_instance_file(path);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

// Reading tests/data/instances/`file` fails with "PATH:LINE: ..." containing `fragment`.
void expect_file_error(const std::string& file, int line, const std::string& fragment) {
  SCOPED_TRACE(file);
  const std::string path = kDataDir + file;
  const std::string message = read_error(path);
  ASSERT_FALSE(message.empty()) << "no InputError";
  const std::string place = path + ":" + std::to_string(line) + ": ";
  EXPECT_EQ(message.rfind(place, 0), 0u) << message;
  EXPECT_NE(message.find(fragment), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

// Writes `text` to a fresh file in the temporary directory and returns its path. A random
// part in the name keeps concurrent runs (other build folders) apart.
std::string write_temp(const std::string& stem, const std::string& text) {
  const std::string unique = std::to_string(std::random_device()());
  const auto path = std::filesystem::temp_directory_path() / (stem + "_" + unique + ".txt");
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

// The 3-job, 2-machine instance of plain_3x2.txt and vrf_3x2.txt.
void expect_3x2(const Instance& instance) {
  ASSERT_EQ(instance.jobs(), 3);
  ASSERT_EQ(instance.machines(), 2);
  EXPECT_EQ(instance.times(), (std::vector<Time>{10, 20, 30, 40, 50, 60}));
  EXPECT_EQ(instance.time(0, 2), 30);
  EXPECT_EQ(instance.time(1, 0), 40);
  EXPECT_EQ(instance.checksum(), 210);
}

void expect_same_data(const Instance& a, const Instance& b) {
  EXPECT_EQ(a.jobs(), b.jobs());
  EXPECT_EQ(a.machines(), b.machines());
  EXPECT_EQ(a.times(), b.times());
  EXPECT_EQ(a.fingerprint(), b.fingerprint());
}

TEST(Instance, RejectsBadSizesAndTimesNamingTheInstance) {
  const auto expect_error = [](int jobs, int machines, std::vector<Time> times,
                               const std::string& fragment) {
    try {
      Instance("demo", jobs, machines, std::move(times));
      ADD_FAILURE() << "no InputError for " << fragment;
    } catch (const InputError& error) {
      const std::string message = error.what();
      EXPECT_EQ(message.rfind("demo: ", 0), 0u) << message;
      EXPECT_NE(message.find(fragment), std::string::npos) << message;
    }
  };
  expect_error(0, 1, {}, "number of jobs 0");
  expect_error(4001, 1, std::vector<Time>(4001, 1), "number of jobs 4001");
  expect_error(1, 0, {}, "number of machines 0");
  expect_error(1, 1001, std::vector<Time>(1001, 1), "number of machines 1001");
  expect_error(2, 2, {1, 2, 3}, "expected 4");
  expect_error(2, 1, {1, -1}, "processing time -1");
  expect_error(2, 1, {1000001, 1}, "processing time 1000001");
  // 2148 jobs of 10^6 sum past INT32_MAX (2147483647).
  expect_error(2148, 1, std::vector<Time>(2148, 1000000), "total processing time");
}

TEST(Instance, AcceptsTheLimits) {
  const Instance instance("edge", 2, 1, {0, 1000000});
  EXPECT_EQ(instance.checksum(), 1000000);
}

// FNV-1a 64 as documented in instance.cpp: jobs, machines, then the times in machine-major
// order, each as 4 little-endian bytes. Written here independently of the code under test.
std::uint64_t reference_fingerprint(std::int32_t jobs, std::int32_t machines,
                                    const std::vector<std::int32_t>& times) {
  std::vector<std::int32_t> values = {jobs, machines};
  values.insert(values.end(), times.begin(), times.end());
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (std::int32_t value : values) {
    for (int byte = 0; byte < 4; ++byte) {
      hash ^= (static_cast<std::uint32_t>(value) >> (8 * byte)) & 0xff;
      hash *= 0x100000001b3ull;
    }
  }
  return hash;
}

TEST(Instance, FingerprintIsFnv1aOfSizesAndTimes) {
  const Instance a("a", 3, 2, {10, 20, 30, 40, 50, 60});
  EXPECT_EQ(a.fingerprint(), reference_fingerprint(3, 2, {10, 20, 30, 40, 50, 60}));
  EXPECT_EQ(a.fingerprint(), Instance("other name", 3, 2, a.times()).fingerprint());
  EXPECT_NE(a.fingerprint(), Instance("a", 2, 3, a.times()).fingerprint());
  EXPECT_NE(a.fingerprint(), Instance("a", 3, 2, {10, 20, 30, 40, 50, 61}).fingerprint());
}

TEST(InstanceSource, ReadsPlainFile) {
  const Instance instance = read_instance_file(kDataDir + "plain_3x2.txt");
  EXPECT_EQ(instance.name(), "plain_3x2");
  expect_3x2(instance);
}

// vrf_3x2.txt has CRLF line ends and one job's pairs in reverse machine order.
TEST(InstanceSource, ReadsVrfFileAsItsPlainEquivalent) {
  const Instance vrf = read_instance_file(kDataDir + "vrf_3x2.txt");
  EXPECT_EQ(vrf.name(), "vrf_3x2");
  expect_3x2(vrf);
  expect_same_data(vrf, read_instance_file(kDataDir + "plain_3x2.txt"));
}

// The count of numbers decides the format, not the line breaks.
TEST(InstanceSource, FormatDoesNotDependOnLineBreaks) {
  expect_3x2(read_instance_file(kDataDir + "plain_one_line.txt"));
  expect_3x2(read_instance_file(kDataDir + "vrf_one_line.txt"));
}

TEST(InstanceSource, ReadsPublishedVrfFile) {
  ASSERT_TRUE(std::filesystem::exists(kVrfFile)) << kVrfFile;
  const Instance instance = read_instance_file(kVrfFile);
  EXPECT_EQ(instance.name(), "VFR10_5_1_Gap");
  ASSERT_EQ(instance.jobs(), 10);
  ASSERT_EQ(instance.machines(), 5);
  // First and last job rows of the file: "0 45 1 31 2 54 3 54 4 64", "0 57 1 31 2 33 3 8 4 19".
  const std::vector<Time> first = {45, 31, 54, 54, 64};
  const std::vector<Time> last = {57, 31, 33, 8, 19};
  for (int machine = 0; machine < 5; ++machine) {
    EXPECT_EQ(instance.time(machine, 0), first[machine]) << machine;
    EXPECT_EQ(instance.time(machine, 9), last[machine]) << machine;
  }
}

TEST(InstanceSource, RejectsMalformedFilesWithFileAndLine) {
  expect_file_error("bad_truncated.txt", 3, "found only 5");
  expect_file_error("bad_token.txt", 3, "'5x'");
  expect_file_error("bad_negative.txt", 3, "processing time -5");
  expect_file_error("bad_time_range.txt", 3, "processing time 1000001");
  expect_file_error("bad_zero_jobs.txt", 2, "number of jobs 0");
  expect_file_error("bad_machines_range.txt", 2, "number of machines 1001");
  expect_file_error("bad_trailing.txt", 5, "'end'");
  expect_file_error("bad_empty.txt", 1, "number of jobs");
}

TEST(InstanceSource, RejectsMalformedVrfFilesWithFileAndLine) {
  expect_file_error("bad_vrf_trailing.txt", 4, "'7'");
  expect_file_error("bad_vrf_duplicate.txt", 3, "machine index 1 appears twice for job 2");
  expect_file_error("bad_vrf_index.txt", 3, "machine index 2");
  expect_file_error("bad_vrf_truncated.txt", 4, "found only 10");
  // 12 numbers = n*m, but laid out as VRF rows: a VRF file cut in half, not a plain instance.
  expect_file_error("bad_vrf_half.txt", 4, "expected 24 numbers");
}

TEST(InstanceSource, RejectsTotalThatDoesNotFit) {
  // 2148 times of 10^6 on one machine: the sum passes INT32_MAX.
  std::string text = "2148 1\n";
  for (int job = 0; job < 2148; ++job) text += "1000000 ";
  const std::string path = write_temp("permbb_test_total", text);
  const std::string message = read_error(path);
  EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << message;
  EXPECT_NE(message.find("total processing time"), std::string::npos) << message;
  std::filesystem::remove(path);
}

TEST(InstanceSource, MissingFileIsAnInputError) {
  const std::string path = kDataDir + "no_such_file.txt";
  const std::string message = read_error(path);
  EXPECT_EQ(message.rfind(path + ": cannot open", 0), 0u) << message;
  EXPECT_THROW(load_instance(path), InputError);
}

TEST(InstanceSource, DirectoryIsAnInputError) {
  const std::string message = read_error(kDataDir);
  EXPECT_EQ(message.rfind(kDataDir + ": cannot", 0), 0u) << message;
}

TEST(InstanceSource, FormatPlainWritesRowsPerMachine) {
  const Instance instance("x", 3, 2, {10, 20, 30, 40, 50, 60});
  std::ifstream file(kDataDir + "plain_3x2.txt", std::ios::binary);
  const std::string expected((std::istreambuf_iterator<char>(file)),
                             std::istreambuf_iterator<char>());
  EXPECT_EQ(format_plain(instance), expected);
}

TEST(InstanceSource, FormatPlainRoundTripsTa001) {
  const Instance ta001 = load_instance("ta001");
  const std::string path = write_temp("permbb_test_ta001", format_plain(ta001));
  expect_same_data(read_instance_file(path), ta001);
  std::filesystem::remove(path);
}

TEST(InstanceSource, FormatPlainRoundTripsVrfFile) {
  ASSERT_TRUE(std::filesystem::exists(kVrfFile)) << kVrfFile;
  const Instance vrf = read_instance_file(kVrfFile);
  const std::string path = write_temp("permbb_test_vrf", format_plain(vrf));
  expect_same_data(read_instance_file(path), vrf);
  std::filesystem::remove(path);
}

TEST(InstanceSource, LoadsTaillardNamesInAnySpelling) {
  const Instance a = load_instance("ta001");
  const Instance b = load_instance("TA1");
  EXPECT_EQ(a.name(), "ta001");
  EXPECT_EQ(a.checksum(), 5153);  // published checksum of ta001
  EXPECT_EQ(b.checksum(), 5153);
  expect_same_data(a, b);
  EXPECT_EQ(load_instance("ta21").checksum(), 20273);  // published checksum of ta021
}

TEST(InstanceSource, LoadsFilesByPath) {
  expect_3x2(load_instance(kDataDir + "plain_3x2.txt"));
}

TEST(InstanceSource, OutOfRangeTaillardNameIsAnInputError) {
  try {
    load_instance("ta121");
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()).rfind("ta121: ", 0), 0u) << error.what();
  }
}

}  // namespace
}  // namespace permbb
