#include "iterated_greedy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <stdexcept>
#include <utility>

#include "deadline.hpp"
#include "elite_restart.hpp"
#include "local_search.hpp"
#include "partial_schedule.hpp"
#include "path_relinking.hpp"

namespace permbb {
namespace {

// Ruiz & Stützle 2007, §4: T * (sum of all processing times) / (n m 10).
double temperature(const Instance& instance, double factor) {
  const double cells = static_cast<double>(instance.jobs()) * instance.machines();
  return factor * static_cast<double>(instance.checksum()) / (cells * 10.0);
}

// The sum over machines of the time each finishes its last job. The makespan is the largest;
// among schedules of equal makespan, a smaller sum leaves more of the machines slack before the
// end, where the next improvement can come from. `done` is scratch of one entry per machine.
std::int64_t finish_sum(const Instance& instance, const std::vector<int>& permutation,
                        std::vector<Time>& done) {
  const int m = instance.machines();
  std::fill(done.begin(), done.end(), 0);
  for (const int job : permutation) {
    Time left = 0;
    for (int k = 0; k < m; ++k) {
      left = std::max(left, done[k]) + instance.time(k, job);
      done[k] = left;
    }
  }
  std::int64_t sum = 0;
  for (const Time t : done) sum += t;
  return sum;
}

// Removes `count` jobs at random positions of `schedule`, appending them to `removed` in the
// order they were drawn (Ruiz & Stützle's pi_R).
void destruct(Schedule& schedule, int count, std::mt19937_64& rng, std::vector<int>& removed) {
  std::vector<int>& permutation = schedule.permutation;
  removed.clear();
  for (int r = 0; r < count && !permutation.empty(); ++r) {
    std::uniform_int_distribution<int> pick(0, static_cast<int>(permutation.size()) - 1);
    const int position = pick(rng);
    removed.push_back(permutation[position]);
    permutation.erase(permutation.begin() + position);
  }
}

// Inserts the jobs of `removed`, in order, each at its best position.
void construct(const Instance& instance, Schedule& schedule, const std::vector<int>& removed,
               InsertionTies ties, InsertionWorkspace& workspace) {
  for (const int job : removed) {
    const Insertion at = best_insertion(instance, schedule.permutation, job, workspace, ties);
    schedule.permutation.insert(schedule.permutation.begin() + at.position, job);
    schedule.makespan = at.makespan;
  }
}

// One destruction and construction of Ruiz & Stützle (2007, Fig. 5) with its local searches:
// what every iteration does to its trial, and a restart, with more jobs, to an elite member.
struct Rebuild {
  const Instance& instance;
  const LocalSearchRules& rules;
  bool partial_local_search;
  std::mt19937_64& rng;
  LocalSearchWorkspace& workspace;
  const Deadline& deadline;
  std::vector<int> removed;

  void operator()(Schedule& trial, int removals) {
    destruct(trial, removals, rng, removed);
    if (partial_local_search) {
      trial.makespan = makespan(instance, trial.permutation);
      insertion_local_search(instance, trial, rules, rng, workspace, deadline);
    }
    construct(instance, trial, removed, rules.ties, workspace.insertion);
    insertion_local_search(instance, trial, rules, rng, workspace, deadline);
  }
};

// A restart (IteratedGreedyOptions::restart_after) of `current` from the elite schedule
// `elite`: with `relink_first`, the best intermediate schedule of the path from current
// toward it, improved by the local search; else, or when the two are too close for a path,
// the elite schedule destroyed by `removals` jobs and rebuilt.
void restart_from(Schedule& current, Schedule elite, int removals, bool relink_first,
                  Rebuild& rebuild) {
  if (relink_first) {
    if (auto middle = relink(rebuild.instance, current.permutation, elite.permutation)) {
      current = std::move(*middle);
      insertion_local_search(rebuild.instance, current, rebuild.rules, rebuild.rng,
                             rebuild.workspace, rebuild.deadline);
      return;
    }
  }
  current = std::move(elite);
  rebuild(current, removals);
}

// The copies' common best (IteratedGreedyOptions::shared) when it holds a schedule of all the
// jobs shorter than `best`.
std::optional<Schedule> better_shared(const Instance& instance, const Incumbent* shared,
                                      Time best) {
  if (shared == nullptr || shared->value() >= best) return std::nullopt;
  std::vector<int> permutation = shared->permutation();
  if (static_cast<int>(permutation.size()) != instance.jobs()) return std::nullopt;
  const Time length = makespan(instance, permutation);
  return Schedule{std::move(permutation), length};
}

}  // namespace

IteratedGreedyResult iterated_greedy(const Instance& instance, const Schedule& start,
                                     const IteratedGreedyOptions& options) {
  require_complete_permutation(instance, start.permutation, "iterated greedy start");
  if (options.time_limit <= 0 && options.iteration_limit == 0 && options.stop == nullptr) {
    throw std::invalid_argument("iterated greedy: no time limit, iteration limit or stop flag");
  }
  const int n = instance.jobs();
  const int removals = std::clamp(options.destruction_size, 1, n);
  LocalSearchRules rules = options.local_search;
  if (rules.k_max <= 0) rules.k_max = std::max(1, static_cast<int>(std::sqrt(n)));
  const double t = temperature(instance, options.temperature_factor);
  const Deadline deadline(options.time_limit, options.stop,
                          options.cpu_time ? DeadlineClock::kThreadCpu : DeadlineClock::kWall);
  std::mt19937_64 rng(options.seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  LocalSearchWorkspace workspace(instance);

  Schedule current{start.permutation, makespan(instance, start.permutation)};
  insertion_local_search(instance, current, rules, rng, workspace, deadline);
  std::vector<Time> done(static_cast<std::size_t>(instance.machines()));
  std::int64_t current_finish = options.prefer_slack ? finish_sum(instance, current.permutation, done) : 0;
  IteratedGreedyResult result{current, 0};
  offer_to(options.best_so_far, current.permutation, current.makespan);
  // Keeps the current schedule as the run's best when it is shorter; returns whether it was.
  const auto keep_if_best = [&] {
    if (current.makespan >= result.best.makespan) return false;
    result.best = current;
    offer_to(options.best_so_far, current.permutation, current.makespan);
    return true;
  };
  Schedule trial;
  trial.permutation.reserve(static_cast<std::size_t>(n));
  Rebuild rebuild{instance, rules, options.partial_local_search, rng, workspace, deadline, {}};
  rebuild.removed.reserve(static_cast<std::size_t>(n));
  EliteRestart restart(options.restart_after, options.restart_elite);
  const int restart_removals = std::clamp(options.restart_destruction, 1, n);
  std::uint64_t without_new_best = 0;  // for adopt_after

  while (!deadline.expired() &&
         (options.iteration_limit == 0 || result.iterations < options.iteration_limit)) {
    trial.permutation.assign(current.permutation.begin(), current.permutation.end());
    rebuild(trial, removals);
    ++result.iterations;

    // Acceptance: not worse always; worse with probability exp(-(difference) / T). With
    // prefer_slack, an equal makespan is worse by the machines' mean later finish.
    bool new_best = false;
    double worse_by = trial.makespan - current.makespan;
    std::int64_t trial_finish = 0;
    if (options.prefer_slack && worse_by == 0) {
      trial_finish = finish_sum(instance, trial.permutation, done);
      worse_by = static_cast<double>(trial_finish - current_finish) / instance.machines();
    }
    if (worse_by <= 0 || (t > 0 && unit(rng) <= std::exp(-worse_by / t))) {
      if (options.prefer_slack) {
        current_finish = trial.makespan == current.makespan
                             ? trial_finish
                             : finish_sum(instance, trial.permutation, done);
      }
      std::swap(current, trial);
      new_best = keep_if_best();
    }
    without_new_best = new_best ? 0 : without_new_best + 1;
    if (options.adopt_after > 0 && without_new_best >= options.adopt_after) {
      without_new_best = 0;
      if (auto adopted = better_shared(instance, options.shared, result.best.makespan)) {
        current = std::move(*adopted);
        if (options.prefer_slack) current_finish = finish_sum(instance, current.permutation, done);
        keep_if_best();
      }
    }
    if (restart.after_iteration(current, new_best)) {
      restart_from(current, restart.restart_point(), restart_removals, options.restart_relink,
                   rebuild);
      if (options.prefer_slack) current_finish = finish_sum(instance, current.permutation, done);
      keep_if_best();
    }
  }
  return result;
}

}  // namespace permbb
