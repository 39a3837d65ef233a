#pragma once
// Several engines explored side by side as one: the GPU explorer's pools on one device.
//
// One GPU engine leaves about half of an H200 unused (docs/performance.md): each kernel
// launch runs its IVMs for a fixed number of steps of uneven cost, and the launch's last wave
// drains while multiprocessors idle. Two engines on one device, each with its own IVM pool,
// stream and feeding thread, fill each other's gaps (two ranks per GPU were 1.85x faster than
// one). The group gives that to one process: its members explore concurrently, each on its own
// thread, and when one runs out of work the others are paused and the work is dealt again.
//
// Plain C++ over the SearchEngine contract (no CUDA), so the CPU tests drive it with CPU
// engines: node counts at a fixed upper bound add up exactly, as between cluster workers.
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "search_engine.hpp"

namespace permbb::gpu {

class EngineGroup : public SearchEngine {
 public:
  // `members`: at least one, each built with the same instance, settings and Incumbent.
  explicit EngineGroup(std::vector<std::unique_ptr<SearchEngine>> members);

  std::string name() const override;
  // Deals the intervals to the members, cut so that each gets about the same length.
  void set_work(const std::vector<Interval>& intervals) override;
  // Runs every member's explore() on a thread of its own (the first on the caller's). A
  // member that finishes while others still explore stops them, and the remaining work is
  // dealt again, until the budget is spent, everything is explored or request_stop().
  bool explore(std::chrono::duration<double> budget) override;
  std::vector<Interval> remaining() override;
  void request_stop() override;
  EngineStats stats() const override;
  std::vector<PromotedSubproblem> sample_subproblems(int count) override;
  // Every member's records (members record alike: all or none).
  bool collect_cut(SearchCut& into) override;

  int size() const { return static_cast<int>(members_.size()); }
  SearchEngine& member(int i) { return *members_[static_cast<std::size_t>(i)]; }

 private:
  // One round: every member with work explores until `budget` ends or one of them runs dry
  // (which then pauses the others); has_work_ says afterwards who finished.
  void explore_round(std::chrono::duration<double> budget);

  std::vector<std::unique_ptr<SearchEngine>> members_;
  std::vector<char> has_work_;  // per member; char, not bool: written by the members' threads
  std::uint64_t redeals_ = 0;   // work dealt again to idle members: counted as steals
  std::atomic<bool> stop_{false};
};

}  // namespace permbb::gpu
