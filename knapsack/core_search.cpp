#include "core_search.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>

#include "cardinality_bound.hpp"
#include "decision_arena.hpp"
#include "item_table.hpp"
#include "node_bounds.hpp"
#include "one_item_completion.hpp"
#include "reachable_sums.hpp"
#include "state_list.hpp"
#include "weight_class_dp.hpp"

// The search (Pisinger 1997, minknap; Martello, Pisinger & Toth 1999, combo):
//  1. The items that fit alone, sorted by decreasing ratio (ItemTable). The capacity is
//     rounded down to a multiple of the weights' greatest common divisor (no solution weighs
//     more), and every bound to a multiple of the profits' (no solution earns more), and,
//     when every item earns at least its weight, to the capacity plus a multiple of the
//     p_i - w_i's (ProfitLattice, core_bounds.hpp). The
//     break item b is the first that does not fit when 0, 1, ... are put in; the break
//     solution (items before b) and its greedy completion give the first lower bound.
//  2. The core is an interval [s, t] of items, at first empty (s = b, t = b - 1); items before
//     s are in every state, items after t in none. Each step widens the core by one item,
//     alternately t + 1 (put in, as a copy of every state) and s - 1 (taken out, as a copy),
//     and merges the copies into the list, keeping it free of dominated states.
//  3. Before an item enters the core, its Lagrangian bound at the break item's ratio (the
//     Dembo-Hammer reduction) may show that changing it cannot beat the best profit: it stays
//     as it is and the core skips it.
//  4. Once a list is long, the capacity is lowered to a bound on the largest subset sum that
//     fits it (reachable_sums.hpp): the same feasible solutions, tighter bounds.
//  5. A state whose bound against the core's neighbours (core_bounds.hpp), or, for long lists,
//     through the subset sums of the items outside the core (reachable_sums.hpp), cannot
//     beat the best profit goes. The search ends when no state is left, or when the core
//     holds every item.
// The best solution is rebuilt from the toggles of its state (decision_arena.hpp).

namespace permbb::knapsack {
namespace {

using Clock = std::chrono::steady_clock;

std::int64_t greatest_common_divisor(const std::vector<std::int64_t>& values) {
  std::int64_t divisor = 0;
  for (const std::int64_t v : values) divisor = std::gcd(divisor, v);
  return std::max<std::int64_t>(divisor, 1);
}

// The greatest common divisor of the p_i - w_i when every item earns at least its weight
// (ProfitLattice, core_bounds.hpp); 1 otherwise, or when every p_i equals w_i.
std::int64_t excess_divisor(const std::vector<std::int64_t>& profits,
                            const std::vector<std::int64_t>& weights) {
  std::int64_t divisor = 0;
  for (std::size_t i = 0; i < profits.size(); ++i) {
    if (profits[i] < weights[i]) return 1;
    divisor = std::gcd(divisor, profits[i] - weights[i]);
  }
  return std::max<std::int64_t>(divisor, 1);
}

class CoreSearch {
 public:
  CoreSearch(const KnapsackInstance& instance, const CoreSearchOptions& options)
      : options_(options), begin_(Clock::now()), items_(instance) {}

  CoreSearchResult run();

 private:
  int count() const { return items_.count(); }
  std::optional<ItemRatio> ratio_of(int item) const;
  void start();
  void widen_core();
  bool fixed_by_bound(int item, bool put_in) const;
  bool move_item(int item, bool put_in);
  void improve_bounds(bool long_list);
  void complete_states();
  void tighten_global_bound();
  void tighten_capacity();
  void rebuild_outside_sums();
  std::int64_t sums_intervals(std::int64_t budget, std::int64_t most) const;
  void weight_class_bound();
  void record_state(std::int64_t index, int extra_item, std::int64_t profit, std::int64_t weight);
  void record_items(std::vector<int> sorted_items);
  bool within_caps(std::int64_t next_states);
  void compact_arena_when_half_dead();
  bool out_of_time() const;
  void report_progress();
  double seconds() const { return std::chrono::duration<double>(Clock::now() - begin_).count(); }

  CoreSearchOptions options_;
  Clock::time_point begin_;  // before the items are sorted: the setup time includes the sort
  ItemTable items_;
  std::vector<int> by_weight_;  // the items by weight, for the one-item completion
  double last_progress_ = 0;
  std::int64_t capacity_ = 0;
  ProfitLattice lattice_;  // what bounds are rounded to (core_bounds.hpp)
  int break_item_ = 0;
  std::int64_t break_weight_ = 0;
  std::int64_t break_profit_ = 0;
  int first_ = 0;  // s: the core's first item
  int last_ = 0;   // t: its last (last_ < first_: empty)
  bool take_out_next_ = true;
  std::string cap_reached_;  // why a cap stopped the search (within_caps); empty while none has
  std::int64_t steps_ = 0;  // merges done
  std::int64_t next_weight_class_dp_ = 0;  // list length that calls the next weight-class DP
  int capacity_passes_ = 0;  // reachable-weight bounds computed (tighten_capacity)
  std::optional<ReachableSums> outside_;  // the sums of the items outside an earlier core
  std::int64_t explored_at_outside_ = 0;  // states_explored when outside_ was built
  StateList list_;
  StateList spare_;
  DecisionArena arena_;
  std::int64_t arena_kept_ = 0;  // the arena's nodes after its last compaction
  std::int64_t lower_ = 0;
  WideSigned upper_ = 0;
  WideSigned global_upper_ = 0;  // the cardinality bound (cardinality_bound.hpp)
  std::int64_t global_upper_lower_ = -1;  // the lower bound it was computed against
  KnapsackSolution best_;
  CoreSearchStatistics statistics_;
};

std::optional<ItemRatio> CoreSearch::ratio_of(int item) const {
  if (item < 0 || item >= count()) return std::nullopt;
  return ItemRatio{items_.profits()[item], items_.weights()[item]};
}

// The break item, the break solution as the first state, and the greedy lower bound.
void CoreSearch::start() {
  statistics_.weight_divisor = greatest_common_divisor(items_.weights());
  statistics_.profit_divisor = greatest_common_divisor(items_.profits());
  statistics_.excess_divisor = excess_divisor(items_.profits(), items_.weights());
  lattice_ = ProfitLattice{statistics_.profit_divisor, statistics_.excess_divisor};
  by_weight_ = items_by_weight(items_);
  capacity_ = items_.capacity() - items_.capacity() % statistics_.weight_divisor;
  statistics_.capacity_used = capacity_;
  while (break_item_ < count() &&
         items_.weights()[break_item_] <= capacity_ - break_weight_) {
    break_weight_ += items_.weights()[break_item_];
    break_profit_ += items_.profits()[break_item_];
    ++break_item_;
  }
  std::vector<int> greedy(static_cast<std::size_t>(break_item_));
  std::iota(greedy.begin(), greedy.end(), 0);
  greedy_fill(items_.view(), break_item_ + 1, capacity_ - break_weight_,
              [&](int i) { greedy.push_back(i); });
  record_items(std::move(greedy));
  next_weight_class_dp_ = options_.weight_class_dp_min_states;
  first_ = break_item_;
  last_ = break_item_ - 1;
  list_.push(break_weight_, break_profit_, DecisionArena::kRoot);
  upper_ = state_bound(break_profit_, break_weight_, capacity_, ratio_of(break_item_),
                       ratio_of(break_item_ - 1), lattice_);
  global_upper_ = upper_;
  statistics_.dantzig_upper = clamp_bound(upper_);
  statistics_.states_upper = statistics_.dantzig_upper;
}

// The surrogate relaxation of the cardinality constraints (cardinality_bound.hpp), for long
// lists only (its search over the multiplier sorts the items some 100 times, more than short
// lists take to finish), again whenever the lower bound, behind k_min, has moved: the search
// stops once it meets the best profit.
void CoreSearch::tighten_global_bound() {
  if (!options_.cardinality_bound || global_upper_lower_ == lower_) return;
  global_upper_lower_ = lower_;
  const WideSigned bound =
      cardinality_upper_bound(items_.profits(), items_.weights(), capacity_, lower_);
  global_upper_ = std::min(
      global_upper_,
      std::max<WideSigned>(lattice_.round(bound), lower_));
  statistics_.cardinality_upper = clamp_bound(global_upper_);
}

std::int64_t CoreSearch::sums_intervals(std::int64_t budget, std::int64_t most) const {
  return std::clamp<std::int64_t>(budget / std::max(1, count()), 256, most);
}

// The capacity lowered to a bound on the largest reachable weight (reachable_sums.hpp): at the
// first long list, and again with 16 times the budget (at most 2^18 intervals) once a list
// passes kFineCapacityStates states, a sign of an instance worth the time (the joins forced by
// the interval count can hide gaps that the light items do not fill: on
// jooken,800,1e10,10,0.2,0.01,200,22 16,384 intervals see nothing below c, 2^18 bring it
// down to 9,999,244,294). No state weighs between the old and the new capacity (a state is a
// subset), so the states and the best solution stay as they are; the bounds computed from
// now on use the lower capacity, and the outside items' sums are built again for it.
void CoreSearch::tighten_capacity() {
  constexpr std::int64_t kFineCapacityStates = std::int64_t{1} << 20;
  const bool first = capacity_passes_ == 0;
  const bool fine = capacity_passes_ == 1 && list_.size() >= kFineCapacityStates;
  if (options_.reachable_sums_budget <= 0 || (!first && !fine)) return;
  ++capacity_passes_;
  const std::int64_t intervals =
      first ? sums_intervals(options_.reachable_sums_budget, 16384)
            : sums_intervals(options_.reachable_sums_budget * 16, std::int64_t{1} << 18);
  std::vector<int> all(static_cast<std::size_t>(count()));
  std::iota(all.begin(), all.end(), 0);
  const std::int64_t lower_capacity =
      ReachableSums(items_.profits(), items_.weights(), all, ItemRatio{}, capacity_, intervals)
          .largest();
  if (lower_capacity < capacity_) outside_.reset();
  capacity_ = lower_capacity;
  statistics_.capacity_used = capacity_;
}

// The sums of the items outside the core, at the break item's ratio, for the states' bound
// (MergeBounds::outside). The items outside a later core are a subset of these, so the sums
// stay valid as the core grows; rebuilt (tighter) once the merges since the last build have
// written as many states as the build takes interval steps.
void CoreSearch::rebuild_outside_sums() {
  if (options_.reachable_sums_budget <= 0 || break_item_ >= count()) return;
  std::vector<int> outside;
  for (int i = 0; i < count(); ++i) {
    if (i < first_ || i > last_) outside.push_back(i);
  }
  const std::int64_t intervals = sums_intervals(options_.reachable_sums_budget, 16384);
  const std::int64_t cost = static_cast<std::int64_t>(outside.size()) * intervals;
  if (outside_ && statistics_.states_explored - explored_at_outside_ < cost) return;
  outside_.emplace(items_.profits(), items_.weights(), outside, *ratio_of(break_item_), capacity_,
                   intervals);
  explored_at_outside_ = statistics_.states_explored;
  ++statistics_.outside_sums_builds;
}

// The Lagrangian bound at the break item's ratio r with the item changed: put in (an item past
// the break item) or taken out (one before it). Every other item's term vanishes at r.
bool CoreSearch::fixed_by_bound(int item, bool put_in) const {
  if (break_item_ >= count()) return false;
  const std::int64_t sign = put_in ? 1 : -1;
  const WideSigned bound =
      lagrangian_bound(break_profit_ + sign * items_.profits()[item],
                       break_weight_ + sign * items_.weights()[item], capacity_,
                       *ratio_of(break_item_));
  return lattice_.round_lagrangian(bound, capacity_) <= lower_;
}

// False when the time ran out during the merge, or a cap stops it before: the list is as it
// was.
bool CoreSearch::move_item(int item, bool put_in) {
  const std::int64_t sign = put_in ? 1 : -1;
  const CoreMove move{item, sign * items_.weights()[item], sign * items_.profits()[item]};
  MergeBounds bounds{capacity_, ratio_of(last_ + 1), ratio_of(first_ - 1), lower_};
  bounds.lattice = lattice_;
  if (outside_) {
    bounds.outside = &*outside_;
    bounds.fixed_weight = items_.prefix_sums().weight_before[first_];
    bounds.fixed_profit = items_.prefix_sums().profit_before[first_];
  }
  if (!within_caps(2 * list_.size())) return false;
  const bool elsewhere = options_.merger != nullptr && list_.size() >= options_.merger_min_states;
  const MergeStop stop = [this] { return out_of_time(); };
  const MergeOutcome outcome =
      elsewhere ? options_.merger->merge(list_, move, bounds, arena_, spare_, stop)
                : merge_with_move(list_, move, bounds, arena_, spare_, stop);
  if (elsewhere) ++statistics_.merger_merges;
  if (outcome.interrupted) return false;
  std::swap(list_, spare_);
  statistics_.states_explored += list_.size();
  statistics_.states_dominated += outcome.dominated;
  statistics_.states_fathomed += outcome.fathomed;
  statistics_.largest_list = std::max(statistics_.largest_list, list_.size());
  if (outcome.best >= 0) {
    record_state(outcome.best, -1, list_.profit[outcome.best], list_.weight[outcome.best]);
  }
  ++steps_;
  const bool power_of_two = (steps_ & (steps_ - 1)) == 0;
  const bool long_list =
      list_.size() >= std::max<std::int64_t>(options_.completion_min_states, count());
  // Once the time is up the search ends after this step: the one-item completion and the
  // arena's compaction, each a pass over tens of millions of states on the longest lists,
  // would only make the time limit late.
  if ((long_list || power_of_two) && !out_of_time()) complete_states();
  improve_bounds(long_list);
  upper_ = std::max<WideSigned>(std::min<WideSigned>(outcome.upper, global_upper_), lower_);
  statistics_.states_upper = outcome.upper;
  compact_arena_when_half_dead();
  return true;
}

// A compaction walks every state's chain of decisions (a cache miss a node on long lists),
// so it runs once the arena has at least doubled since the last one left it: at most one
// walk per node made, whatever the list's length. Compacting whenever the arena passed twice
// the list's length ran at nearly every step, since the chains the states keep hold more
// nodes than the list has states: half of a long search's time (docs/knapsack.md).
void CoreSearch::compact_arena_when_half_dead() {
  if (arena_.size() <= 2 * arena_kept_ + (std::int64_t{1} << 20) || out_of_time()) return;
  arena_.compact(list_.node);
  arena_kept_ = arena_.size();
}

// The costlier bounds of a long list, each a fraction of a second there: skipped once the
// time is up, so that a time limit holds to within one of them.
void CoreSearch::improve_bounds(bool long_list) {
  if (options_.weight_class_dp_min_states > 0 && list_.size() >= next_weight_class_dp_ &&
      !out_of_time()) {
    weight_class_bound();
  }
  if (!long_list) return;
  if (!out_of_time()) tighten_capacity();
  if (!out_of_time()) rebuild_outside_sums();
  if (!out_of_time()) tighten_global_bound();
}

// One step: the next item on the side whose turn it is (the other when one side is used up),
// moved into the core, and into the states unless its bound fixes it where it is.
void CoreSearch::widen_core() {
  const bool take_out = first_ > 0 && (take_out_next_ || last_ + 1 >= count());
  const int first = first_;
  const int last = last_;
  const int item = take_out ? --first_ : ++last_;
  if (fixed_by_bound(item, !take_out)) {
    ++statistics_.items_fixed;
  } else if (!move_item(item, !take_out)) {
    first_ = first;  // out of time or past a cap: the core stays as it was
    last_ = last;
    return;
  }
  take_out_next_ = !take_out;
  ++statistics_.core_size;
}

// A better lower bound from the states and one item outside the core each
// (one_item_completion.hpp): worth building its tables (O(n log n)) after every step only once
// the list is at least as long as the items are many.
void CoreSearch::complete_states() {
  const Completion found =
      OneItemCompletion(items_, by_weight_, first_, last_).best(list_, capacity_, lower_);
  if (found.state < 0) return;
  ++statistics_.completions;
  record_state(found.state, found.item, found.profit, found.weight);
}

// Long lists call the weight-class dynamic program (weight_class_dp.hpp) for a lower bound
// from items anywhere in the order, not only the core's: at weight_class_dp_min_states
// states, then at 16 times as many, with 4 times as many classes each time, within
// weight_class_dp_bytes of decision bits.
void CoreSearch::weight_class_bound() {
  const int run = statistics_.weight_class_dp_runs++;
  next_weight_class_dp_ = list_.size() * 16;
  const std::int64_t bits = options_.weight_class_dp_bytes * 8 / std::max(1, count());
  const std::int64_t classes = std::min<std::int64_t>(bits >> (4 - std::min(run, 2) * 2), bits);
  std::vector<int> items =
      weight_class_solution(items_, capacity_, std::max<std::int64_t>(classes, 1),
                            [this] { return out_of_time(); });
  std::int64_t value = 0;
  for (const int i : items) value += items_.profits()[i];
  if (value > lower_) record_items(std::move(items));
}

// The items of state `index` (the break solution with its toggles), with `extra_item` toggled
// too when it is not -1; `profit` and `weight` are what they must add up to.
void CoreSearch::record_state(std::int64_t index, int extra_item, std::int64_t profit,
                              std::int64_t weight) {
  std::vector<int> taken(static_cast<std::size_t>(break_item_));
  std::iota(taken.begin(), taken.end(), 0);
  std::vector<int> toggled = arena_.toggled(list_.node[index]);
  if (extra_item >= 0) toggled.push_back(extra_item);
  for (const int item : toggled) {
    if (item < break_item_) {
      taken[static_cast<std::size_t>(item)] = -1;
    } else {
      taken.push_back(item);
    }
  }
  taken.erase(std::remove(taken.begin(), taken.end(), -1), taken.end());
  record_items(std::move(taken));
  if (best_.value != profit || best_.weight != weight || weight > capacity_) {
    throw std::logic_error("knapsack core: a state's toggles disagree with its weight/profit");
  }
}

void CoreSearch::record_items(std::vector<int> sorted_items) {
  best_ = KnapsackSolution{};
  for (const int i : sorted_items) {
    best_.value += items_.profits()[i];
    best_.weight += items_.weights()[i];
    best_.items.push_back(items_.original_index(i));
  }
  std::sort(best_.items.begin(), best_.items.end());
  lower_ = best_.value;
}

// Checked before each merge, for the most it may take: a list twice as long beside the
// current one, and one new arena node per moved state. Past a cap the search stops as at its
// time limit (the best solution and the bound kept), and cap_reached_ says why.
bool CoreSearch::within_caps(std::int64_t next_states) {
  constexpr std::int64_t kStateBytes = 3 * sizeof(std::int64_t);
  constexpr std::int64_t kNodeBytes = sizeof(std::int64_t) + sizeof(std::int32_t);
  const std::int64_t bytes = list_.bytes() + std::max(spare_.bytes(), next_states * kStateBytes) +
                             arena_.bytes() + list_.size() * kNodeBytes;
  const bool over_memory = options_.max_memory_bytes > 0 && bytes > options_.max_memory_bytes;
  const bool over_states = options_.max_states > 0 && next_states > options_.max_states;
  if (!over_memory && !over_states) return true;
  cap_reached_ =
      "the next state list may reach " + std::to_string(next_states) + " states (" +
      std::to_string(bytes >> 20) + " MiB with its decisions), over the " +
      (over_memory ? "memory cap of " + std::to_string(options_.max_memory_bytes >> 20) + " MiB"
                   : "cap of " + std::to_string(options_.max_states) + " states") +
      ", with a core of " + std::to_string(statistics_.core_size) + " items";
  return false;
}

bool CoreSearch::out_of_time() const {
  if (options_.stop != nullptr && options_.stop->load(std::memory_order_relaxed)) return true;
  return options_.time_limit_seconds > 0 && seconds() >= options_.time_limit_seconds;
}

void CoreSearch::report_progress() {
  if (options_.progress_seconds <= 0 || !options_.on_progress) return;
  const double now = seconds();
  if (now - last_progress_ < options_.progress_seconds) return;
  last_progress_ = now;
  options_.on_progress({now, statistics_.core_size, count(), list_.size(), lower_,
                        clamp_bound(upper_)});
}

CoreSearchResult CoreSearch::run() {
  CoreSearchResult result;
  start();
  result.setup_seconds = seconds();
  while (!list_.empty() && upper_ > lower_ && (first_ > 0 || last_ + 1 < count())) {
    if (out_of_time() || !cap_reached_.empty()) {
      result.complete = false;
      break;
    }
    widen_core();
    report_progress();
  }
  result.stopped_because = cap_reached_;
  result.solution = best_;
  result.upper_bound = result.complete ? lower_ : clamp_bound(upper_);
  result.statistics = statistics_;
  return result;
}

}  // namespace

CoreSearchResult solve_core(const KnapsackInstance& instance, const CoreSearchOptions& options) {
  validate_instance(instance);
  return CoreSearch(instance, options).run();
}

}  // namespace permbb::knapsack
