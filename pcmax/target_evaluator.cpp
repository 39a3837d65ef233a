#include "target_evaluator.hpp"

#include <iterator>
#include <memory>
#include <new>
#include <stdexcept>

#include "dp_problem.hpp"
#include "dp_table.hpp"
#include "input_error.hpp"
#include "job_rounding.hpp"
#include "memory_budget.hpp"

namespace permbb::pcmax {

struct TargetEvaluator::Pending {
  RoundedJobs rounded;
  TableRecord record;
  std::unique_ptr<DpProblem> problem;  // null: no table needed
  std::unique_ptr<DpTable> table;
  std::uint64_t bytes = 0;
};

TargetEvaluator::TargetEvaluator(const PcmaxInstance& instance, const EvaluatorSettings& settings,
                                 TableFiller& filler, RunControl* control)
    : instance_(instance), settings_(settings), filler_(filler), control_(control) {}

void TargetEvaluator::refuse(const TableRecord& record, const std::string& what) const {
  throw InputError(
      "--epsilon " + settings_.epsilon_text + ": at target T = " + std::to_string(record.target) +
      " (" + std::to_string(record.long_jobs) + " long jobs in " + std::to_string(record.classes) +
      " classes) " + what + "; use a larger --epsilon");
}

TargetEvaluator::Pending TargetEvaluator::prepare(Duration target, int round) {
  throw_if_stopped(control_);
  Pending p;
  p.rounded = round_jobs(instance_.times, target, settings_.k);
  p.record.target = target;
  p.record.round = round;
  p.record.classes = static_cast<int>(p.rounded.classes.size());
  p.record.long_jobs = p.rounded.long_jobs();
  if (p.record.long_jobs <= instance_.machines) return p;

  const std::vector<ClassCount> classes = class_counts(p.rounded);
  const auto limit = static_cast<std::uint32_t>(instance_.machines + 1);
  const int entry_bytes = entry_bytes_for_limit(limit);
  const std::uint64_t entries = TableShape::table_entries(classes);
  const std::uint64_t memory = settings_.memory_limit_bytes;
  const bool too_many_classes = classes.size() > static_cast<std::size_t>(kMaxClasses);
  if (too_many_classes || entries == TableShape::kUnbounded ||
      entries > memory / static_cast<std::uint64_t>(entry_bytes)) {
    std::string size;
    if (too_many_classes) {
      size = "at least 2^" + std::to_string(classes.size()) + " entries";
    } else if (entries == TableShape::kUnbounded) {
      size = "2^64 entries or more";
    } else {
      const bool huge = entries > TableShape::kUnbounded / static_cast<std::uint64_t>(entry_bytes);
      size = std::to_string(entries) + " entries, " +
             (huge ? std::string("over 16 EiB") : format_bytes(entries * entry_bytes));
    }
    refuse(p.record, "the DP table would need " + size + "; the memory limit is " +
                         format_bytes(memory) + " (--memory-limit)");
  }
  const TableShape shape(classes, p.rounded.capacity);
  if (ConfigSet::count_configurations(shape, settings_.max_configurations) >
      settings_.max_configurations) {
    refuse(p.record, "there are more than " + std::to_string(settings_.max_configurations) +
                         " machine configurations");
  }
  p.problem = std::make_unique<DpProblem>(classes, p.rounded.capacity, limit,
                                          settings_.max_configurations, control_);
  p.record.entries = entries;
  p.record.entry_bytes = entry_bytes;
  p.record.configurations = p.problem->configs.count();
  p.bytes = entries * entry_bytes + p.problem->configs.bytes();
  return p;
}

// The batch's tables, in as few fills as the memory limit allows (each fill a group whose
// tables fit together); every table alone fits, prepare() checked that.
void TargetEvaluator::fill_within_memory(std::vector<Pending>& pending) {
  std::size_t next = 0;
  while (next < pending.size()) {
    std::vector<DpWork> batch;
    std::vector<std::size_t> owners;
    std::uint64_t held = 0;
    for (; next < pending.size(); ++next) {
      Pending& p = pending[next];
      if (!p.problem) continue;
      if (!batch.empty() && held + p.bytes > settings_.memory_limit_bytes) break;
      try {
        p.table = std::make_unique<DpTable>(p.record.entries, p.record.entry_bytes);
      } catch (const std::bad_alloc&) {
        refuse(p.record, "the DP table of " + format_bytes(p.bytes) + " could not be allocated");
      }
      held += p.bytes;
      batch.push_back(DpWork{p.problem.get(), p.table.get(), {}, control_});
      owners.push_back(next);
    }
    if (batch.empty()) continue;
    filler_.fill(batch);
    throw_if_stopped(control_);  // before the tables are read: they may be unfinished
    for (std::size_t i = 0; i < batch.size(); ++i) {
      Pending& p = pending[owners[i]];
      p.record.report = batch[i].report;
      finish(p);
    }
  }
}

// Reads OPT(N), builds the schedule of a feasible target, and lets the table go.
void TargetEvaluator::finish(Pending& p) {
  const std::uint32_t needed = p.table->at(p.problem->shape.full_state());
  p.record.feasible = needed <= static_cast<std::uint32_t>(instance_.machines);
  if (p.record.feasible) {
    p.record.machines_needed = static_cast<int>(needed);
    schedules_[p.record.target] =
        build_schedule_from_table(instance_, p.rounded, *p.problem, *p.table);
  }
  p.table.reset();
}

void TargetEvaluator::keep_only_schedule(Duration target) {
  for (auto it = schedules_.begin(); it != schedules_.end();) {
    it = it->first == target ? std::next(it) : schedules_.erase(it);
  }
}

const PcmaxSchedule* TargetEvaluator::best_schedule() const {
  const PcmaxSchedule* best = nullptr;
  for (const auto& [target, schedule] : schedules_) {
    if (best == nullptr || schedule.makespan < best->makespan) best = &schedule;
  }
  return best;
}

std::vector<bool> TargetEvaluator::evaluate(const std::vector<Duration>& targets, int round) {
  std::vector<Pending> pending;
  for (const Duration target : targets) {
    pending.push_back(prepare(target, round));
    if (control_ != nullptr) control_->add_round_states(pending.back().record.entries);
  }
  fill_within_memory(pending);
  std::vector<bool> feasible;
  for (Pending& p : pending) {
    if (!p.problem) {  // no table: one machine per long job
      p.record.feasible = true;
      p.record.machines_needed = p.record.long_jobs;
      p.record.report.device = "none";
      schedules_[p.record.target] = build_schedule_one_per_machine(instance_, p.rounded);
    }
    feasible.push_back(p.record.feasible);
    records_.push_back(p.record);
  }
  return feasible;
}

}  // namespace permbb::pcmax
