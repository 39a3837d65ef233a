#include "schedule_improvement.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace permbb::pcmax {
namespace {

// A candidate step: job x leaves machine a for b, and job y (or none) comes back.
struct Step {
  int to = -1;
  int job_out = -1;
  int job_in = -1;  // -1: a move
  Duration pair_max = 0;
};

class Search {
 public:
  Search(const PcmaxInstance& instance, PcmaxSchedule& schedule, const LocalSearchLimits& limits)
      : instance_(instance), schedule_(schedule), limits_(limits),
        jobs_of_(schedule.loads.size()) {
    for (std::size_t j = 0; j < instance.times.size(); ++j) {
      jobs_of_[schedule.machine_of_job[j]].push_back(static_cast<int>(j));
    }
  }

  LocalSearchReport run() {
    LocalSearchReport report;
    while (true) {
      if (stop_requested(limits_.control) || candidates_ > limits_.max_candidates) {
        report.finished = false;
        break;
      }
      const int a = static_cast<int>(
          std::max_element(schedule_.loads.begin(), schedule_.loads.end()) -
          schedule_.loads.begin());
      const Step step = best_step(a);
      if (step.to < 0) break;
      apply(a, step);
      ++(step.job_in < 0 ? report.moves : report.exchanges);
    }
    schedule_.makespan = *std::max_element(schedule_.loads.begin(), schedule_.loads.end());
    return report;
  }

 private:
  // Machines below a's load, least loaded first (lowest index on ties).
  std::vector<int> partners(int a) const {
    std::vector<int> machines;
    for (int b = 0; b < static_cast<int>(schedule_.loads.size()); ++b) {
      if (schedule_.loads[b] < schedule_.loads[a]) machines.push_back(b);
    }
    std::stable_sort(machines.begin(), machines.end(),
                     [&](int x, int y) { return schedule_.loads[x] < schedule_.loads[y]; });
    return machines;
  }

  void consider(Step& best, int to, int out, int in, Duration d, Duration la, Duration lb) {
    ++candidates_;
    if (d <= 0 || d >= la - lb) return;
    const Duration pair_max = std::max(la - d, lb + d);
    if (best.to < 0 || pair_max < best.pair_max) best = {to, out, in, pair_max};
  }

  Step best_step(int a) {
    Step best;
    const Duration la = schedule_.loads[a];
    const auto& times = instance_.times;
    for (const int b : partners(a)) {
      const Duration lb = schedule_.loads[b];
      for (const int x : jobs_of_[a]) {
        if (candidates_ > limits_.max_candidates) return best;  // huge machines: stop here
        consider(best, b, x, -1, times[x], la, lb);
        for (const int y : jobs_of_[b]) consider(best, b, x, y, times[x] - times[y], la, lb);
      }
      // The best possible step halves the difference: no partner can do better than that.
      if (best.to >= 0 && best.pair_max == la - (la - lb) / 2) break;
    }
    return best;
  }

  void relocate(int job, int from, int to) {
    auto& jobs = jobs_of_[from];
    jobs.erase(std::find(jobs.begin(), jobs.end(), job));
    jobs_of_[to].push_back(job);
    schedule_.machine_of_job[job] = to;
    schedule_.loads[from] -= instance_.times[job];
    schedule_.loads[to] += instance_.times[job];
  }

  void apply(int a, const Step& step) {
    relocate(step.job_out, a, step.to);
    if (step.job_in >= 0) relocate(step.job_in, step.to, a);
  }

  const PcmaxInstance& instance_;
  PcmaxSchedule& schedule_;
  const LocalSearchLimits& limits_;
  std::vector<std::vector<int>> jobs_of_;
  std::uint64_t candidates_ = 0;
};

}  // namespace

void recompute_loads(const PcmaxInstance& instance, PcmaxSchedule& schedule) {
  if (schedule.machine_of_job.size() != instance.times.size()) {
    throw std::logic_error("recompute_loads: the schedule has " +
                           std::to_string(schedule.machine_of_job.size()) + " jobs, the instance " +
                           std::to_string(instance.times.size()));
  }
  schedule.loads.assign(static_cast<std::size_t>(instance.machines), 0);
  for (std::size_t j = 0; j < instance.times.size(); ++j) {
    const int machine = schedule.machine_of_job[j];
    if (machine < 0 || machine >= instance.machines) {
      throw std::logic_error("recompute_loads: job " + std::to_string(j + 1) + " is on machine " +
                             std::to_string(machine + 1) + " of " +
                             std::to_string(instance.machines));
    }
    schedule.loads[machine] += instance.times[j];
  }
  schedule.makespan = *std::max_element(schedule.loads.begin(), schedule.loads.end());
}

LocalSearchReport improve_schedule(const PcmaxInstance& instance, PcmaxSchedule& schedule,
                                   const LocalSearchLimits& limits) {
  recompute_loads(instance, schedule);
  return Search(instance, schedule, limits).run();
}

}  // namespace permbb::pcmax
