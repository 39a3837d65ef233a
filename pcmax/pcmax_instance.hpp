#pragma once
// An instance of P||Cmax: n jobs with positive integer processing times, m identical
// machines. Files hold "n m" and then the n times, separated by any whitespace.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace permbb::pcmax {

using Duration = std::int64_t;  // processing times, loads, makespans, targets T

// Limits that keep every sum and product of the PTAS in 64 bits: n * kMaxTime < 2^63, and
// kMaxTime * k (k <= 1000, see ptas.hpp) as well.
inline constexpr int kMaxJobs = 10'000'000;
inline constexpr int kMaxMachines = 10'000'000;
inline constexpr Duration kMaxTime = 100'000'000'000;  // 1e11

struct PcmaxInstance {
  std::string name;
  int machines = 0;
  std::vector<Duration> times;  // times[j]: job j (0-based here, 1-based in all output)

  int jobs() const { return static_cast<int>(times.size()); }
};

// Throws InputError (prefixed by `where`) unless 1 <= n <= kMaxJobs, 1 <= m <= kMaxMachines
// and every time is in [1, kMaxTime].
void validate_instance(const PcmaxInstance& instance, const std::string& where);

// Reads a file; every error is "path:line: what" (InputError). The name is the file's stem.
PcmaxInstance read_instance_file(const std::string& path);

// The same parser over text already in memory; `path` only names it in messages and gives the
// instance's name (its stem).
PcmaxInstance parse_instance_text(std::string_view text, const std::string& path);

// "n m" and the times, one line each: what read_instance_file reads back.
std::string format_instance(const PcmaxInstance& instance);

// The same instance on min(m, n) machines. Machines past the n-th are idle in every schedule
// worth having (a job takes one machine), so OPT is the same, and so is the feasibility of
// every target T >= max t (one long job per machine). Schedules of it are schedules of the
// instance once their loads are padded with the idle machines' zeros.
PcmaxInstance without_idle_machines(const PcmaxInstance& instance);

// max(ceil(sum t / m), max t): no schedule is shorter.
Duration simple_lower_bound(const PcmaxInstance& instance);

}  // namespace permbb::pcmax
