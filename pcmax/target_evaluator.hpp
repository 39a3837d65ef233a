#pragma once
// The dual step of the PTAS for a batch of targets T: round the jobs, build and fill the DP
// tables (all of a batch handed to the filler at once, so the GPU computes them
// concurrently), read OPT(N) <= m off each, and build the schedule of every feasible T.
//
// A target with no more long jobs than machines needs no table: one machine per long job
// already fits in T (a long job alone rounds to at most T).
//
// With a RunControl, evaluate() throws RunStopped once a stop is asked for (the tables under
// way are dropped; the schedules of targets finished before stay), and tells it the states of
// each round's tables.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "pcmax_instance.hpp"
#include "run_control.hpp"
#include "schedule_builder.hpp"
#include "table_filler.hpp"

namespace permbb::pcmax {

struct TableRecord {
  Duration target = 0;
  int round = 0;
  int classes = 0;  // nonempty classes: the table's dimensions
  int long_jobs = 0;
  std::uint64_t entries = 0;  // 0: no table was needed
  int configurations = 0;
  int entry_bytes = 0;
  bool feasible = false;
  std::optional<int> machines_needed;  // OPT(N) when it is at most m
  FillReport report;
};

struct EvaluatorSettings {
  int k = 1;
  std::uint64_t memory_limit_bytes = 0;  // host tables held at once
  std::uint64_t max_configurations = std::uint64_t{1} << 22;
  std::string epsilon_text;  // as the user gave it, for messages
};

class TargetEvaluator {
 public:
  TargetEvaluator(const PcmaxInstance& instance, const EvaluatorSettings& settings,
                  TableFiller& filler, RunControl* control = nullptr);

  // Feasibility of each target; records every table and keeps the schedules of feasible
  // targets. Throws InputError when a table would exceed the memory limit (naming its size).
  std::vector<bool> evaluate(const std::vector<Duration>& targets, int round);

  const std::vector<TableRecord>& records() const { return records_; }
  // The schedule of a target found feasible (and not let go since).
  const PcmaxSchedule& schedule(Duration target) const { return schedules_.at(target); }
  // Lets go of every schedule but `target`'s: each holds O(n + m) words, and a search keeps
  // only the one of its upper end (bisection.hpp, IntervalObserver).
  void keep_only_schedule(Duration target);
  // Of the schedules held, one with the smallest makespan; null when none is.
  const PcmaxSchedule* best_schedule() const;

 private:
  struct Pending;
  Pending prepare(Duration target, int round);
  void fill_within_memory(std::vector<Pending>& pending);
  void finish(Pending& pending);
  [[noreturn]] void refuse(const TableRecord& record, const std::string& what) const;

  const PcmaxInstance& instance_;
  EvaluatorSettings settings_;
  TableFiller& filler_;
  RunControl* control_;
  std::vector<TableRecord> records_;
  std::map<Duration, PcmaxSchedule> schedules_;
};

}  // namespace permbb::pcmax
