#include "group_search.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "base_sum_intervals.hpp"
#include "input_error.hpp"
#include "weight_groups.hpp"
#include "wide_arithmetic.hpp"

namespace permbb::knapsack {
namespace {

using Clock = std::chrono::steady_clock;

// Bounds are sums of a capacity and profits, each below 2^63: added in 128 bits.
__extension__ typedef __int128 WideBound;

// A first solution: the items by decreasing profit per weight, each taken when it fits. Its
// own, not the item table's greedy fill: the group search shares no code with the methods
// whose optima it confirms.
KnapsackSolution greedy_solution(const KnapsackInstance& instance) {
  std::vector<int> order(static_cast<std::size_t>(instance.items()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return static_cast<WideUnsigned>(instance.profits[a]) * instance.weights[b] >
           static_cast<WideUnsigned>(instance.profits[b]) * instance.weights[a];
  });
  KnapsackSolution s;
  for (const int i : order) {
    if (instance.weights[i] > instance.capacity - s.weight) continue;
    s.weight += instance.weights[i];
    s.value += instance.profits[i];
    s.items.push_back(i);
  }
  std::sort(s.items.begin(), s.items.end());
  return s;
}

// How a whole count vector's room is shared: the extra weight each group and the light
// items may use, and the extra profit that earns.
struct Shares {
  std::int64_t profit = kNoProfit;
  std::int64_t light = 0;
  std::vector<std::int64_t> group;
};

class GroupSearch {
 public:
  GroupSearch(const KnapsackInstance& instance, const GroupSearchOptions& options)
      : instance_(instance), options_(options), begin_(Clock::now()),
        groups_(make_weight_groups(instance, options.span, options.max_table_cells)) {}

  GroupSearchResult run();

 private:
  std::int64_t capacity() const { return instance_.capacity; }
  int group_count() const { return static_cast<int>(groups_.groups.size()); }
  std::int64_t target() const { return std::max(options_.at_least, best_.value + 1); }
  void prepare_rest_bounds();
  void descend(int j, std::int64_t base_sum, std::int64_t top_profit, std::int64_t least_weight,
               std::int64_t top_excess);
  void settle(std::int64_t base_sum, std::int64_t top_excess);
  Shares share_exactly(std::int64_t room);
  void record(std::int64_t base_sum, const Shares& shares);
  bool out_of_time();

  const KnapsackInstance& instance_;
  GroupSearchOptions options_;
  Clock::time_point begin_;
  WeightGroups groups_;
  std::vector<BaseSumIntervals> rest_sums_;  // [j]: the base sums of groups j, j + 1, ...
  std::vector<std::int64_t> rest_top_;       // [j]: their largest extra profits, added
  std::vector<std::int64_t> rest_excess_;    // [j]: their largest excesses, and the light's
  std::vector<int> counts_;                  // the items each group gives, on the way down
  KnapsackSolution best_;
  GroupSearchResult result_;
  bool stopped_ = false;
  double last_progress_ = 0;
};

void GroupSearch::prepare_rest_bounds() {
  const int m = group_count();
  rest_sums_.assign(static_cast<std::size_t>(m) + 1, BaseSumIntervals());
  rest_top_.assign(static_cast<std::size_t>(m) + 1, 0);
  rest_excess_.assign(static_cast<std::size_t>(m) + 1, groups_.light.positive_excess);
  for (int j = m - 1; j >= 0; --j) {
    const WeightGroup& g = groups_.groups[j];
    rest_sums_[j] = rest_sums_[j + 1].plus(g.base, g.most_taken, capacity(),
                                           options_.max_intervals);
    rest_top_[j] = rest_top_[j + 1] + *std::max_element(g.top_profit.begin(), g.top_profit.end());
    rest_excess_[j] =
        rest_excess_[j + 1] + *std::max_element(g.top_excess.begin(), g.top_excess.end());
  }
}

// Asked at every node and between two groups of an exact sharing: a node costs a
// microsecond or more, a sharing up to milliseconds, the clock some 20 ns.
bool GroupSearch::out_of_time() {
  if (stopped_) return true;
  const bool signalled =
      options_.stop != nullptr && options_.stop->load(std::memory_order_relaxed);
  const double seconds = std::chrono::duration<double>(Clock::now() - begin_).count();
  const double limit = options_.time_limit_seconds;
  stopped_ = signalled || (limit > 0 && seconds >= limit);
  if (options_.on_progress && options_.progress_seconds > 0 &&
      seconds - last_progress_ >= options_.progress_seconds) {
    last_progress_ = seconds;
    options_.on_progress({seconds, result_.nodes, result_.leaves, best_.value});
  }
  return stopped_;
}

// Groups 0..j-1 give counts_[0..j-1] items, with bases adding up to base_sum; top_profit and
// least_weight are their k largest extra profits and k smallest extra weights, added. Each
// count of group j whose bound reaches the target is tried, the largest first.
void GroupSearch::descend(int j, std::int64_t base_sum, std::int64_t top_profit,
                          std::int64_t least_weight, std::int64_t top_excess) {
  if (out_of_time()) return;
  ++result_.nodes;
  if (j == group_count()) {
    settle(base_sum, top_excess);
    return;
  }
  const WeightGroup& g = groups_.groups[j];
  for (int k = g.most_taken; k >= 0 && !stopped_; --k) {
    const std::int64_t bases = base_sum + k * g.base;
    const std::int64_t least = least_weight + g.least_weight[k];
    if (bases > capacity() - least) continue;
    const std::int64_t room = capacity() - bases - least;
    const WideBound by_sums = WideBound{bases} + rest_sums_[j + 1].largest_at_most(room) +
                              top_profit + g.top_profit[k] + rest_top_[j + 1] +
                              groups_.light.best_within(room);
    const WideBound by_excess =
        WideBound{capacity()} + top_excess + g.top_excess[k] + rest_excess_[j + 1];
    if (std::min(by_sums, by_excess) < target()) continue;
    counts_[j] = k;
    descend(j + 1, bases, top_profit + g.top_profit[k], least, top_excess + g.top_excess[k]);
  }
}

// A whole count vector: the room its bases leave, shared out. Each group's best within the
// whole room first (a bound); the exact sharing only when that reaches the target.
void GroupSearch::settle(std::int64_t base_sum, std::int64_t top_excess) {
  if (WideBound{capacity()} + top_excess + groups_.light.positive_excess < target()) return;
  const std::int64_t room = capacity() - base_sum;
  WideBound bound = groups_.light.best_within(room);
  for (int j = 0; j < group_count(); ++j) {
    const std::int64_t best = groups_.groups[j].best_within(counts_[j], room);
    if (best == kNoProfit) return;
    bound += best;
  }
  if (WideBound{base_sum} + bound < target()) return;
  ++result_.leaves;
  const Shares shares = share_exactly(room);
  if (shares.profit != kNoProfit && base_sum + shares.profit >= target()) {
    record(base_sum, shares);
  }
}

// The light items' table, then each group's row, joined by a max-plus convolution up to the
// room; when the room holds every extra weight at once, each part takes its whole row.
Shares GroupSearch::share_exactly(std::int64_t room) {
  const int m = group_count();
  Shares shares;
  shares.group.assign(static_cast<std::size_t>(m), 0);
  std::int64_t widest = groups_.light.most_weight();
  for (int j = 0; j < m; ++j) widest += groups_.groups[j].row_length(counts_[j]) - 1;
  if (room >= widest) {
    shares.light = groups_.light.most_weight();
    shares.profit = groups_.light.best_within(room);
    for (int j = 0; j < m; ++j) {
      shares.group[j] = groups_.groups[j].row_length(counts_[j]) - 1;
      shares.profit += groups_.groups[j].best_within(counts_[j], room);
    }
    return shares;
  }
  const std::int64_t limit = room;
  std::vector<std::int64_t> joined(static_cast<std::size_t>(limit) + 1);
  for (std::int64_t x = 0; x <= limit; ++x) joined[x] = groups_.light.best_within(x);
  std::vector<std::vector<std::int64_t>> given(static_cast<std::size_t>(m));
  for (int j = 0; j < m; ++j) {
    if (out_of_time()) return shares;  // no profit: the search stops undecided
    const WeightGroup& g = groups_.groups[j];
    const std::int64_t length = g.row_length(counts_[j]);
    const std::int64_t* row = &g.table[g.row_start[counts_[j]]];  // best_within for y < length
    std::vector<std::int64_t> next(joined.size(), kNoProfit);
    given[j].assign(joined.size(), 0);
    for (std::int64_t x = 0; x <= limit; ++x) {
      for (std::int64_t y = 0; y < length && y <= x; ++y) {
        const std::int64_t before = joined[x - y];
        const std::int64_t own = row[y];
        if (before == kNoProfit || own == kNoProfit || before + own <= next[x]) continue;
        next[x] = before + own;
        given[j][x] = y;
      }
    }
    joined.swap(next);
  }
  shares.profit = joined[limit];
  std::int64_t x = limit;
  for (int j = m - 1; j >= 0; --j) {
    shares.group[j] = given[j][x];
    x -= given[j][x];
  }
  shares.light = std::min(x, groups_.light.most_weight());
  return shares;
}

// The items behind a sharing: each part's best subset within its share.
void GroupSearch::record(std::int64_t base_sum, const Shares& shares) {
  KnapsackSolution s;
  const LightItems& light = groups_.light;
  for (const int at : best_subset_within(light.profit, light.weight, -1, shares.light,
                                         light.best_within(shares.light))) {
    s.items.push_back(light.items[at]);
  }
  for (int j = 0; j < group_count(); ++j) {
    const WeightGroup& g = groups_.groups[j];
    const std::int64_t share = shares.group[j];
    for (const int at : best_subset_within(g.extra_profit, g.extra_weight, counts_[j], share,
                                           g.best_within(counts_[j], share))) {
      s.items.push_back(g.items[at]);
    }
  }
  std::sort(s.items.begin(), s.items.end());
  for (const int i : s.items) {
    s.value += instance_.profits[i];
    s.weight += instance_.weights[i];
  }
  if (s.value != base_sum + shares.profit || s.weight > capacity()) {
    throw std::logic_error("knapsack groups: a count vector's items are worth " +
                           std::to_string(s.value) + ", its sharing says " +
                           std::to_string(base_sum + shares.profit));
  }
  best_ = std::move(s);
}

GroupSearchResult GroupSearch::run() {
  if (group_count() > options_.max_groups) {
    throw InputError(instance_.name + ": the items fall into " + std::to_string(group_count()) +
                     " groups of nearly equal weight, more than the group search takes (" +
                     std::to_string(options_.max_groups) + ")");
  }
  result_.groups = group_count();
  result_.light_items = static_cast<int>(groups_.light.items.size());
  result_.table_cells = groups_.cells;
  best_ = greedy_solution(instance_);
  prepare_rest_bounds();
  counts_.assign(static_cast<std::size_t>(group_count()), 0);
  descend(0, 0, 0, 0, 0);
  result_.complete = !stopped_;
  result_.none_at_least = result_.complete && best_.value < options_.at_least;
  result_.solution = best_;
  return result_;
}

}  // namespace

GroupSearchResult solve_by_groups(const KnapsackInstance& instance,
                                  const GroupSearchOptions& options) {
  validate_instance(instance);
  return GroupSearch(instance, options).run();
}

}  // namespace permbb::knapsack
