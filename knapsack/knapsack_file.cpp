#include "knapsack_file.hpp"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <vector>

#include "text_file.hpp"

#include "input_error.hpp"

namespace permbb::knapsack {
namespace {

// One line's values, comments stripped.
struct Line {
  int number = 0;
  std::vector<std::string_view> tokens;
};

bool is_space(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

// Reads the lines that hold values, one at a time, numbering every line from 1.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}

  std::optional<Line> next() {
    while (pos_ < text_.size()) {
      Line line{++last_number_, split(read_raw())};
      if (!line.tokens.empty()) return line;
    }
    return std::nullopt;
  }
  // The number of the last line read (the file's last line once next() gave nullopt).
  int last_number() const { return last_number_ == 0 ? 1 : last_number_; }

 private:
  std::string_view read_raw() {
    const std::size_t end = text_.find('\n', pos_);
    const std::size_t stop = end == std::string_view::npos ? text_.size() : end;
    std::string_view raw = text_.substr(pos_, stop - pos_);
    pos_ = end == std::string_view::npos ? text_.size() : end + 1;
    return raw;
  }

  static std::vector<std::string_view> split(std::string_view raw) {
    std::vector<std::string_view> tokens;
    std::size_t k = 0;
    while (k < raw.size()) {
      while (k < raw.size() && is_space(raw[k])) ++k;
      const std::size_t start = k;
      while (k < raw.size() && !is_space(raw[k])) ++k;
      if (k > start) tokens.push_back(raw.substr(start, k - start));
    }
    return tokens;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  int last_number_ = 0;
};


class KnapsackParser {
 public:
  KnapsackParser(std::string_view text, const std::string& path) : path_(path), lines_(text) {}

  KnapsackInstance parse() {
    read_header();
    if (numbered_) {
      read_numbered_items();
      read_trailing_capacity();
      return std::move(instance_);
    }
    while (const auto line = lines_.next()) read_item(*line);
    expect_all_items();
    return std::move(instance_);
  }

 private:
  [[noreturn]] void fail(int line, const std::string& what) const {
    throw InputError(path_ + ":" + std::to_string(line) + ": " + what);
  }

  void expect_values(const Line& line, std::size_t count, const char* layout) const {
    if (line.tokens.size() == count) return;
    fail(line.number, std::string("expected '") + layout + "', found " +
                          std::to_string(line.tokens.size()) +
                          (line.tokens.size() == 1 ? " value" : " values"));
  }

  void expect_all_items() const {
    if (instance_.items() == items_) return;
    fail(lines_.last_number(), "expected " + std::to_string(items_) +
                                   " item lines (n in the header), found " +
                                   std::to_string(instance_.items()));
  }

  std::int64_t integer(const Line& line, std::string_view token, const char* what, std::int64_t low,
                       const char* low_words) const {
    std::int64_t value = 0;
    const char* first = token.data();
    const char* last = first + token.size();
    const auto [end, error] = std::from_chars(first, last, value);
    if (error == std::errc::result_out_of_range) {
      fail(line.number,
           std::string(what) + " " + quoted_token(token) + " is out of range (beyond 2^63 - 1)");
    }
    if (error != std::errc() || end != last) {
      fail(line.number, std::string(what) + " " + quoted_token(token) + " is not an integer");
    }
    if (value < low) {
      fail(line.number, std::string(what) + " " + std::to_string(value) + " must be " + low_words);
    }
    return value;
  }

  // The first line tells the layouts apart: `n c` (this format), or `n` alone (Pisinger's
  // and Jooken et al.'s files: n lines `id profit weight`, then the capacity).
  void read_header() {
    const auto line = lines_.next();
    if (!line) fail(lines_.last_number(), "empty file: expected 'n capacity' or 'n'");
    if (line->tokens.size() != 1) expect_values(*line, 2, "n capacity");
    numbered_ = line->tokens.size() == 1;
    items_ = integer(*line, line->tokens[0], "item count", 1, "at least 1");
    if (items_ > kMaxItems) {
      fail(line->number, "item count " + std::to_string(items_) + " is above the limit " +
                             std::to_string(kMaxItems));
    }
    if (!numbered_) {
      instance_.capacity = integer(*line, line->tokens[1], "capacity", 0, "non-negative");
    }
  }

  // n lines `id profit weight`: the id is any integer (files number from 0 or from 1), not
  // kept; items stay in file order.
  void read_numbered_items() {
    while (instance_.items() < items_) {
      const auto line = lines_.next();
      if (!line) {
        fail(lines_.last_number(), "expected " + std::to_string(items_) +
                                       " item lines and the capacity, found " +
                                       std::to_string(instance_.items()) + " items");
      }
      if (line->tokens.size() == 1) {
        fail(line->number, "expected " + std::to_string(items_) +
                               " item lines 'id profit weight' (n in the header), found " +
                               std::to_string(instance_.items()) + " before the capacity");
      }
      expect_values(*line, 3, "id profit weight");
      integer(*line, line->tokens[0], "item id", std::numeric_limits<std::int64_t>::min(), "");
      add_item(*line, line->tokens[1], line->tokens[2]);
    }
  }

  void read_trailing_capacity() {
    const auto line = lines_.next();
    if (!line) {
      fail(lines_.last_number(),
           "expected the capacity on the line after the " + std::to_string(items_) + " items");
    }
    if (line->tokens.size() == 3) {
      fail(line->number,
           "more item lines than the " + std::to_string(items_) + " announced in the header");
    }
    expect_values(*line, 1, "capacity");
    instance_.capacity = integer(*line, line->tokens[0], "capacity", 0, "non-negative");
    if (const auto extra = lines_.next()) fail(extra->number, "unexpected values after the capacity");
  }

  void read_item(const Line& line) {
    if (instance_.items() == items_) {
      fail(line.number,
           "more item lines than the " + std::to_string(items_) + " announced in the header");
    }
    expect_values(line, 2, "profit weight");
    add_item(line, line.tokens[0], line.tokens[1]);
  }

  void add_item(const Line& line, std::string_view profit_token, std::string_view weight_token) {
    const std::int64_t profit = integer(line, profit_token, "profit", 1, "positive");
    const std::int64_t weight = integer(line, weight_token, "weight", 1, "positive");
    add_to_total(line, total_profit_, profit, "profit");
    add_to_total(line, total_weight_, weight, "weight");
    instance_.profits.push_back(profit);
    instance_.weights.push_back(weight);
  }

  void add_to_total(const Line& line, std::int64_t& total, std::int64_t value,
                    const char* what) const {
    if (value > std::numeric_limits<std::int64_t>::max() - total) {
      fail(line.number, std::string("the total ") + what + " exceeds 2^63 - 1");
    }
    total += value;
  }

  std::string path_;
  LineReader lines_;
  KnapsackInstance instance_;
  std::int64_t items_ = 0;
  bool numbered_ = false;  // the `n` / `id profit weight` / `c` layout
  std::int64_t total_profit_ = 0;
  std::int64_t total_weight_ = 0;
};

}  // namespace

KnapsackInstance parse_knapsack_text(std::string_view text, const std::string& path) {
  KnapsackInstance instance = KnapsackParser(without_comments(text), path).parse();
  instance.name = std::filesystem::path(path).stem().string();
  return instance;
}

KnapsackInstance read_knapsack_file(const std::string& path) {
  return parse_knapsack_text(read_file_text(path), path);
}

std::string format_knapsack_file(const KnapsackInstance& instance) {
  std::string text = "# " + instance.name + "\n";
  text += std::to_string(instance.items()) + " " + std::to_string(instance.capacity) + "\n";
  for (int i = 0; i < instance.items(); ++i) {
    text += std::to_string(instance.profits[i]) + " " + std::to_string(instance.weights[i]) + "\n";
  }
  return text;
}

}  // namespace permbb::knapsack

namespace permbb::knapsack {

std::string format_numbered_knapsack_file(const KnapsackInstance& instance) {
  std::string text = std::to_string(instance.items()) + "\n";
  for (int i = 0; i < instance.items(); ++i) {
    text += std::to_string(i + 1) + " " + std::to_string(instance.profits[i]) + " " +
            std::to_string(instance.weights[i]) + "\n";
  }
  return text + std::to_string(instance.capacity) + "\n";
}

}  // namespace permbb::knapsack
