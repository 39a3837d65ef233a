// Knapsack instance files: a good file (comments, blank lines, CRLF) and every kind of bad
// input, each reported as `path:line: ...` on one line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "input_error.hpp"
#include "knapsack_file.hpp"

namespace permbb::knapsack {
namespace {

// Writes `text` to a fresh file in the temporary directory and returns its path (a random part
// keeps concurrent runs apart).
std::string write_temp(const std::string& stem, const std::string& text) {
  const std::string unique = std::to_string(std::random_device()());
  const auto path = std::filesystem::temp_directory_path() / (stem + "_" + unique + ".txt");
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

// Reading a file holding `text` fails with "PATH:LINE: ..." containing `fragment`.
void expect_error(const std::string& text, int line, const std::string& fragment) {
  SCOPED_TRACE(text);
  const std::string path = write_temp("knapsack_bad", text);
  std::string message;
  try {
    read_knapsack_file(path);
  } catch (const InputError& e) {
    message = e.what();
  }
  std::filesystem::remove(path);
  ASSERT_FALSE(message.empty()) << "no InputError";
  const std::string place = path + ":" + std::to_string(line) + ": ";
  EXPECT_EQ(message.rfind(place, 0), 0u) << message;
  EXPECT_NE(message.find(fragment), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(KnapsackFile, ReadsItemsCommentsAndBlankLines) {
  const std::string path = write_temp("knapsack_good",
                                      "# three items\n"
                                      "3 10   # n c\n"
                                      "\n"
                                      "20 6\r\n"
                                      "  18\t5\n"
                                      "15 4 # last\n");
  const KnapsackInstance instance = read_knapsack_file(path);
  std::filesystem::remove(path);
  EXPECT_EQ(instance.capacity, 10);
  EXPECT_EQ(instance.profits, (std::vector<std::int64_t>{20, 18, 15}));
  EXPECT_EQ(instance.weights, (std::vector<std::int64_t>{6, 5, 4}));
  EXPECT_EQ(instance.name.rfind("knapsack_good", 0), 0u);
}

TEST(KnapsackFile, WritesWhatItReads) {
  KnapsackInstance instance;
  instance.name = "x";
  instance.capacity = 0;
  instance.profits = {1, 9223372036854775806};
  instance.weights = {3, 1};
  const KnapsackInstance back = parse_knapsack_text(format_knapsack_file(instance), "x.txt");
  EXPECT_EQ(back.capacity, 0);
  EXPECT_EQ(back.profits, instance.profits);
  EXPECT_EQ(back.weights, instance.weights);
}

TEST(KnapsackFile, MissingAndSurplusValues) {
  expect_error("", 1, "empty file");
  expect_error("# only a comment\n\n", 2, "empty file");
  expect_error("3 1 1\n", 1, "expected 'n capacity', found 3 values");
  expect_error("2 10\n5 5\n7\n", 3, "expected 'profit weight', found 1 value");
  expect_error("2 10\n5 5 5\n7 1\n", 2, "found 3 values");
}

TEST(KnapsackFile, WrongItemCount) {
  expect_error("3 10\n1 1\n2 2\n\n# end\n", 5, "expected 3 item lines (n in the header), found 2");
  expect_error("1 10\n1 1\n2 2\n", 3, "more item lines than the 1 announced");
  expect_error("0 10\n", 1, "item count 0 must be at least 1");
}

TEST(KnapsackFile, NonIntegersAndNonPositiveValues) {
  expect_error("1 10\n1.5 2\n", 2, "profit '1.5' is not an integer");
  expect_error("1 10\n2 abc\n", 2, "weight 'abc' is not an integer");
  expect_error("1 1e3\n2 2\n", 1, "capacity '1e3' is not an integer");
  expect_error("1 10\n2 0\n", 2, "weight 0 must be positive");
  expect_error("1 10\n2 -4\n", 2, "weight -4 must be positive");
  expect_error("1 10\n0 4\n", 2, "profit 0 must be positive");
  expect_error("1 -1\n2 4\n", 1, "capacity -1 must be non-negative");
}

// The layout of Pisinger's and Jooken et al.'s files, written here from its description: n,
// then n lines `id profit weight`, then the capacity.
TEST(KnapsackFile, ReadsTheNumberedLayout) {
  const KnapsackInstance instance = parse_knapsack_text(
      "3\n"
      "1 20 6\n"
      "2 18 5   # ids are labels\n"
      "\n"
      "3 15 4\r\n"
      "10\n",
      "jooken_like.txt");
  EXPECT_EQ(instance.name, "jooken_like");
  EXPECT_EQ(instance.capacity, 10);
  EXPECT_EQ(instance.profits, (std::vector<std::int64_t>{20, 18, 15}));
  EXPECT_EQ(instance.weights, (std::vector<std::int64_t>{6, 5, 4}));
  // Ids from 0, in any order, and capacities past 32 bits.
  const KnapsackInstance zero_based =
      parse_knapsack_text("2\n1 7 3\n0 9 4\n1000000000000000\n", "z.txt");
  EXPECT_EQ(zero_based.capacity, 1'000'000'000'000'000);
  EXPECT_EQ(zero_based.profits, (std::vector<std::int64_t>{7, 9}));
}

TEST(KnapsackFile, NumberedLayoutErrorsNameTheLine) {
  expect_error("2\n1 5 5\n7\n", 3, "found 1 before the capacity");
  expect_error("2\n1 5 5\n2 7 1\n", 3, "expected the capacity on the line after the 2 items");
  expect_error("2\n1 5 5\n2 7\n10\n", 3, "expected 'id profit weight', found 2 values");
  expect_error("1\n1 5 5\n2 7 1\n10\n", 3, "more item lines than the 1 announced");
  expect_error("1\n1 5 5\n10 11\n", 3, "expected 'capacity', found 2 values");
  expect_error("1\n1 5 5\n10\n3\n", 4, "unexpected values after the capacity");
  expect_error("1\nx 5 5\n10\n", 2, "item id 'x' is not an integer");
  expect_error("1\n1 0 5\n10\n", 2, "profit 0 must be positive");
  expect_error("1\n1 5 5\n-3\n", 3, "capacity -3 must be non-negative");
  expect_error("0\n10\n", 1, "item count 0 must be at least 1");
  expect_error("2\n1 9223372036854775807 1\n2 1 1\n5\n", 3, "the total profit exceeds");
}

TEST(KnapsackFile, Overflow) {
  expect_error("1 10\n9223372036854775808 1\n", 2, "out of range");
  expect_error("1 99999999999999999999999\n1 1\n", 1,
               "capacity '99999999999999999999999' is out of range");
  expect_error("3 10\n1 4611686018427387904\n1 4611686018427387904\n1 1\n", 3,
               "the total weight exceeds 2^63 - 1");
  expect_error("2 10\n9223372036854775807 1\n1 1\n", 3, "the total profit exceeds 2^63 - 1");
}

TEST(KnapsackFile, TheLargestValuesAndTotalsAreRead) {
  // Every value at 2^63 - 1, and two items whose totals are exactly 2^63 - 1.
  const KnapsackInstance one = parse_knapsack_text(
      "1 9223372036854775807\n9223372036854775807 9223372036854775807\n", "one.txt");
  EXPECT_EQ(one.capacity, 9223372036854775807);
  EXPECT_EQ(one.profits, (std::vector<std::int64_t>{9223372036854775807}));
  EXPECT_EQ(one.weights, (std::vector<std::int64_t>{9223372036854775807}));
  const KnapsackInstance two = parse_knapsack_text(
      "2 0\n4611686018427387904 4611686018427387903\n4611686018427387903 4611686018427387904\n",
      "two.txt");
  EXPECT_EQ(two.profits[0] + two.profits[1], 9223372036854775807);
  EXPECT_EQ(two.weights[0] + two.weights[1], 9223372036854775807);
  // One more unit of weight on the last line passes 2^63 - 1: refused there.
  expect_error("2 0\n4611686018427387904 4611686018427387904\n1 4611686018427387904\n", 3,
               "the total weight exceeds 2^63 - 1");
}

TEST(KnapsackFile, UnreadableFile) {
  try {
    read_knapsack_file("/nonexistent/knapsack.txt");
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("/nonexistent/knapsack.txt: cannot open file", 0), 0u)
        << e.what();
  }
}

}  // namespace
}  // namespace permbb::knapsack
