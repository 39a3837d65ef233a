#include "schedule_builder.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <queue>
#include <stdexcept>
#include <utility>

#include "dp_step.hpp"

namespace permbb::pcmax {
namespace {

PcmaxSchedule empty_schedule(const PcmaxInstance& instance) {
  PcmaxSchedule schedule;
  schedule.machine_of_job.assign(instance.times.size(), -1);
  schedule.loads.assign(static_cast<std::size_t>(instance.machines), 0);
  return schedule;
}

void assign(PcmaxSchedule& schedule, const PcmaxInstance& instance, int job, int machine) {
  schedule.machine_of_job[job] = machine;
  schedule.loads[machine] += instance.times[job];
}

// Longest first onto the least-loaded machine: a min-heap of (load, machine).
void add_short_jobs(PcmaxSchedule& schedule, const PcmaxInstance& instance,
                    std::vector<int> short_jobs) {
  std::stable_sort(short_jobs.begin(), short_jobs.end(),
                   [&](int a, int b) { return instance.times[a] > instance.times[b]; });
  using Slot = std::pair<Duration, int>;
  std::priority_queue<Slot, std::vector<Slot>, std::greater<Slot>> least_loaded;
  for (int i = 0; i < instance.machines; ++i) least_loaded.push({schedule.loads[i], i});
  for (const int job : short_jobs) {
    const int machine = least_loaded.top().second;
    least_loaded.pop();
    assign(schedule, instance, job, machine);
    least_loaded.push({schedule.loads[machine], machine});
  }
}

void finish(PcmaxSchedule& schedule) {
  schedule.makespan = *std::max_element(schedule.loads.begin(), schedule.loads.end());
}

}  // namespace

PcmaxSchedule build_schedule_from_table(const PcmaxInstance& instance, const RoundedJobs& rounded,
                                        const DpProblem& problem, const DpTable& table) {
  PcmaxSchedule schedule = empty_schedule(instance);
  const TableShape& shape = problem.shape;
  std::vector<std::size_t> next_of_class(rounded.classes.size(), 0);
  std::uint64_t index = shape.full_state();
  int machine = 0;
  with_entries(table, [&](const auto* entries) {
    using Entry = std::remove_const_t<std::remove_pointer_t<decltype(entries)>>;
    const TableLookup<Entry> lookup{entries, ~std::uint64_t{0}};
    if (lookup(index) >= problem.limit ||
        lookup(index) > static_cast<std::uint32_t>(instance.machines)) {
      throw std::logic_error("build_schedule_from_table: the target is not feasible");
    }
    while (index != 0) {
      const int c = predecessor_config(shape.view(), problem.configs.view(), index, lookup);
      if (c < 0) throw std::logic_error("build_schedule_from_table: no predecessor state");
      const auto counts = problem.configs.digits(c, shape.dims());
      for (int d = 0; d < shape.dims(); ++d) {
        const int cls = shape.class_of_dim()[d];
        for (std::uint32_t s = 0; s < counts[d]; ++s) {
          assign(schedule, instance, rounded.classes[cls].jobs[next_of_class[cls]++], machine);
        }
      }
      index -= problem.configs.offset(c);
      ++machine;
    }
  });
  add_short_jobs(schedule, instance, rounded.short_jobs);
  finish(schedule);
  return schedule;
}

PcmaxSchedule build_schedule_one_per_machine(const PcmaxInstance& instance,
                                             const RoundedJobs& rounded) {
  if (rounded.long_jobs() > instance.machines) {
    throw std::logic_error("build_schedule_one_per_machine: more long jobs than machines");
  }
  PcmaxSchedule schedule = empty_schedule(instance);
  int machine = 0;
  for (const auto& cls : rounded.classes) {
    for (const int job : cls.jobs) assign(schedule, instance, job, machine++);
  }
  add_short_jobs(schedule, instance, rounded.short_jobs);
  finish(schedule);
  return schedule;
}

PcmaxSchedule build_lpt_schedule(const PcmaxInstance& instance) {
  PcmaxSchedule schedule = empty_schedule(instance);
  std::vector<int> jobs(instance.times.size());
  std::iota(jobs.begin(), jobs.end(), 0);
  add_short_jobs(schedule, instance, std::move(jobs));
  finish(schedule);
  return schedule;
}

}  // namespace permbb::pcmax
