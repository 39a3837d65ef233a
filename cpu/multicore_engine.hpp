#pragma once
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "flowshop_tables.hpp"
#include "incumbent.hpp"
#include "instance.hpp"
#include "ivm_explorer.hpp"
#include "johnson_tables.hpp"
#include "search_engine.hpp"
#include "steal_policy.hpp"

namespace permbb {

struct MulticoreOptions {
  int threads = 0;  // 0: all hardware threads
  StealPolicy policy = StealPolicy::kLargest;
  // Intervals shorter than this many leaves are never stolen (0: a default from n).
  double min_steal_leaves = 0;
  // Certificates: each explorer records the cut of its tree (IvmExplorer::record_cut).
  std::optional<CutRecording> cut;
};

// T explorer threads, each with one IVM and one interval of [0, n!), balanced by interval
// work stealing (2016 §2.4, 2022 §2.6): a thread whose interval is exhausted takes the right
// half of a victim's remaining interval and initialises its IVM there. All threads prune
// against the shared Incumbent. The search is over when every thread is idle at once; idle
// threads sleep on a condition variable, woken when busy threads see idle ones, so no core
// spins while others work. See SearchEngine for the driving contract.
class MulticoreEngine : public SearchEngine {
 public:
  MulticoreEngine(const Instance& instance, const SearchSettings& settings, Incumbent& incumbent,
                  const MulticoreOptions& options);
  ~MulticoreEngine() override;
  MulticoreEngine(const MulticoreEngine&) = delete;
  MulticoreEngine& operator=(const MulticoreEngine&) = delete;

  std::string name() const override { return "cpu"; }
  void set_work(const std::vector<Interval>& intervals) override;
  bool explore(std::chrono::duration<double> budget) override;
  std::vector<Interval> remaining() override;
  void request_stop() override;
  EngineStats stats() const override;
  void cap_nodes(std::uint64_t total) override { node_cap_.store(total); }
  std::vector<PromotedSubproblem> sample_subproblems(int count) override;
  bool collect_cut(SearchCut& into) override;

 private:
  // One thread's IVM. The owner holds `mutex` while it explores a chunk; a thief holds it to
  // cut the interval. The atomics are read without the lock (victim choice, statistics).
  // `waiting` counts the other threads blocked on `mutex` (lock_from_outside).
  struct Slot {
    Slot(const FlowshopTables& tables, const JohnsonTables* johnson,
         const SearchSettings& settings, Incumbent& incumbent)
        : explorer(tables, johnson, settings, incumbent) {}
    std::mutex mutex;
    IvmExplorer explorer;
    std::atomic<bool> has_work{false};
    std::atomic<double> remaining_fraction{0};
    std::atomic<std::uint64_t> decomposed{0};
    std::atomic<std::uint64_t> leaves{0};
    std::atomic<int> waiting{0};
    std::uint64_t chunk_steps = 1;  // the owner's alone: its next chunk (explore_chunk adapts it)
  };

  static std::unique_lock<std::mutex> lock_from_outside(Slot& slot);

  void thread_main(int id);
  void explore_until_paused(int id);
  bool explore_chunk(Slot& slot);
  std::uint64_t nodes_before_cap() const;
  bool acquire_work(int id);
  bool take_pending(Slot& slot);
  bool steal_into(int thief);
  bool try_steal(Slot& victim, Slot& thief);
  bool wait_while_idle();
  void settle(Slot& slot);
  void publish(Slot& slot);
  bool all_done_locked() const;

  const int n_;
  FlowshopTables tables_;
  std::unique_ptr<JohnsonTables> johnson_;
  std::vector<int> min_steal_;  // factoradic digits of the minimum stolen length
  StealPolicy policy_;
  std::optional<CutRecording> cut_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<std::thread> threads_;

  // Shared state of the pool, under mutex_.
  mutable std::mutex mutex_;
  std::condition_variable work_cv_;     // threads: new phase, pause, a chance to steal
  std::condition_variable control_cv_;  // controller: all idle, all parked, stop
  std::deque<std::vector<int>> pending_;  // [begin digits, end digits] concatenated
  std::uint64_t phase_ = 0;
  int idle_ = 0;
  int parked_ = 0;
  bool all_idle_ = false;
  bool shutdown_ = false;
  bool stop_requested_ = false;
  std::exception_ptr failure_;
  std::atomic<bool> pause_{true};
  std::atomic<int> idle_hint_{0};
  std::atomic<std::uint64_t> steals_{0};
  std::atomic<std::uint64_t> node_cap_{0};  // cap_nodes(): 0, or the total to pause at
};

}  // namespace permbb
