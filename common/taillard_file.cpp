// Taillard's published layout (taillard_file.hpp), read token by token so that a message can
// name the line of the culprit and rows may wrap.
#include "taillard_file.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <system_error>

#include "input_error.hpp"
#include "text_file.hpp"
#include "token_scanner.hpp"

namespace permbb {
namespace {

bool same_word(std::string_view token, std::string_view word) {
  return token.size() == word.size() &&
         std::equal(token.begin(), token.end(), word.begin(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == b;
         });
}

class TaillardParser {
 public:
  TaillardParser(std::string_view text, const std::string& path) : path_(path), scanner_(text) {}

  std::vector<TaillardFileEntry> parse() {
    std::vector<TaillardFileEntry> entries;
    while (const auto first = scanner_.next()) {
      const int number = static_cast<int>(entries.size()) + 1;
      if (!same_word(first->text, "number")) {
        fail(first->line, "expected the header \"number of jobs, ...\" of instance " +
                              std::to_string(number) + ", found " + quoted_token(first->text));
      }
      entries.push_back(parse_entry(*first, number));
    }
    return entries;
  }

 private:
  [[noreturn]] void fail(int line, const std::string& what) const {
    throw InputError(path_ + ":" + std::to_string(line) + ": " + what);
  }

  // The rest of a label line ("number of jobs, ... :" or "processing times :"), which ends
  // with a ':' on the line where it starts.
  void skip_label(const Token& start, const char* label) {
    std::string_view last = start.text;
    while (last.empty() || last.back() != ':') {
      const auto token = scanner_.next();
      if (!token || token->line != start.line) {
        fail(start.line, std::string("the line \"") + label + " ...\" does not end with ':'");
      }
      last = token->text;
    }
  }

  std::int64_t read_integer(const char* what, std::int64_t low, std::int64_t high,
                            int entry) {
    const auto token = scanner_.next();
    if (!token) {
      fail(last_line_, std::string("instance ") + std::to_string(entry) + " ends before " + what);
    }
    last_line_ = token->line;
    std::int64_t value = 0;
    const char* first = token->text.data();
    const char* last = first + token->text.size();
    const auto [end, error] = std::from_chars(first, last, value);
    if (error != std::errc() || end != last) {
      fail(token->line, std::string("expected an integer (") + what + " of instance " +
                            std::to_string(entry) + "), found " + quoted_token(token->text));
    }
    if (value < low || value > high) {
      fail(token->line, std::string(what) + " " + std::to_string(value) + " is out of range [" +
                            std::to_string(low) + ", " + std::to_string(high) + "]");
    }
    return value;
  }

  TaillardFileEntry parse_entry(const Token& header, int number) {
    TaillardFileEntry entry;
    entry.line = header.line;
    last_line_ = header.line;
    skip_label(header, "number of jobs, number of machines, initial seed, upper bound and lower "
                       "bound :");
    constexpr std::int64_t kAny = INT64_MAX;
    entry.jobs = static_cast<int>(read_integer("the number of jobs", 1, kMaxJobs, number));
    entry.machines =
        static_cast<int>(read_integer("the number of machines", 1, kMaxMachines, number));
    entry.seed = read_integer("the initial seed", 0, kAny, number);
    entry.upper_bound = read_integer("the upper bound", 0, kAny, number);
    entry.lower_bound = read_integer("the lower bound", 0, kAny, number);
    const auto label = scanner_.next();
    if (!label || !same_word(label->text, "processing")) {
      fail(label ? label->line : last_line_,
           "expected \"processing times :\" after the header of instance " +
               std::to_string(number) +
               (label ? ", found " + quoted_token(label->text) : ", found end of file"));
    }
    skip_label(*label, "processing times :");
    last_line_ = label->line;
    const std::size_t cells = static_cast<std::size_t>(entry.jobs) * entry.machines;
    entry.times.reserve(cells);
    for (std::size_t k = 0; k < cells; ++k) {
      if (at_next_header()) {
        fail(last_line_, "instance " + std::to_string(number) + " has only " +
                             std::to_string(k) + " of its " + std::to_string(cells) +
                             " processing times (" + std::to_string(entry.machines) +
                             " machine rows of " + std::to_string(entry.jobs) + ")");
      }
      entry.times.push_back(static_cast<Time>(
          read_integer("a processing time", 0, kMaxProcessingTime, number)));
    }
    // The limit Instance checks, reported here with the file's name and line.
    std::int64_t total = 0;
    for (const Time t : entry.times) total += t;
    if (total >= kInfiniteTime) {
      fail(entry.line, "instance " + std::to_string(number) + ": total processing time " +
                           std::to_string(total) + " does not fit (must be below " +
                           std::to_string(kInfiniteTime) + ")");
    }
    return entry;
  }

  // Whether the next token starts another instance or the file ends: the data ran short.
  bool at_next_header() const {
    TokenScanner ahead = scanner_;
    const auto token = ahead.next();
    return !token || same_word(token->text, "number");
  }

  const std::string& path_;
  TokenScanner scanner_;
  int last_line_ = 1;
};

}  // namespace

bool looks_like_taillard_file(std::string_view text) {
  const auto first = TokenScanner(text).next();
  return first && same_word(first->text, "number");
}

std::vector<TaillardFileEntry> parse_taillard_file(std::string_view text,
                                                   const std::string& path) {
  return TaillardParser(text, path).parse();
}

}  // namespace permbb
