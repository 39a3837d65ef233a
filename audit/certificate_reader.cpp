#include "certificate_reader.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string_view>
#include <vector>

#include "input_error.hpp"
#include "text_file.hpp"

namespace permbb::audit {
namespace {

constexpr Time kLargestTime = 1000000000;  // a time or bound beyond this is not one of ours
constexpr int kMostJobs = 100000;
constexpr int kMostMachines = 100000;

// The file's non-empty lines, split into words, with their line numbers.
struct Line {
  int number = 0;
  std::vector<std::string_view> words;
};

std::vector<Line> lines_of(std::string_view text) {
  std::vector<Line> lines;
  int number = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t stop = std::min(text.find('\n', start), text.size());
    std::string_view rest = text.substr(start, stop - start);
    ++number;
    Line line{number, {}};
    std::size_t i = 0;
    while (i < rest.size()) {
      while (i < rest.size() && std::isspace(static_cast<unsigned char>(rest[i]))) ++i;
      std::size_t j = i;
      while (j < rest.size() && !std::isspace(static_cast<unsigned char>(rest[j]))) ++j;
      if (j > i) line.words.push_back(rest.substr(i, j - i));
      i = j;
    }
    if (!line.words.empty()) lines.push_back(std::move(line));
    start = stop + 1;
  }
  return lines;
}

// Walks the lines in order; every complaint names the file and the line.
class Reader {
 public:
  Reader(std::string file, std::vector<Line> lines) : file_(std::move(file)), lines_(std::move(lines)) {}

  [[noreturn]] void fail(int line, const std::string& what) const {
    throw InputError(file_ + ":" + std::to_string(line) + ": " + what);
  }
  const Line& next(const char* expected) {
    if (at_ == lines_.size()) {
      fail(lines_.empty() ? 1 : lines_.back().number,
           std::string("the file ends where ") + expected + " should come");
    }
    return lines_[at_++];
  }
  // The next line, which must start with the words of `keywords` (space-separated).
  const Line& expect(std::string_view keyword, std::size_t words) {
    const Line& line = next(std::string(keyword).c_str());
    if (line.words[0] != keyword || line.words.size() != words) {
      fail(line.number, "expected a line '" + std::string(keyword) + "' of " +
                            std::to_string(words) + " words, found " +
                            quoted_token(line.words[0]));
    }
    return line;
  }
  std::uint64_t count(const Line& line, std::size_t i) const {
    std::uint64_t value = 0;
    const std::string_view w = line.words.at(i);
    const auto [end, error] = std::from_chars(w.data(), w.data() + w.size(), value);
    if (error != std::errc() || end != w.data() + w.size()) {
      fail(line.number, "expected a count, found " + quoted_token(w));
    }
    return value;
  }
  Time time(const Line& line, std::size_t i, bool infinity_allowed = false) const {
    const std::string_view w = line.words.at(i);
    if (infinity_allowed && w == "inf") return kNoBound;
    const std::uint64_t value = count(line, i);
    if (value > static_cast<std::uint64_t>(kLargestTime)) {
      fail(line.number, "time " + quoted_token(w) + " out of range");
    }
    return static_cast<Time>(value);
  }
  int job(const Line& line, std::size_t i, int jobs) const {
    const std::uint64_t value = count(line, i);
    if (value < 1 || value > static_cast<std::uint64_t>(jobs)) {
      fail(line.number, "job " + quoted_token(line.words[i]) + " outside 1.." + std::to_string(jobs));
    }
    return static_cast<int>(value) - 1;
  }
  bool done() const { return at_ == lines_.size(); }

 private:
  std::string file_;
  std::vector<Line> lines_;
  std::size_t at_ = 0;
};

void read_instance(Reader& in, Certificate& c) {
  const Line& first = in.next("the header");
  if (first.words.size() != 2 || first.words[0] != "permbb-certificate") {
    in.fail(first.number, "not a permbb certificate (no 'permbb-certificate' header)");
  }
  if (first.words[1] != "1") in.fail(first.number, "certificate version " + quoted_token(first.words[1]) + " is not 1");
  const Line& size = in.expect("jobs", 4);
  if (size.words[2] != "machines") in.fail(size.number, "expected 'jobs N machines M'");
  const std::uint64_t jobs = in.count(size, 1);
  const std::uint64_t machines = in.count(size, 3);
  if (jobs < 1 || jobs > kMostJobs || machines < 1 || machines > kMostMachines) {
    in.fail(size.number, "jobs or machines out of range");
  }
  c.jobs = static_cast<int>(jobs);
  c.machines = static_cast<int>(machines);
  const Line& print = in.expect("fingerprint", 2);
  const std::string_view hex = print.words[1];
  const auto [end, error] = std::from_chars(hex.data(), hex.data() + hex.size(), c.fingerprint, 16);
  if (error != std::errc() || end != hex.data() + hex.size()) in.fail(print.number, "bad fingerprint");
  in.expect("times", 1);
  c.times.assign(c.machines, std::vector<Time>(c.jobs));
  for (int k = 0; k < c.machines; ++k) {
    const Line& row = in.next("a machine's times");
    if (row.words.size() != static_cast<std::size_t>(c.jobs)) {
      in.fail(row.number, "expected " + std::to_string(c.jobs) + " times of machine " + std::to_string(k + 1));
    }
    for (int j = 0; j < c.jobs; ++j) c.times[k][j] = in.time(row, j);
  }
  if (fingerprint_of(c) != c.fingerprint) {
    in.fail(print.number, "the times do not have this fingerprint (an altered instance)");
  }
}

void read_jobs(const Reader& in, const Line& line, std::size_t from, std::size_t to, int jobs,
               std::vector<int>& out, std::vector<char>& seen) {
  for (std::size_t i = from; i < to; ++i) {
    const int job = in.job(line, i, jobs);
    if (seen[job]) in.fail(line.number, "job " + std::to_string(job + 1) + " appears twice");
    seen[job] = 1;
    out.push_back(job);
  }
}

void read_claim(Reader& in, Certificate& c) {
  const Line& bound = in.expect("bound", 2);
  c.bound = std::string(bound.words[1]);
  if (c.bound != "lb1" && c.bound != "lb2" && c.bound != "lb2-adjacent" && c.bound != "lb1+lb2") {
    in.fail(bound.number, "unknown bound " + quoted_token(bound.words[1]));
  }
  const Line& rule = in.expect("branching", 2);
  c.branching = std::string(rule.words[1]);
  if (c.branching != "minmin" && c.branching != "minmin-fwd-ties" && c.branching != "maxsum" &&
      c.branching != "fwd" && c.branching != "bwd") {
    in.fail(rule.number, "unknown branching rule " + quoted_token(rule.words[1]));
  }
  const Line& claim = in.expect("claim", 3);
  if (claim.words[1] == "optimal") {
    c.optimal = true;
    c.upper_bound = in.time(claim, 2);
    const Line& schedule = in.next("the schedule");
    if (schedule.words[0] != "schedule" || schedule.words.size() != static_cast<std::size_t>(c.jobs) + 1) {
      in.fail(schedule.number, "expected 'schedule' and " + std::to_string(c.jobs) + " jobs");
    }
    std::vector<char> seen(c.jobs, 0);
    read_jobs(in, schedule, 1, schedule.words.size(), c.jobs, c.schedule, seen);
  } else if (claim.words[1] == "no-schedule-below") {
    c.upper_bound = in.time(claim, 2, true);
  } else {
    in.fail(claim.number, "unknown claim " + quoted_token(claim.words[1]));
  }
  const Line& nodes = in.expect("nodes", 4);
  if (nodes.words[2] != "leaves") in.fail(nodes.number, "expected 'nodes N leaves L'");
  c.nodes = in.count(nodes, 1);
  c.leaves = in.count(nodes, 3);
}

// p BOUND SURPLUS_NODES SURPLUS_LEAVES PREFIX | SUFFIX
// e NODES LEAVES BEST UB_START UB_END PREFIX | SUFFIX
Subproblem read_subproblem(const Reader& in, const Line& line, int jobs) {
  Subproblem s;
  s.line = line.number;
  const std::string_view kind = line.words[0];
  if (kind != "p" && kind != "e") in.fail(line.number, "expected a subproblem ('p' or 'e'), found " + quoted_token(kind));
  s.pruned = kind == "p";
  const std::size_t figures = s.pruned ? 4 : 6;
  std::size_t bar = figures;
  while (bar < line.words.size() && line.words[bar] != "|") ++bar;
  if (bar == line.words.size()) in.fail(line.number, "a subproblem without its '|' between prefix and suffix");
  if (s.pruned) {
    s.bound = in.time(line, 1, true);
    s.nodes = in.count(line, 2);
    s.leaves = in.count(line, 3);
  } else {
    s.nodes = in.count(line, 1);
    s.leaves = in.count(line, 2);
    s.best = line.words[3] == "-" ? kNoBound : in.time(line, 3);
    s.ub_start = in.time(line, 4, true);
    s.ub_end = in.time(line, 5, true);
  }
  std::vector<char> seen(jobs, 0);
  read_jobs(in, line, figures, bar, jobs, s.prefix, seen);
  read_jobs(in, line, bar + 1, line.words.size(), jobs, s.suffix, seen);
  return s;
}

void read_cut(Reader& in, Certificate& c) {
  const Line& cut = in.expect("cut", 7);
  if (cut.words[1] != "depth" || cut.words[3] != "subproblems" || cut.words[5] != "above") {
    in.fail(cut.number, "expected 'cut depth D subproblems K above A'");
  }
  const std::uint64_t depth = in.count(cut, 2);
  if (depth >= static_cast<std::uint64_t>(c.jobs) && depth > 0) in.fail(cut.number, "cut depth out of range");
  c.cut_depth = static_cast<int>(depth);
  const std::uint64_t count = in.count(cut, 4);
  c.nodes_above_cut = in.count(cut, 6);
  for (std::uint64_t i = 0; i < count; ++i) {
    const Line& line = in.next("a subproblem");
    c.subproblems.push_back(read_subproblem(in, line, c.jobs));
  }
  const Line& end = in.expect("end", 1);
  if (!in.done()) in.fail(end.number + 1, "text after 'end'");
}

}  // namespace

std::uint64_t fingerprint_of(const Certificate& c) {
  std::uint64_t hash = 14695981039346656037ull;
  const auto add = [&hash](long long value) {
    const auto bits = static_cast<std::uint32_t>(static_cast<std::int32_t>(value));
    for (int shift = 0; shift < 32; shift += 8) {
      hash ^= (bits >> shift) & 0xffu;
      hash *= 1099511628211ull;
    }
  };
  add(c.jobs);
  add(c.machines);
  for (const auto& machine : c.times) {
    for (const Time t : machine) add(t);
  }
  return hash;
}

Certificate read_certificate(const std::string& path) {
  const std::string text = without_comments(read_file_text(path));  // the lines' words point in
  Reader in(path, lines_of(text));
  Certificate c;
  c.file = path;
  read_instance(in, c);
  read_claim(in, c);
  read_cut(in, c);
  return c;
}

}  // namespace permbb::audit
