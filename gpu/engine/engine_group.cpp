#include "engine_group.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "work_split.hpp"

namespace permbb::gpu {
namespace {

using Clock = std::chrono::steady_clock;

void sort_by_begin(std::vector<Interval>& intervals) {
  std::sort(intervals.begin(), intervals.end(),
            [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
}

// The member each interval goes to: largest first, each to the member with the least length
// so far (longest-processing-time dealing), so that lengths end up about equal.
std::vector<std::vector<Interval>> deal(std::vector<Interval> intervals, int members) {
  std::vector<std::vector<Interval>> dealt(static_cast<std::size_t>(members));
  std::sort(intervals.begin(), intervals.end(), [](const Interval& a, const Interval& b) {
    return a.length() > b.length();
  });
  std::vector<mpz_class> load(static_cast<std::size_t>(members), 0);
  for (Interval& interval : intervals) {
    const auto least = std::min_element(load.begin(), load.end()) - load.begin();
    load[static_cast<std::size_t>(least)] += interval.length();
    dealt[static_cast<std::size_t>(least)].push_back(std::move(interval));
  }
  for (auto& list : dealt) sort_by_begin(list);
  return dealt;
}

}  // namespace

EngineGroup::EngineGroup(std::vector<std::unique_ptr<SearchEngine>> members)
    : members_(std::move(members)), has_work_(members_.size(), 0) {
  if (members_.empty()) throw std::invalid_argument("an engine group needs a member");
}

std::string EngineGroup::name() const { return members_.front()->name(); }

void EngineGroup::set_work(const std::vector<Interval>& intervals) {
  std::vector<Interval> work;
  for (const Interval& interval : intervals) {
    if (!interval.empty()) work.push_back(interval);
  }
  // Fewer intervals than members: cut them, so that every member gets a piece.
  if (work.size() < members_.size()) work = split_intervals(work, size());
  const auto dealt = deal(std::move(work), size());
  for (int i = 0; i < size(); ++i) {
    const auto& mine = dealt[static_cast<std::size_t>(i)];
    members_[static_cast<std::size_t>(i)]->set_work(mine);
    has_work_[static_cast<std::size_t>(i)] = mine.empty() ? 0 : 1;
  }
}

bool EngineGroup::explore(std::chrono::duration<double> budget) {
  stop_.store(false);
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(budget);
  const auto busy = [this] {
    return static_cast<int>(std::count(has_work_.begin(), has_work_.end(), 1));
  };
  while (true) {
    // An idle member gets a share of the others' work (they are paused here).
    if (busy() > 0 && busy() < size()) {
      set_work(remaining());
      ++redeals_;
    }
    if (busy() == 0) return true;
    if (stop_.load()) return false;
    explore_round(std::chrono::duration<double>(deadline - Clock::now()));
    if (busy() == 0) return true;
    if (stop_.load() || Clock::now() >= deadline) return false;
  }
}

void EngineGroup::explore_round(std::chrono::duration<double> budget) {
  const auto run = [this, budget](std::size_t i) {
    if (!members_[i]->explore(budget)) return;
    has_work_[i] = 0;
    // It ran dry: the others pause, so that the work is dealt again.
    for (std::size_t j = 0; j < members_.size(); ++j) {
      if (j != i) members_[j]->request_stop();
    }
  };
  std::vector<std::thread> threads;
  std::size_t first = members_.size();
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (!has_work_[i]) continue;
    if (first == members_.size()) {
      first = i;  // explores on this thread, after the others have started
    } else {
      threads.emplace_back(run, i);
    }
  }
  if (first < members_.size()) run(first);
  for (auto& thread : threads) thread.join();
}

std::vector<Interval> EngineGroup::remaining() {
  std::vector<Interval> out;
  for (auto& member : members_) {
    auto part = member->remaining();
    out.insert(out.end(), std::make_move_iterator(part.begin()),
               std::make_move_iterator(part.end()));
  }
  sort_by_begin(out);
  return out;
}

void EngineGroup::request_stop() {
  stop_.store(true);
  for (auto& member : members_) member->request_stop();
}

EngineStats EngineGroup::stats() const {
  EngineStats total;
  total.steals = redeals_;
  for (const auto& member : members_) {
    const EngineStats s = member->stats();
    total.nodes += s.nodes;
    total.steals += s.steals;
    total.explorers += s.explorers;
    total.active_explorers += s.active_explorers;
  }
  return total;
}

std::vector<PromotedSubproblem> EngineGroup::sample_subproblems(int count) {
  std::vector<PromotedSubproblem> out;
  for (int i = 0; i < size() && static_cast<int>(out.size()) < count; ++i) {
    const int share = (count - static_cast<int>(out.size()) + size() - i - 1) / (size() - i);
    auto part = members_[static_cast<std::size_t>(i)]->sample_subproblems(share);
    out.insert(out.end(), std::make_move_iterator(part.begin()),
               std::make_move_iterator(part.end()));
  }
  return out;
}

bool EngineGroup::collect_cut(SearchCut& into) {
  bool recorded = false;
  for (auto& member : members_) recorded = member->collect_cut(into) || recorded;
  return recorded;
}

}  // namespace permbb::gpu
