#include "job_rounding.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace permbb::pcmax {

int RoundedJobs::long_jobs() const {
  int count = 0;
  for (const auto& c : classes) count += static_cast<int>(c.jobs.size());
  return count;
}

RoundedJobs round_jobs(const std::vector<Duration>& times, Duration target, int k) {
  if (k < 1 || k > kMaxK) throw std::invalid_argument("round_jobs: k out of range");
  RoundedJobs rounded;
  rounded.target = target;
  rounded.k = k;
  const Duration k2 = static_cast<Duration>(k) * k;
  rounded.delta = std::max<Duration>(1, target / k2);
  rounded.capacity = static_cast<std::uint64_t>(target / rounded.delta);
  std::map<std::uint32_t, std::vector<int>> by_units;
  for (std::size_t j = 0; j < times.size(); ++j) {
    const Duration t = times[j];
    if (t > target) throw std::invalid_argument("round_jobs: a job is longer than the target");
    if (t * k > target) {
      by_units[static_cast<std::uint32_t>(t / rounded.delta)].push_back(static_cast<int>(j));
    } else {
      rounded.short_jobs.push_back(static_cast<int>(j));
    }
  }
  for (auto& [units, jobs] : by_units) {
    std::stable_sort(jobs.begin(), jobs.end(), [&](int a, int b) { return times[a] > times[b]; });
    rounded.classes.push_back(JobClass{units, std::move(jobs)});
  }
  return rounded;
}

std::vector<ClassCount> class_counts(const RoundedJobs& rounded) {
  std::vector<ClassCount> classes;
  classes.reserve(rounded.classes.size());
  for (const auto& c : rounded.classes) {
    classes.push_back(ClassCount{c.units, static_cast<std::uint32_t>(c.jobs.size())});
  }
  return classes;
}

}  // namespace permbb::pcmax
