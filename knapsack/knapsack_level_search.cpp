// The level loop: which backend holds the list, when a list is cut, and the best solution.
//
// Switching (Lalami & El Baz 2012, §III.B): before each level the list goes where its size
// says, the large backend (GPU) from switch_threshold nodes on, the small one (CPU) below, so
// the GPU is used only when a level gives it enough nodes to hide its launch and transfer
// costs, and the search moves back and forth as the list grows and shrinks.
//
// Memory cap (not in the paper, whose lists were bounded by its instances): a level of q nodes
// needs 2q slots. When 2q exceeds the level's cap E, the list is cut: its first E / 2 nodes go
// on, and the others are set aside on a stack of (level, sub-list), in host memory. When the
// working list empties, the most recent sub-list is resumed at its own level, its nodes with
// U <= the best L dropped first. The sub-lists are thus explored depth-first: set-aside levels
// increase from the bottom of the stack to its top (at most one sub-list per level).
// Subtrees are independent and share only the best lower bound, so the optimum is the same;
// the node count may differ from an uncut search, as sub-lists resumed later meet a better
// bound.
//
// The cap E bounds both memories. The working list never exceeds E <= max_list_nodes slots.
// The set-aside total S stays below max_set_aside_nodes = B (plus 2 per level), because E
// shrinks as S grows: at level k, with R = count - k levels left,
//   E_k = clamp((B - S_k) / (2 R), 2, max_list_nodes).
// A cut at level k sets aside fewer than q_k <= E_{k-1} nodes (the list grew from at most
// E_{k-1} / 2 nodes), so with D = B - S: D_{k+1} >= D_k - D_{k-1} / (2 R_{k-1}), and by
// induction D_{k+1} >= D_k (1 - 1 / R_k): along a path from level k0, D stays above
// D_k0 * R / R_k0 > 0 until the last level. Resuming a sub-list only returns memory to D.
// The price: even with nothing set aside, a level's list is at most B / (4 R) nodes, so B
// must be large for the long lists a GPU likes (by default a quarter of the host's memory).
//
// The solution: when a level improves the best L, its witness node is copied out and its
// solution rebuilt at once (solution_of_node), so pruning that node later (U <= best L)
// loses nothing.
#include "knapsack_level_search.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <utility>

#include "host_list_backend.hpp"

namespace permbb::knapsack {
namespace {

class LevelSearch {
 public:
  LevelSearch(const ItemTable& items, LevelListBackend& small, LevelListBackend* large,
              const LevelSearchOptions& options)
      : items_(items), small_(small), large_(large), options_(options), current_(&small) {}

  LevelSearchResult run() {
    NodeList root = root_list(items_);
    improve(root.record(0));
    // Below at_least a node is dropped as if a solution of at_least - 1 were known.
    best_lower_ = std::max(best_lower_, options_.at_least - 1);
    root.retain_above(best_lower_);
    small_.assign(std::move(root));
    while (current_->size() > 0 || resume_set_aside()) {
      if (out_of_time()) return {solution_, false, false, statistics_};
      report_if_due();
      set_aside_overflow();
      place_list();
      step();
    }
    const bool none_at_least = options_.at_least > 0 && solution_.value < options_.at_least;
    return {solution_, true, none_at_least, statistics_};
  }

 private:
  struct SetAside {
    int level;
    NodeList nodes;
  };

  double elapsed_seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  bool out_of_time() const {
    if (options_.stop != nullptr && options_.stop->load(std::memory_order_relaxed)) return true;
    return options_.time_limit_seconds > 0 && elapsed_seconds() >= options_.time_limit_seconds;
  }

  void report_if_due() {
    if (options_.progress_seconds <= 0 || !options_.on_progress) return;
    const double now = elapsed_seconds();
    if (now < next_report_) return;
    next_report_ = now + options_.progress_seconds;
    options_.on_progress({now, level_, items_.count(), current_->size(), set_aside_nodes_,
                          best_lower_, statistics_.nodes_explored});
  }

  void improve(const NodeRecord& witness) {
    best_lower_ = witness.lower;
    solution_ = solution_of_node(items_, witness);
  }

  LevelListBackend& backend_for(std::int64_t nodes) const {
    return large_ != nullptr && nodes >= options_.switch_threshold ? *large_ : small_;
  }

  // The most recent sub-list with a node left, onto the backend its size calls for.
  bool resume_set_aside() {
    while (!set_aside_.empty()) {
      SetAside next = std::move(set_aside_.back());
      set_aside_.pop_back();
      set_aside_nodes_ -= next.nodes.size();
      next.nodes.retain_above(best_lower_);
      if (next.nodes.empty()) continue;
      level_ = next.level;
      LevelListBackend& target = backend_for(next.nodes.size());
      if (&target != current_) ++statistics_.switches;
      current_ = &target;
      current_->assign(std::move(next.nodes));
      return true;
    }
    return false;
  }

  // E_k of the comment at the top.
  std::int64_t level_cap() const {
    const std::int64_t room = options_.max_set_aside_nodes - set_aside_nodes_;
    const std::int64_t levels_left = std::max(1, items_.count() - level_);
    return std::clamp<std::int64_t>(room / (2 * levels_left), 2, options_.max_list_nodes);
  }

  void set_aside_overflow() {
    const std::int64_t cap = level_cap();
    if (2 * current_->size() <= cap) return;
    NodeList tail = current_->split_tail(cap / 2);
    set_aside_nodes_ += tail.size();
    statistics_.largest_set_aside = std::max(statistics_.largest_set_aside, set_aside_nodes_);
    set_aside_.push_back({level_, std::move(tail)});
    ++statistics_.splits;
  }

  void place_list() {
    LevelListBackend& target = backend_for(current_->size());
    if (&target == current_) return;
    target.assign(current_->release());
    current_ = &target;
    ++statistics_.switches;
  }

  void step() {
    if (level_ >= items_.count()) {
      throw std::logic_error("knapsack: nodes left after the last item's level");
    }
    const std::int64_t q = current_->size();
    statistics_.nodes_explored += static_cast<std::uint64_t>(q);
    statistics_.largest_list = std::max(statistics_.largest_list, q);
    ++(current_ == &small_ ? statistics_.levels_small : statistics_.levels_large);
    LevelOutcome outcome = current_->step(level_, best_lower_);
    if (outcome.witness) improve(*outcome.witness);
    ++level_;
    if (options_.remove_dominated) {
      statistics_.nodes_dominated += static_cast<std::uint64_t>(
          current_->remove_dominated(items_.prefix_sums(), level_));
    }
  }

  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  const ItemTable& items_;
  LevelListBackend& small_;
  LevelListBackend* large_;
  LevelSearchOptions options_;
  LevelListBackend* current_;
  int level_ = 0;
  std::vector<SetAside> set_aside_;
  std::int64_t set_aside_nodes_ = 0;  // S
  std::int64_t best_lower_ = 0;
  double next_report_ = options_.progress_seconds;  // seconds since the start
  KnapsackSolution solution_;
  LevelSearchStatistics statistics_;
};

}  // namespace

LevelSearchResult run_level_search(const ItemTable& items, LevelListBackend& small,
                                   LevelListBackend* large, const LevelSearchOptions& options) {
  if (options.switch_threshold < 1) {
    throw std::invalid_argument("switch threshold must be at least 1");
  }
  if (options.max_list_nodes < 2) {
    throw std::invalid_argument("the list needs room for at least 2 nodes");
  }
  if (options.max_set_aside_nodes < 0) {
    throw std::invalid_argument("the set-aside budget must not be negative");
  }
  if (!(options.time_limit_seconds >= 0)) {
    throw std::invalid_argument("the time limit must not be negative");
  }
  return LevelSearch(items, small, large, options).run();
}

LevelSearchResult solve_on_cpu(const KnapsackInstance& instance,
                               const LevelSearchOptions& options) {
  const ItemTable items(instance);
  HostListBackend cpu(items);
  return run_level_search(items, cpu, nullptr, options);
}

}  // namespace permbb::knapsack
