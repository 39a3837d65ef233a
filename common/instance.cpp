#include "instance.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "input_error.hpp"

namespace permbb {
namespace {

[[noreturn]] void fail(const std::string& name, const std::string& what) {
  throw InputError(name + ": " + what);
}

void check_range(const std::string& name, const char* what, long long value, long long max) {
  if (value < 1 || value > max) {
    fail(name, std::string("number of ") + what + " " + std::to_string(value) +
                   " is out of range [1, " + std::to_string(max) + "]");
  }
}

// Checks every time and the total. The total must stay strictly below kInfiniteTime: a
// makespan never exceeds the sum of all times, so every makespan then fits in Time and
// still compares smaller than the "no incumbent" sentinel.
void check_times(const std::string& name, int jobs, const std::vector<Time>& times) {
  std::int64_t total = 0;
  for (std::size_t k = 0; k < times.size(); ++k) {
    const Time t = times[k];
    if (t < 0 || t > kMaxProcessingTime) {
      fail(name, "processing time " + std::to_string(t) + " of job " + std::to_string(k % jobs) +
                     " on machine " + std::to_string(k / jobs) + " is out of range [0, " +
                     std::to_string(kMaxProcessingTime) + "]");
    }
    total += t;
  }
  if (total >= kInfiniteTime) {
    fail(name, "total processing time " + std::to_string(total) + " does not fit (must be below " +
                   std::to_string(kInfiniteTime) + ")");
  }
}

// FNV-1a, 64 bits (offset basis and prime from the FNV reference). Each 32-bit value is fed
// as its four bytes of two's complement, least significant first (little-endian), taken by
// shifts rather than by reading memory, so the hash is the same on every platform.
class Fnv1a64 {
 public:
  void add(std::int32_t value) {
    const auto bits = static_cast<std::uint32_t>(value);
    for (int shift = 0; shift < 32; shift += 8) {
      hash_ ^= (bits >> shift) & 0xffu;
      hash_ *= 1099511628211ull;
    }
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 14695981039346656037ull;
};

}  // namespace

Instance::Instance(std::string name, int jobs, int machines, std::vector<Time> times_machine_major)
    : name_(std::move(name)),
      jobs_(jobs),
      machines_(machines),
      times_(std::move(times_machine_major)) {
  check_range(name_, "jobs", jobs_, kMaxJobs);
  check_range(name_, "machines", machines_, kMaxMachines);
  const auto expected = static_cast<std::size_t>(jobs_) * static_cast<std::size_t>(machines_);
  if (times_.size() != expected) {
    fail(name_, std::to_string(times_.size()) + " processing times given, expected " +
                    std::to_string(expected) + " (" + std::to_string(jobs_) + " jobs x " +
                    std::to_string(machines_) + " machines)");
  }
  check_times(name_, jobs_, times_);
}

std::int64_t Instance::checksum() const {
  std::int64_t total = 0;
  for (Time t : times_) total += t;
  return total;
}

// Hashes jobs, machines, then every time in storage (machine-major) order.
std::uint64_t Instance::fingerprint() const {
  Fnv1a64 hash;
  hash.add(jobs_);
  hash.add(machines_);
  for (Time t : times_) hash.add(t);
  return hash.value();
}

// One row of completion times, machine 0 first: after job pi_j, completion[k] = C[j][k].
// C[j][k-1] is completion[k-1], already updated for this job; C[j-1][k] is completion[k],
// not yet updated.
Time makespan(const Instance& instance, const std::vector<int>& permutation) {
  const int m = instance.machines();
  std::vector<Time> completion(static_cast<std::size_t>(m), 0);
  for (const int job : permutation) {
    Time previous_machine = 0;
    for (int k = 0; k < m; ++k) {
      previous_machine = std::max(completion[k], previous_machine) + instance.time(k, job);
      completion[k] = previous_machine;
    }
  }
  return permutation.empty() ? 0 : completion[m - 1];
}

}  // namespace permbb
