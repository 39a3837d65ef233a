#include "cpu_dp.hpp"

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include "blocked_fill.hpp"
#include "level_buckets.hpp"
#include "dp_step.hpp"

namespace permbb::pcmax {
namespace {

// A block's levels with OpenMP, writing into `ring` (the table itself when mask is all ones).
template <class Entry>
class HostBackend {
 public:
  HostBackend(const DpProblem& problem, const PartitionPlan& plan, Entry* ring, Entry* table,
              int threads, const RunControl* control)
      : table_shape_(problem.shape),
        shape_(problem.shape.view()),
        configs_(problem.configs.view()),
        limit_(problem.limit),
        plan_(plan),
        ring_(ring),
        table_(table),
        threads_(threads),
        control_(control) {}

  std::vector<std::uint64_t> start_block(std::uint64_t begin, std::uint64_t end) {
    buckets_ = build_level_buckets(table_shape_, begin, end);
    return buckets_.level_begin;
  }

  void run_level(std::uint64_t first, std::uint64_t count) {
    const TableLookup<Entry> lookup{ring_, plan_.mask};
    const std::uint32_t* states = buckets_.states.data() + first;
    const std::uint64_t base = buckets_.first_state;
    const auto n = static_cast<long long>(count);
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 64) if (n > 256)
    for (long long i = 0; i < n; ++i) {
      // A level can take minutes (an OpenMP loop cannot be left early): after a stop the
      // rest of it is skipped, and run_blocked_fill returns before the next.
      if (stop_requested(control_)) continue;
      const std::uint64_t index = base + states[i];
      ring_[index & plan_.mask] =
          static_cast<Entry>(evaluate_state(shape_, configs_, index, lookup, limit_));
    }
  }

  void finish_block(std::uint64_t begin, std::uint64_t end) {
    if (ring_ == table_) return;
    for (const RingRun& run : ring_runs(plan_, begin, end)) {
      std::copy(ring_ + run.first_slot, ring_ + run.first_slot + run.count,
                table_ + run.first_index);
    }
  }

 private:
  const TableShape& table_shape_;
  TableShapeView shape_;
  ConfigSetView configs_;
  LevelBuckets buckets_;  // of the block being computed
  std::uint32_t limit_;
  const PartitionPlan& plan_;
  Entry* ring_;
  Entry* table_;
  int threads_;
  const RunControl* control_;
};

template <class Entry>
void fill_blocked(const DpProblem& problem, Entry* table, const PartitionPlan& plan, int threads,
                  RunControl* control) {
  std::vector<Entry> ring(plan.ring() ? plan.window : 0);
  Entry* target = plan.ring() ? ring.data() : table;
  HostBackend<Entry> backend(problem, plan, target, table, threads, control);
  run_blocked_fill(problem.shape, plan, backend, control);
}

}  // namespace

int default_threads() {
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

void fill_table_sequential(const DpProblem& problem, DpTable& table, RunControl* control) {
  const TableShapeView shape = problem.shape.view();
  const ConfigSetView configs = problem.configs.view();
  const std::uint64_t size = problem.shape.size();
  constexpr std::uint64_t kCountEvery = 4096;  // states between progress counts
  with_entries(table, [&](auto* entries) {
    using Entry = std::remove_pointer_t<decltype(entries)>;
    const TableLookup<Entry> lookup{entries, ~std::uint64_t{0}};
    for (std::uint64_t index = 0; index < size; ++index) {
      if (stop_requested(control)) return;
      entries[index] =
          static_cast<Entry>(evaluate_state(shape, configs, index, lookup, problem.limit));
      if ((index + 1) % kCountEvery == 0) count_states_done(control, kCountEvery);
    }
    count_states_done(control, size % kCountEvery);
  });
}

void fill_table_parallel(const DpProblem& problem, DpTable& table, int threads,
                         std::uint64_t block_states, RunControl* control) {
  const std::uint64_t size = problem.shape.size();
  const std::uint64_t block = std::clamp<std::uint64_t>(block_states, 1, kMaxBlockStates);
  const PartitionPlan plan{size, ~std::uint64_t{0}, block, (size + block - 1) / block, 0};
  fill_table_blocked(problem, table, plan, threads, control);
}

void fill_table_blocked(const DpProblem& problem, DpTable& table, const PartitionPlan& plan,
                        int threads, RunControl* control) {
  with_entries(table,
               [&](auto* entries) { fill_blocked(problem, entries, plan, threads, control); });
}

void CpuTableFiller::fill(std::vector<DpWork>& batch) {
  for (DpWork& work : batch) {
    if (stop_requested(work.control)) return;
    const auto start = std::chrono::steady_clock::now();
    if (threads_ == 1) {
      fill_table_sequential(*work.problem, *work.table, work.control);
    } else {
      fill_table_parallel(*work.problem, *work.table, threads_, kDefaultBlockStates, work.control);
    }
    work.report.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    work.report.device = "cpu";
    const std::uint64_t size = work.problem->shape.size();
    work.report.blocks = threads_ == 1 ? 1 : (size + kDefaultBlockStates - 1) / kDefaultBlockStates;
    work.report.window = work.problem->shape.size();
  }
}

}  // namespace permbb::pcmax
