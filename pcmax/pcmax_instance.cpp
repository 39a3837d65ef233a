#include "pcmax_instance.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <optional>
#include <sstream>
#include <string_view>
#include <system_error>

#include "input_error.hpp"
#include "text_file.hpp"

namespace permbb::pcmax {
namespace {

struct Token {
  std::string_view text;
  int line;
};

// Whitespace-separated tokens with 1-based line numbers ('\r' is whitespace: CRLF files read).
class Tokens {
 public:
  explicit Tokens(std::string_view text) : text_(text) {}

  std::optional<Token> next() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) {
      if (text_[pos_] == '\n') ++line_;
      ++pos_;
    }
    if (pos_ == text_.size()) return std::nullopt;
    const std::size_t start = pos_;
    while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    return Token{text_.substr(start, pos_ - start), line_};
  }

  int line() const { return line_; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

class FileParser {
 public:
  FileParser(const std::string& path, std::string_view text) : path_(path), tokens_(text) {}

  PcmaxInstance parse() {
    PcmaxInstance instance;
    instance.name = std::filesystem::path(path_).stem().string();
    const auto jobs = read("the number of jobs", "number of jobs", 1, kMaxJobs);
    instance.machines =
        static_cast<int>(read("the number of machines", "number of machines", 1, kMaxMachines));
    instance.times.reserve(static_cast<std::size_t>(jobs));
    for (long long j = 0; j < jobs; ++j) {
      if (!peek_more()) {
        fail(last_line_, "expected " + std::to_string(jobs) + " processing times, found only " +
                             std::to_string(j));
      }
      instance.times.push_back(read("a processing time", "processing time", 1, kMaxTime));
    }
    if (const auto extra = tokens_.next()) {
      fail(extra->line, "unexpected " + quoted_token(extra->text) + " after the " + std::to_string(jobs) +
                            " processing times");
    }
    return instance;
  }

 private:
  [[noreturn]] void fail(int line, const std::string& what) const {
    throw InputError(path_ + ":" + std::to_string(line) + ": " + what);
  }

  bool peek_more() {
    Tokens ahead = tokens_;
    return ahead.next().has_value();
  }

  long long read(const char* expected, const char* what, long long low, long long high) {
    const auto token = tokens_.next();
    if (!token) fail(last_line_, std::string("expected ") + expected + ", found end of file");
    last_line_ = token->line;
    long long value = 0;
    const char* first = token->text.data();
    const char* last = first + token->text.size();
    const auto [end, error] = std::from_chars(first, last, value);
    if (error == std::errc::result_out_of_range) {
      fail(token->line, std::string(what) + " " + quoted_token(token->text) + " is too large");
    }
    if (error != std::errc() || end != last) {
      fail(token->line,
           std::string("expected an integer (") + what + "), found " + quoted_token(token->text));
    }
    if (value < low || value > high) {
      fail(token->line, std::string(what) + " " + std::to_string(value) + " is out of range [" +
                            std::to_string(low) + ", " + std::to_string(high) + "]");
    }
    return value;
  }

  const std::string& path_;
  Tokens tokens_;
  int last_line_ = 1;
};

}  // namespace

void validate_instance(const PcmaxInstance& instance, const std::string& where) {
  if (instance.jobs() < 1 || instance.jobs() > kMaxJobs) {
    throw InputError(where + ": number of jobs " + std::to_string(instance.jobs()) +
                     " is out of range [1, " + std::to_string(kMaxJobs) + "]");
  }
  if (instance.machines < 1 || instance.machines > kMaxMachines) {
    throw InputError(where + ": number of machines " + std::to_string(instance.machines) +
                     " is out of range [1, " + std::to_string(kMaxMachines) + "]");
  }
  for (std::size_t j = 0; j < instance.times.size(); ++j) {
    if (instance.times[j] < 1 || instance.times[j] > kMaxTime) {
      throw InputError(where + ": processing time " + std::to_string(instance.times[j]) +
                       " of job " + std::to_string(j + 1) + " is out of range [1, " +
                       std::to_string(kMaxTime) + "]");
    }
  }
}

PcmaxInstance read_instance_file(const std::string& path) {
  return parse_instance_text(read_file_text(path), path);
}

PcmaxInstance parse_instance_text(std::string_view text, const std::string& path) {
  return FileParser(path, without_comments(text)).parse();
}

std::string format_instance(const PcmaxInstance& instance) {
  std::ostringstream out;
  out << instance.jobs() << ' ' << instance.machines << '\n';
  for (std::size_t j = 0; j < instance.times.size(); ++j) {
    out << (j == 0 ? "" : " ") << instance.times[j];
  }
  out << '\n';
  return out.str();
}

PcmaxInstance without_idle_machines(const PcmaxInstance& instance) {
  PcmaxInstance fewer = instance;
  fewer.machines = std::min(instance.machines, instance.jobs());
  return fewer;
}

Duration simple_lower_bound(const PcmaxInstance& instance) {
  const Duration total = std::accumulate(instance.times.begin(), instance.times.end(), Duration{0});
  const Duration longest = *std::max_element(instance.times.begin(), instance.times.end());
  const Duration average = (total + instance.machines - 1) / instance.machines;
  return std::max(average, longest);
}

}  // namespace permbb::pcmax
