#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "flowshop_types.hpp"

namespace permbb::solve {

// How a search ended:
//   optimal            complete; the reported schedule is optimal;
//   no-better-than-ub  complete; no schedule below the initial upper bound exists (C* >= UB);
//   incomplete         a limit stopped it; the best schedule found, if any, is reported.
enum class SolveStatus { kOptimal, kNoBetterThanUb, kIncomplete };

std::string to_string(SolveStatus status);

// Exit status of `permbb solve`: 0 for a complete search, 3 for an incomplete one
// (resumable), 2 for bad input (main), 1 for an internal error (main).
int exit_code(SolveStatus status);

struct SolveResult {
  std::string instance;
  int jobs = 0;
  int machines = 0;
  std::string bound;
  std::string branching;
  Time initial_ub = kInfiniteTime;
  std::string initial_ub_origin;
  SolveStatus status = SolveStatus::kIncomplete;
  bool has_schedule = false;
  Time makespan = 0;
  std::vector<int> permutation;  // 0-based jobs
  std::uint64_t nodes_decomposed = 0;
  std::uint64_t leaves = 0;
  double seconds = 0;      // over all runs (restarts included)
  double run_seconds = 0;  // this run alone
  unsigned restarts = 0;
  int threads = 1;  // explorers: CPU threads or GPU IVMs
  std::string engine = "cpu";
  std::uint64_t steals = 0;
  nlohmann::json cluster;  // coordinator statistics of an MPI run (null otherwise)
  // Why an incomplete search stopped ("time limit", "node limit", "stopped by SIGTERM", lost
  // ranks); "" for a complete one.
  std::string stopped_because;
};

// Machine-readable form; jobs are 1-based there, as users number them.
nlohmann::json to_json(const SolveResult& result);

// The human summary: status, makespan, permutation (1-based), nodes, time, rate.
std::string format_human(const SolveResult& result);

}  // namespace permbb::solve
