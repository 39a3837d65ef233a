#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "flowshop_types.hpp"

namespace permbb {

// A permutation flowshop instance: `jobs` jobs, each processed on machines 0..machines-1
// in that order. Sized at run time. Times are stored machine-major, as Taillard writes them:
// time(machine, job) = times()[machine * jobs() + job].
class Instance {
 public:
  // Validates sizes and times against the limits in flowshop_types.hpp and that the total
  // processing time fits in Time; throws InputError otherwise (naming `name`).
  Instance(std::string name, int jobs, int machines, std::vector<Time> times_machine_major);

  const std::string& name() const { return name_; }
  int jobs() const { return jobs_; }
  int machines() const { return machines_; }
  Time time(int machine, int job) const { return times_[machine * jobs_ + job]; }
  const std::vector<Time>& times() const { return times_; }

  // Sum of all processing times (Taillard's checksum).
  std::int64_t checksum() const;
  // A 64-bit hash of (jobs, machines, times): identifies the data independently of its name
  // (checkpoints compare it).
  std::uint64_t fingerprint() const;

  // The upper bound that the instance's published file states (Taillard's files name one in
  // each instance's header), for `--ub opt`; none for other sources.
  const std::optional<Time>& published_upper_bound() const { return published_upper_bound_; }
  void set_published_upper_bound(Time bound) { published_upper_bound_ = bound; }

 private:
  std::optional<Time> published_upper_bound_;
  std::string name_;
  int jobs_;
  int machines_;
  std::vector<Time> times_;
};

// The makespan of `permutation` (all or some of the jobs, each at most once), by the plain
// O(n m) recurrence C[j][k] = max(C[j-1][k], C[j][k-1]) + p[k][pi_j] (2022 paper, §2.1,
// Eq. 1), keeping one row of m completion times. 0 for an empty permutation. This is the
// reference evaluation: faster ones are tested against it, stored schedules checked with it.
Time makespan(const Instance& instance, const std::vector<int>& permutation);

}  // namespace permbb
