#pragma once
// The instances and settings of the differential tests: every explorer against brute force
// (test_support.hpp) on small random instances whose shapes provoke the ties and degenerate
// cases where bounds and branching rules go wrong: zero times, few distinct values, identical
// jobs or machines, times up to kMaxProcessingTime. Each instance is a function of (seed, n,
// m) alone, so a failure reproduces from the three numbers the message prints, and
// describe() prints the instance as a file `permbb solve` reads.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "instance.hpp"
#include "search_settings.hpp"
#include "test_support.hpp"

namespace permbb::testing {

// The shapes, chosen by the seed; each draws its times from `high` (see differential_instance).
enum class CaseShape {
  kUniform,        // every time in [0, high]
  kMostlyZero,     // each time 0 with probability 3/4, else in [0, high]
  kFewValues,      // each time one of {0, high/2, high}: many ties between bounds
  kEqualJobs,      // some jobs are copies of others (equal columns)
  kEqualMachines,  // some machines are copies of others (equal rows)
  kConstant,       // every time the same value (0 included)
  kNearMaximum,    // every time within 16 of high: large values, small differences
};
inline constexpr int kCaseShapes = 7;

inline const char* to_string(CaseShape shape) {
  switch (shape) {
    case CaseShape::kUniform: return "uniform";
    case CaseShape::kMostlyZero: return "mostly-zero";
    case CaseShape::kFewValues: return "few-values";
    case CaseShape::kEqualJobs: return "equal-jobs";
    case CaseShape::kEqualMachines: return "equal-machines";
    case CaseShape::kConstant: return "constant";
    case CaseShape::kNearMaximum: return "near-maximum";
  }
  return "?";
}

// The instance of (seed, jobs, machines): its shape and largest time are drawn from the seed
// too (largest time 1, 3, 10, 100 or kMaxProcessingTime).
inline Instance differential_instance(std::uint64_t seed, int jobs, int machines) {
  std::mt19937_64 rng(seed * 1000003u + static_cast<std::uint64_t>(jobs) * 1009u +
                      static_cast<std::uint64_t>(machines));
  const auto shape = static_cast<CaseShape>(rng() % kCaseShapes);
  const Time highs[] = {1, 3, 10, 100, kMaxProcessingTime};
  const Time high = highs[rng() % 5];
  auto draw = [&](Time low, Time top) {
    return std::uniform_int_distribution<Time>(low, top)(rng);
  };
  std::vector<Time> times(static_cast<std::size_t>(jobs) * machines);
  auto at = [&](int k, int j) -> Time& { return times[static_cast<std::size_t>(k) * jobs + j]; };
  for (Time& t : times) t = draw(0, high);
  switch (shape) {
    case CaseShape::kUniform:
      break;
    case CaseShape::kMostlyZero:
      for (Time& t : times) t = rng() % 4 == 0 ? t : 0;
      break;
    case CaseShape::kFewValues:
      for (Time& t : times) t = (high / 2) * static_cast<Time>(rng() % 3);
      break;
    case CaseShape::kEqualJobs:
      for (int j = 1; j < jobs; ++j) {
        if (rng() % 2 == 0) continue;
        const int copied = static_cast<int>(rng() % j);
        for (int k = 0; k < machines; ++k) at(k, j) = at(k, copied);
      }
      break;
    case CaseShape::kEqualMachines:
      for (int k = 1; k < machines; ++k) {
        if (rng() % 2 == 0) continue;
        const int copied = static_cast<int>(rng() % k);
        for (int j = 0; j < jobs; ++j) at(k, j) = at(copied, j);
      }
      break;
    case CaseShape::kConstant: {
      const Time value = draw(0, high);
      for (Time& t : times) t = value;
      break;
    }
    case CaseShape::kNearMaximum:
      for (Time& t : times) t = draw(high > 16 ? high - 16 : 0, high);
      break;
  }
  std::ostringstream name;
  name << "seed" << seed << "-" << to_string(shape);
  return Instance(name.str(), jobs, machines, std::move(times));
}

// The instance as a file `permbb solve FILE` reads (n m, then one line per machine), after
// its name: what a failure message prints.
inline std::string describe(const Instance& inst) {
  std::ostringstream out;
  out << inst.name() << " (" << inst.jobs() << " jobs x " << inst.machines() << " machines):\n"
      << inst.jobs() << " " << inst.machines() << "\n";
  for (int k = 0; k < inst.machines(); ++k) {
    for (int j = 0; j < inst.jobs(); ++j) out << (j ? " " : "") << inst.time(k, j);
    out << "\n";
  }
  return out.str();
}

// How many times more cases than in CI to run: PERMBB_DIFFERENTIAL_SCALE (default 1), for
// longer hunts on a developer's machine. Extra cases take the next seeds.
inline int differential_scale() {
  const char* scale = std::getenv("PERMBB_DIFFERENTIAL_SCALE");
  return scale == nullptr ? 1 : std::max(1, std::atoi(scale));
}

// Every bound x every branching rule, as the command line names them.
inline std::vector<SearchSettings> all_search_settings() {
  std::vector<SearchSettings> all;
  for (const std::string& bound : bound_kind_names()) {
    for (const std::string& rule : branching_rule_names()) {
      all.push_back({parse_bound_kind(bound), parse_branching_rule(rule)});
    }
  }
  return all;
}

inline std::string describe(const SearchSettings& settings) {
  return to_string(settings.bound) + " + " + to_string(settings.branching);
}

// The upper bounds every case is searched from: none, above, at and below the optimum (the
// last two never improve, so node counts there are a property of the tree alone). Bounds
// are never negative (the cluster protocol refuses them): below an optimum of 0 there is none.
inline std::vector<Time> upper_bounds_around(Time optimum) {
  if (optimum == 0) return {kInfiniteTime, 1, 0};
  return {kInfiniteTime, optimum + 1, optimum, optimum - 1};
}

// How a search from `upper_bound` must end: above the optimum with a schedule of the
// optimum (status optimal), otherwise with no schedule and the bound unchanged (status
// no-better-than-ub). Empty when it did; else what is wrong.
inline std::string outcome_error(const Instance& inst, Time optimum, Time upper_bound, Time best,
                                 const std::vector<int>& schedule) {
  std::ostringstream error;
  if (upper_bound > optimum) {
    if (best != optimum) error << "; best " << best << ", optimum " << optimum;
    if (!is_permutation_of_all_jobs(schedule, inst.jobs())) {
      error << "; the schedule is not a permutation of the " << inst.jobs() << " jobs";
    } else if (naive_makespan(inst, schedule) != optimum) {
      error << "; the schedule's makespan is " << naive_makespan(inst, schedule);
    }
  } else {
    if (best != upper_bound) error << "; the bound moved to " << best;
    if (!schedule.empty()) error << "; a schedule was found, none beats the bound";
  }
  if (error.str().empty()) return "";
  return "from UB " + std::to_string(upper_bound) + error.str();
}

}  // namespace permbb::testing
