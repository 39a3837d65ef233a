// Taillard's published files (taillard_file.hpp) and `FILE#k` (load_instance). The fixture
// tests/data/instances/taillard_20x5_first3.txt holds ta001..ta003 in the published layout,
// written by tests/data/write_taillard_fixture.py with its own generator; its headers hold the
// seeds and upper bounds of Taillard's table (../shared/notes/taillard.md) and the published
// lower bounds. The times are checked against permbb's generator and the published checksums.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "input_error.hpp"
#include "instance_source.hpp"
#include "taillard.hpp"
#include "taillard_file.hpp"
#include "test_support.hpp"
#include "text_file.hpp"

namespace permbb {
namespace {

const std::string kFixture = PERMBB_TEST_DATA_DIR "/instances/taillard_20x5_first3.txt";


std::string write_text(const std::string& stem, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() /
                    (stem + "_" + std::to_string(std::random_device()()) + ".txt");
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

std::string repeated(const std::string& text, int times) {
  std::string out;
  out.reserve(text.size() * times);
  for (int k = 0; k < times; ++k) out += text;
  return out;
}

const char* const kHeader =
    "number of jobs, number of machines, initial seed, upper bound and lower bound :\n";

TEST(TaillardFile, ReadsEveryHeaderOfThePublishedLayout) {
  std::ifstream in(kFixture);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_TRUE(looks_like_taillard_file(text));
  const auto entries = parse_taillard_file(text, kFixture);
  ASSERT_EQ(entries.size(), 3u);
  const std::int64_t seeds[] = {873654221, 379008056, 1866992158};
  const std::int64_t upper[] = {1278, 1359, 1081};
  const std::int64_t lower[] = {1232, 1290, 1073};
  for (int k = 0; k < 3; ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(entries[k].line, 1 + 8 * k);
    EXPECT_EQ(entries[k].jobs, 20);
    EXPECT_EQ(entries[k].machines, 5);
    EXPECT_EQ(entries[k].seed, seeds[k]);
    EXPECT_EQ(entries[k].upper_bound, upper[k]);
    EXPECT_EQ(entries[k].lower_bound, lower[k]);
  }
  EXPECT_EQ(entries[0].times[0], 54);  // taillard.md: ta001's first row starts 54 83 15
  EXPECT_EQ(entries[0].times[2], 15);
}

TEST(TaillardFile, FileHashKSelectsTheKthInstance) {
  const std::int64_t checksums[] = {5153, 5196, 4605};  // published, ta001..ta003
  for (int k = 1; k <= 3; ++k) {
    SCOPED_TRACE(k);
    const Instance instance = load_instance(kFixture + "#" + std::to_string(k));
    EXPECT_EQ(instance.name(), "taillard_20x5_first3#" + std::to_string(k));
    EXPECT_EQ(instance.checksum(), checksums[k - 1]);
    EXPECT_EQ(instance.times(), taillard::generate(k).times());
  }
}

TEST(TaillardFile, SelectionOutOfRangeOrMissingIsOneClearLine) {
  for (const auto& [spec, fragment] : std::vector<std::pair<std::string, std::string>>{
           {kFixture + "#4", "#4: the file holds only 3 instances (#1 to #3)"},
           {kFixture + "#0", "#0: instances are numbered from 1"},
           {kFixture, ": the file holds 3 instances: select one as " + kFixture + "#K"},
           {kFixture + "#9999999", "is too large"}}) {
    SCOPED_TRACE(spec);
    const std::string message = testing::input_error_of([&] { load_instance(spec); });
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  const std::string plain = PERMBB_TEST_DATA_DIR "/instances/plain_3x2.txt";
  EXPECT_EQ(load_instance(plain + "#1").jobs(), 3);
  EXPECT_NE(testing::input_error_of([&] { load_instance(plain + "#2"); }).find("holds one instance"),
            std::string::npos);
}

TEST(TaillardFile, OneInstanceNeedsNoSelectionAndTakesTheFileName) {
  const std::string path = write_text(
      "one", std::string(kHeader) + "  3  2  1  9  5\r\nprocessing times :\r\n 1 2 3\r\n 4 5 6\r\n");
  const Instance instance = load_instance(path);
  EXPECT_EQ(instance.name(), std::filesystem::path(path).stem().string());
  EXPECT_EQ(instance.times(), (std::vector<Time>{1, 2, 3, 4, 5, 6}));
  std::filesystem::remove(path);
}

// A row may wrap; comments and blank lines are ignored, as in the other formats.
TEST(TaillardFile, RowsMayWrapOverLines) {
  const std::string text = std::string("# two instances\n") + kHeader +
                           "2 2 7 8 9\nprocessing times :\n1\n2 3\n\n4\n" + kHeader +
                           "1 1 0 0 0\nProcessing Times:\n5\n";
  const auto entries = parse_taillard_file(without_comments(text), "x.txt");
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].times, (std::vector<Time>{1, 2, 3, 4}));
  EXPECT_EQ(entries[1].times, (std::vector<Time>{5}));
  EXPECT_EQ(entries[1].line, 9);
}

TEST(TaillardFile, MalformedFilesNameTheLine) {
  const std::string h = kHeader;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {h + "2 2 7 8\nprocessing times :\n1 2\n3 4\n",
       "x.txt:3: expected an integer (the lower bound of instance 1), found 'processing'"},
      {h + "2 2 7 8 9\nprocessing times :\n1 2\n3\n" + h + "1 1 0 0 0\nprocessing times :\n5\n",
       "x.txt:5: instance 1 has only 3 of its 4 processing times (2 machine rows of 2)"},
      {h + "2 2 7 8 9\nprocessing times :\n1 2\n3\n",
       "x.txt:5: instance 1 has only 3 of its 4 processing times"},
      {h + "2 2 7 8 9\ntimes :\n1 2\n3 4\n",
       "x.txt:3: expected \"processing times :\" after the header of instance 1, found 'times'"},
      {h + "0 2 7 8 9\n", "x.txt:2: the number of jobs 0 is out of range"},
      {h + "1 1 7 8 9\nprocessing times :\n-4\n", "x.txt:4: a processing time -4 is out of range"},
      {h + "1 1 7 8 9\nprocessing times :\n4 5\n",
       "x.txt:4: expected the header \"number of jobs, ...\" of instance 2, found '5'"},
      {"number of jobs\n1 1 1 1 1\n", "x.txt:1: the line \"number of jobs"},
      {h + "1 1 7 8 9\nprocessing times :\nx\n",
       "x.txt:4: expected an integer (a processing time of instance 1), found 'x'"},
      // 2200 times of 10^6 (the largest) on one machine: 2.2 * 10^9 does not fit in 2^31 - 1.
      {h + "2200 1 7 8 9\nprocessing times :\n" + repeated("1000000 ", 2200),
       "x.txt:1: instance 1: total processing time 2200000000 does not fit"},
  };
  for (const auto& [text, expected] : cases) {
    SCOPED_TRACE(text);
    const std::string message = testing::input_error_of([&] { parse_taillard_file(text, "x.txt"); });
    EXPECT_EQ(message.rfind(expected, 0), 0u) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace permbb
