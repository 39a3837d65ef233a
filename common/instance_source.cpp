// Instance files and names: Taillard names are generated, anything else is read as a file.
//
// A file whose first word is "number" is in Taillard's published layout (taillard_file.hpp,
// one or more instances, `FILE#k` selects). The other two formats share the header "n m"
// (jobs, machines):
//   plain: m rows of n times, machine-major (Taillard's layout, what format_plain writes);
//   VRF:   n rows of m pairs "machine-index time" (Vallada, Ruiz & Framinan 2015); the pairs
//          of a job may come in any order, but each machine exactly once.
// The format is told by the count of numbers after the header: n*m means plain, 2*n*m means
// VRF (they never coincide, as n, m >= 1). Any other count is an error; only to report it at
// the right place is the intended format guessed, from the first data line (VRF when it holds
// m pairs whose machine indices are 0..m-1 in some order): a truncated file is reported at
// its last line, surplus tokens where they start. One exception keeps a VRF file cut exactly
// in half from passing as plain: see choose_format. Lines break at '\n'; '\r' and
// other whitespace separate tokens, so CRLF files (like the published VRF ones) read as is.
#include "instance_source.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "flowshop_types.hpp"
#include "input_error.hpp"
#include "text_file.hpp"
#include "taillard.hpp"
#include "taillard_file.hpp"
#include "token_scanner.hpp"

namespace permbb {
namespace {

enum class Format { kPlain, kVrf };

// Parses one instance file's text. Every error is `path:line: message`.
class FileParser {
 public:
  FileParser(const std::string& path, std::string_view text) : path_(path), scanner_(text) {}

  Instance parse() {
    jobs_ = static_cast<int>(
        read_in_range(next_or_fail("the number of jobs"), "number of jobs", 1, kMaxJobs));
    machines_ = static_cast<int>(read_in_range(next_or_fail("the number of machines"),
                                               "number of machines", 1, kMaxMachines));
    times_.assign(cells(), 0);
    count_remaining();
    format_ = choose_format();
    if (format_ == Format::kVrf) {
      parse_vrf();
    } else {
      parse_plain();
    }
    if (const auto extra = scanner_.next()) {
      fail(extra->line, "unexpected " + quoted_token(extra->text) + " after the end of the data");
    }
    check_total();
    return Instance(std::filesystem::path(path_).stem().string(), jobs_, machines_,
                    std::move(times_));
  }

 private:
  std::size_t cells() const { return static_cast<std::size_t>(jobs_) * machines_; }

  [[noreturn]] void fail(int line, const std::string& what) const {
    throw InputError(path_ + ":" + std::to_string(line) + ": " + what);
  }

  // The next token; running out of input here means the file is truncated.
  Token next_or_fail(const char* what) {
    if (auto token = scanner_.next()) {
      last_line_ = token->line;
      return *token;
    }
    if (jobs_ == 0 || machines_ == 0) {
      fail(last_line_, std::string("expected ") + what + ", found end of file");
    }
    fail(last_line_, truncation_message());
  }

  // What the chosen format needed; for plain, the VRF count too (the layout did not say VRF,
  // but the user may have meant it).
  std::string truncation_message() const {
    const std::string n = std::to_string(jobs_);
    const std::string m = std::to_string(machines_);
    const std::string found = ", found only " + std::to_string(remaining_);
    if (format_ == Format::kVrf) {
      return "expected " + std::to_string(2 * cells()) + " numbers for " + n + " job rows of " + m +
             " machine-time pairs (VRF format)" + found;
    }
    return "expected " + std::to_string(cells()) + " numbers for " + m + " machine rows of " + n +
           " times (or " + std::to_string(2 * cells()) + " for the VRF format)" + found;
  }

  long long read_in_range(const Token& token, const char* what, long long low, long long high) {
    long long value = 0;
    const char* first = token.text.data();
    const char* last = first + token.text.size();
    const auto [end, error] = std::from_chars(first, last, value);
    if (error == std::errc::result_out_of_range) {
      fail(token.line, std::string(what) + " " + quoted_token(token.text) + " is too large");
    }
    if (error != std::errc() || end != last) {
      fail(token.line,
           std::string("expected an integer (") + what + "), found " + quoted_token(token.text));
    }
    if (value < low || value > high) {
      fail(token.line, std::string(what) + " " + std::to_string(value) + " is out of range [" +
                           std::to_string(low) + ", " + std::to_string(high) + "]");
    }
    return value;
  }

  // Counts the tokens after the header and notes whether the first data line looks like a
  // VRF job row, on a copy of the scanner.
  void count_remaining() {
    TokenScanner ahead = scanner_;
    std::vector<std::string_view> first_line;
    int first_line_number = 0;
    while (const auto token = ahead.next()) {
      if (remaining_ == 0) first_line_number = token->line;
      if (token->line == first_line_number) first_line.push_back(token->text);
      ++remaining_;
    }
    first_line_looks_vrf_ = looks_like_vrf_row(first_line);
  }

  bool looks_like_vrf_row(const std::vector<std::string_view>& row) const {
    if (row.size() != 2 * static_cast<std::size_t>(machines_)) return false;
    std::vector<bool> seen(machines_, false);
    for (std::size_t k = 0; k < row.size(); k += 2) {
      int index = -1;
      const auto [end, error] =
          std::from_chars(row[k].data(), row[k].data() + row[k].size(), index);
      if (error != std::errc() || end != row[k].data() + row[k].size()) return false;
      if (index < 0 || index >= machines_ || seen[index]) return false;
      seen[index] = true;
    }
    return true;
  }

  // n*m numbers are plain unless the first data line is plainly a VRF job row (m pairs, when
  // a plain row would hold n != 2m times): then it is a VRF file cut in half, not an instance.
  Format choose_format() const {
    if (remaining_ == cells()) {
      const bool vrf_cut_in_half = first_line_looks_vrf_ && jobs_ != 2 * machines_;
      return vrf_cut_in_half ? Format::kVrf : Format::kPlain;
    }
    if (remaining_ == 2 * cells()) return Format::kVrf;
    return first_line_looks_vrf_ ? Format::kVrf : Format::kPlain;
  }

  Time read_time() {
    return static_cast<Time>(
        read_in_range(next_or_fail("a processing time"), "processing time", 0, kMaxProcessingTime));
  }

  void parse_plain() {
    for (Time& t : times_) t = read_time();
  }

  // One row per job: m pairs (machine index, time), each machine exactly once.
  void parse_vrf() {
    std::vector<bool> seen(machines_);
    for (int job = 0; job < jobs_; ++job) {
      seen.assign(machines_, false);
      for (int pair = 0; pair < machines_; ++pair) {
        const Token token = next_or_fail("a machine index");
        const auto machine =
            static_cast<int>(read_in_range(token, "machine index", 0, machines_ - 1));
        if (seen[machine]) {
          fail(token.line, "machine index " + std::to_string(machine) + " appears twice for job " +
                               std::to_string(job + 1));
        }
        seen[machine] = true;
        times_[static_cast<std::size_t>(machine) * jobs_ + job] = read_time();
      }
    }
  }

  // Same limit as Instance (total below kInfiniteTime), reported with the file's name.
  void check_total() const {
    std::int64_t total = 0;
    for (Time t : times_) total += t;
    if (total >= kInfiniteTime) {
      throw InputError(path_ + ": total processing time " + std::to_string(total) +
                       " does not fit (must be below " + std::to_string(kInfiniteTime) + ")");
    }
  }

  const std::string& path_;
  TokenScanner scanner_;
  int jobs_ = 0;
  int machines_ = 0;
  int last_line_ = 1;
  std::size_t remaining_ = 0;
  bool first_line_looks_vrf_ = false;
  Format format_ = Format::kPlain;
  std::vector<Time> times_;
};

// "ta" followed by digits only: meant as a Taillard name, even if out of range.
bool looks_like_taillard_name(const std::string& spec) {
  if (spec.size() < 3) return false;
  if (std::tolower(static_cast<unsigned char>(spec[0])) != 't' ||
      std::tolower(static_cast<unsigned char>(spec[1])) != 'a') {
    return false;
  }
  for (std::size_t k = 2; k < spec.size(); ++k) {
    if (!std::isdigit(static_cast<unsigned char>(spec[k]))) return false;
  }
  return true;
}

// "FILE#k": the file and k (1-based), when the spec ends with '#' and digits and no file has
// the whole spec as its name. k = 0 is returned as given, for load_instance to refuse.
std::optional<std::pair<std::string, int>> split_selection(const std::string& spec) {
  const std::size_t hash = spec.rfind('#');
  if (hash == std::string::npos || hash == 0 || hash + 1 == spec.size()) return std::nullopt;
  const std::string digits = spec.substr(hash + 1);
  if (!std::all_of(digits.begin(), digits.end(),
                   [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; })) {
    return std::nullopt;
  }
  std::error_code ignored;
  if (std::filesystem::exists(spec, ignored)) return std::nullopt;
  if (digits.size() > 6) throw InputError(spec + ": instance number " + digits + " is too large");
  return std::make_pair(spec.substr(0, hash), std::stoi(digits));
}

// The instance `selected` (1-based; 0: the only one) of a Taillard file's entries.
Instance select_entry(const std::vector<TaillardFileEntry>& entries, int selected,
                      const std::string& path) {
  const int count = static_cast<int>(entries.size());
  const std::string stem = std::filesystem::path(path).stem().string();
  if (count == 0) throw InputError(path + ": no instance in the file");
  if (selected == 0 && count > 1) {
    throw InputError(path + ": the file holds " + std::to_string(count) +
                     " instances: select one as " + path + "#K, K from 1 to " +
                     std::to_string(count));
  }
  if (selected > count) {
    throw InputError(path + "#" + std::to_string(selected) + ": the file holds only " +
                     std::to_string(count) + (count == 1 ? " instance" : " instances") +
                     " (#1 to #" + std::to_string(count) + ")");
  }
  const TaillardFileEntry& entry = entries[selected == 0 ? 0 : selected - 1];
  const std::string name = count == 1 ? stem : stem + "#" + std::to_string(selected);
  Instance instance(name, entry.jobs, entry.machines, entry.times);
  if (entry.upper_bound > 0 && entry.upper_bound < kInfiniteTime) {
    instance.set_published_upper_bound(static_cast<Time>(entry.upper_bound));
  }
  return instance;
}

}  // namespace

// A Taillard name that is also a file in the working directory could mean either: refused,
// rather than solving the one the user did not mean without a word.
Instance load_instance(const std::string& spec) {
  std::error_code ignored;
  if (const auto index = taillard::parse_name(spec)) {
    if (std::filesystem::exists(spec, ignored)) {
      throw InputError(spec +
                       ": both the built-in Taillard instance and a file in this folder; "
                       "give ./" +
                       spec + " for the file, or run from another folder for " + "Taillard's");
    }
    return taillard::generate(*index);
  }
  if (looks_like_taillard_name(spec) && !std::filesystem::exists(spec, ignored)) {
    throw InputError(spec + ": not a Taillard instance (ta001..ta120) and no such file");
  }
  if (const auto selection = split_selection(spec)) {
    const auto& [path, selected] = *selection;
    if (selected == 0) throw InputError(spec + ": instances are numbered from 1 (" + path + "#1)");
    return parse_instance_text(read_file_text(path), path, selected);
  }
  return read_instance_file(spec);
}

Instance read_instance_file(const std::string& path) {
  return parse_instance_text(read_file_text(path), path);
}

Instance parse_instance_text(std::string_view text, const std::string& path, int selected) {
  const std::string data = without_comments(text);
  if (looks_like_taillard_file(data)) {
    return select_entry(parse_taillard_file(data, path), selected, path);
  }
  if (selected > 1) {
    throw InputError(path + "#" + std::to_string(selected) +
                     ": the file holds one instance (" + path + " or " + path + "#1)");
  }
  return FileParser(path, data).parse();
}

std::string format_plain(const Instance& instance) {
  std::string out =
      std::to_string(instance.jobs()) + " " + std::to_string(instance.machines()) + "\n";
  for (int machine = 0; machine < instance.machines(); ++machine) {
    for (int job = 0; job < instance.jobs(); ++job) {
      if (job > 0) out += ' ';
      out += std::to_string(instance.time(machine, job));
    }
    out += '\n';
  }
  return out;
}

}  // namespace permbb
