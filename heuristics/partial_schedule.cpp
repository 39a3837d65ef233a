#include "partial_schedule.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>

#include "lb1.hpp"

namespace permbb {
namespace {

// Marks the jobs of `jobs` in `seen`; false on a job out of range or seen before.
bool mark_all(const std::vector<int>& jobs, std::vector<char>& seen) {
  for (const int job : jobs) {
    if (job < 0 || job >= static_cast<int>(seen.size()) || seen[job]) return false;
    seen[job] = 1;
  }
  return true;
}

}  // namespace

void require_complete_permutation(const Instance& instance, const std::vector<int>& permutation,
                                  const char* what) {
  std::vector<char> seen(static_cast<std::size_t>(instance.jobs()), 0);
  if (static_cast<int>(permutation.size()) != instance.jobs() || !mark_all(permutation, seen)) {
    throw std::invalid_argument(std::string(what) + ": not a permutation of the " +
                                std::to_string(instance.jobs()) + " jobs");
  }
}

void require_valid_node(const Instance& instance, const PartialSchedule& node) {
  std::vector<char> seen(static_cast<std::size_t>(instance.jobs()), 0);
  if (!mark_all(node.prefix, seen) || !mark_all(node.suffix, seen)) {
    throw std::invalid_argument("partial schedule: a job is out of range or fixed twice");
  }
}

std::vector<int> unscheduled_jobs(const Instance& instance, const PartialSchedule& node,
                                  const std::vector<int>& order) {
  std::vector<char> fixed(static_cast<std::size_t>(instance.jobs()), 0);
  for (const int job : node.prefix) fixed[job] = 1;
  for (const int job : node.suffix) fixed[job] = 1;
  std::vector<int> free_jobs;
  free_jobs.reserve(order.size());
  for (const int job : order) {
    if (!fixed[job]) free_jobs.push_back(job);
  }
  return free_jobs;
}

void summarize_node(const FlowshopView& view, const PartialSchedule& node, Time* front, Time* back,
                    Time* remain) {
  lb1_root(view, front, back, remain);
  for (const int job : node.prefix) {
    lb1_append_front(view, front, job, front);
    lb1_remove_job(view, remain, job, remain);
  }
  for (auto it = node.suffix.rbegin(); it != node.suffix.rend(); ++it) {
    lb1_prepend_back(view, back, *it, back);
    lb1_remove_job(view, remain, *it, remain);
  }
}

}  // namespace permbb
