#pragma once
// Independent reference code for the tests: naive evaluation and brute force, written
// without any of the solver's code, so that the solver is checked against something else.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "input_error.hpp"
#include "instance.hpp"

namespace permbb::testing {

// The number of random trials of a test: `trials` times PERMBB_TEST_SCALE (a fraction > 0,
// default 1), at least one. scripts/run-tests.sh runs the sanitizer builds, where the code is
// 5 to 20 times slower, with fewer trials: each trial checks the same property.
inline int scaled_trials(int trials) {
  const char* text = std::getenv("PERMBB_TEST_SCALE");
  const double scale = text == nullptr ? 1.0 : std::atof(text);
  if (!(scale > 0)) return trials;
  return std::max(1, static_cast<int>(trials * scale));
}

inline Instance random_instance(std::mt19937& rng, int jobs, int machines, int max_time = 99) {
  std::uniform_int_distribution<int> time(1, max_time);
  std::vector<Time> times(static_cast<size_t>(jobs) * machines);
  for (auto& t : times) t = time(rng);
  return Instance("random", jobs, machines, std::move(times));
}

// The full completion-time matrix, row by row (2022 §2.1, Eq. 1).
inline Time naive_makespan(const Instance& inst, const std::vector<int>& order) {
  const int m = inst.machines();
  std::vector<Time> done(m + 1, 0);
  for (int job : order) {
    for (int k = 0; k < m; ++k) done[k + 1] = std::max(done[k + 1], done[k]) + inst.time(k, job);
  }
  return done[m];
}

// Completion times of a prefix on each machine (0 for an empty prefix).
inline std::vector<Time> naive_completion(const Instance& inst, const std::vector<int>& prefix) {
  const int m = inst.machines();
  std::vector<Time> done(m + 1, 0);
  for (int job : prefix) {
    for (int k = 0; k < m; ++k) done[k + 1] = std::max(done[k + 1], done[k]) + inst.time(k, job);
  }
  return std::vector<Time>(done.begin() + 1, done.end());
}

// The best makespan of prefix · (any order of the other jobs) · suffix.
inline Time best_completion(const Instance& inst, const std::vector<int>& prefix,
                            const std::vector<int>& suffix) {
  std::vector<int> free_jobs;
  for (int j = 0; j < inst.jobs(); ++j) {
    if (std::find(prefix.begin(), prefix.end(), j) == prefix.end() &&
        std::find(suffix.begin(), suffix.end(), j) == suffix.end()) {
      free_jobs.push_back(j);
    }
  }
  Time best = INT32_MAX;
  do {
    std::vector<int> order = prefix;
    order.insert(order.end(), free_jobs.begin(), free_jobs.end());
    order.insert(order.end(), suffix.begin(), suffix.end());
    best = std::min(best, naive_makespan(inst, order));
  } while (std::next_permutation(free_jobs.begin(), free_jobs.end()));
  return best;
}

inline Time brute_force_optimum(const Instance& inst) { return best_completion(inst, {}, {}); }

inline std::vector<int> random_permutation(std::mt19937& rng, int jobs) {
  std::vector<int> permutation(static_cast<std::size_t>(jobs));
  std::iota(permutation.begin(), permutation.end(), 0);
  std::shuffle(permutation.begin(), permutation.end(), rng);
  return permutation;
}

// Each of the jobs 0..jobs-1 exactly once.
inline bool is_permutation_of_all_jobs(std::vector<int> permutation, int jobs) {
  std::sort(permutation.begin(), permutation.end());
  if (static_cast<int>(permutation.size()) != jobs) return false;
  for (int j = 0; j < jobs; ++j) {
    if (permutation[j] != j) return false;
  }
  return true;
}

inline std::uint64_t factorial(int n) {
  std::uint64_t f = 1;
  for (int i = 2; i <= n; ++i) f *= static_cast<std::uint64_t>(i);
  return f;
}

// Factoradic digits of v < n! (n <= 20); v == n! gives the overflowed form (d[0] = n).
inline std::vector<int> digits_of(std::uint64_t v, int n) {
  std::vector<int> d(n, 0);
  if (v == factorial(n)) {
    d[0] = n;
    return d;
  }
  for (int i = 0; i < n; ++i) {
    const std::uint64_t weight = factorial(n - 1 - i);
    d[i] = static_cast<int>(v / weight);
    v %= weight;
  }
  return d;
}

inline std::uint64_t value_of(const std::vector<int>& d) {
  const int n = static_cast<int>(d.size());
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) v += static_cast<std::uint64_t>(d[i]) * factorial(n - 1 - i);
  return v;
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The message of the InputError that `f` throws ("" and a failure when none).
template <class F>
std::string input_error_of(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError thrown";
  return "";
}

}  // namespace permbb::testing
