#include "weight_groups.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <string>

#include "input_error.hpp"

namespace permbb::knapsack {
namespace {

// The items that fit, lightest first (ties by index), cut where a weight passes its run's
// lightest by more than `span`.
std::vector<std::vector<int>> runs_by_weight(const KnapsackInstance& instance,
                                             std::int64_t span) {
  std::vector<int> order;
  for (int i = 0; i < instance.items(); ++i) {
    if (instance.weights[i] <= instance.capacity) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return instance.weights[a] < instance.weights[b]; });
  std::vector<std::vector<int>> runs;
  for (const int i : order) {
    if (runs.empty() || instance.weights[i] - instance.weights[runs.back().front()] > span) {
      runs.emplace_back();
    }
    runs.back().push_back(i);
  }
  return runs;
}

// Sums of the k first of `values` sorted by `order`, k = 0..count.
template <class Order>
std::vector<std::int64_t> prefix_sums_sorted(std::vector<std::int64_t> values, int count,
                                             Order order) {
  std::sort(values.begin(), values.end(), order);
  std::vector<std::int64_t> sums(static_cast<std::size_t>(count) + 1, 0);
  for (int k = 0; k < count; ++k) sums[k + 1] = sums[k] + values[k];
  return sums;
}

WeightGroup describe_group(const KnapsackInstance& instance, const std::vector<int>& run) {
  WeightGroup g;
  g.items = run;
  g.base = instance.weights[run.front()];
  for (const int i : run) {
    g.extra_weight.push_back(instance.weights[i] - g.base);
    g.extra_profit.push_back(instance.profits[i] - g.base);
    g.span = std::max(g.span, g.extra_weight.back());
  }
  const int n = static_cast<int>(run.size());
  g.least_weight = prefix_sums_sorted(g.extra_weight, n, std::less<>());
  g.top_profit = prefix_sums_sorted(g.extra_profit, n, std::greater<>());
  std::vector<std::int64_t> excess;
  for (int i = 0; i < n; ++i) excess.push_back(g.extra_profit[i] - g.extra_weight[i]);
  g.top_excess = prefix_sums_sorted(excess, n, std::greater<>());
  while (g.most_taken < n &&
         (g.most_taken + 1) * g.base + g.least_weight[g.most_taken + 1] <= instance.capacity) {
    ++g.most_taken;
  }
  g.least_weight.resize(static_cast<std::size_t>(g.most_taken) + 1);
  g.top_profit.resize(static_cast<std::size_t>(g.most_taken) + 1);
  g.top_excess.resize(static_cast<std::size_t>(g.most_taken) + 1);
  return g;
}

// The decision bits best_subset_within takes to rebuild a part's items: at most these.
double rebuild_bits(const WeightGroup& g) {
  const double k = g.most_taken;
  return static_cast<double>(g.items.size()) * (k + 1) * (k * static_cast<double>(g.span) + 1);
}

std::int64_t table_cells(const WeightGroup& g) {
  const std::int64_t k = g.most_taken;
  return (k + 1) + g.span * k * (k + 1) / 2;
}

// Row k of the table: the most extra profit of exactly k of the items seen so far whose
// extra weights add up to at most the column (kNoProfit: none).
void fill_group_table(WeightGroup& g) {
  g.row_start.assign(static_cast<std::size_t>(g.most_taken) + 2, 0);
  for (int k = 0; k <= g.most_taken; ++k) g.row_start[k + 1] = g.row_start[k] + g.row_length(k);
  g.table.assign(static_cast<std::size_t>(g.row_start.back()), kNoProfit);
  g.table[0] = 0;
  int seen = 0;
  for (std::size_t i = 0; i < g.items.size(); ++i) {
    const std::int64_t w = g.extra_weight[i];
    const std::int64_t p = g.extra_profit[i];
    seen = std::min(seen + 1, g.most_taken);
    for (int k = seen; k >= 1; --k) {
      std::int64_t* row = &g.table[g.row_start[k]];
      const std::int64_t* below = &g.table[g.row_start[k - 1]];
      const std::int64_t below_last = g.row_length(k - 1) - 1;
      for (std::int64_t room = g.row_length(k) - 1; room >= w; --room) {
        const std::int64_t from = below[std::min(room - w, below_last)];
        if (from != kNoProfit) row[room] = std::max(row[room], from + p);
      }
    }
  }
}

void fill_light_table(LightItems& light, std::int64_t capacity) {
  const std::int64_t total = std::accumulate(light.weight.begin(), light.weight.end(),
                                             std::int64_t{0});
  light.best.assign(static_cast<std::size_t>(std::min(total, capacity)) + 1, 0);
  for (std::size_t i = 0; i < light.items.size(); ++i) {
    const std::int64_t w = light.weight[i];
    for (std::int64_t room = light.most_weight(); room >= w; --room) {
      light.best[room] = std::max(light.best[room], light.best[room - w] + light.profit[i]);
    }
  }
}

}  // namespace

std::int64_t WeightGroup::best_within(int k, std::int64_t room) const {
  if (room < 0) return kNoProfit;
  return table[row_start[k] + std::min(room, row_length(k) - 1)];
}

std::int64_t LightItems::best_within(std::int64_t room) const {
  if (room < 0) return kNoProfit;
  return best[std::min(room, most_weight())];
}

WeightGroups make_weight_groups(const KnapsackInstance& instance, std::int64_t span,
                                std::int64_t max_cells) {
  WeightGroups groups;
  std::vector<std::vector<int>> runs = runs_by_weight(instance, span);
  std::int64_t light_weight = 0;
  if (!runs.empty() && instance.weights[runs.front().front()] <= span) {
    for (const int i : runs.front()) {
      groups.light.items.push_back(i);
      groups.light.weight.push_back(instance.weights[i]);
      groups.light.profit.push_back(instance.profits[i]);
      light_weight += instance.weights[i];
      groups.light.positive_excess += std::max<std::int64_t>(
          instance.profits[i] - instance.weights[i], 0);
    }
    runs.erase(runs.begin());
  }
  groups.cells = std::min(light_weight, instance.capacity) + 1;
  for (const auto& run : runs) {
    groups.groups.push_back(describe_group(instance, run));
    groups.cells += table_cells(groups.groups.back());
    if (groups.cells > max_cells) break;
  }
  if (groups.cells > max_cells) {
    throw InputError(instance.name + ": the group search's tables need more than " +
                     std::to_string(max_cells) + " cells (" + std::to_string(runs.size()) +
                     " groups of weights within " + std::to_string(span) +
                     "): the items do not fall into few groups of nearly equal weight");
  }
  double most_bits = static_cast<double>(groups.light.items.size()) *
                    static_cast<double>(std::min(light_weight, instance.capacity) + 1);
  for (const auto& g : groups.groups) most_bits = std::max(most_bits, rebuild_bits(g));
  if (most_bits > 64.0 * static_cast<double>(max_cells)) {
    throw InputError(instance.name + ": rebuilding a solution of the group search would take " +
                     std::to_string(static_cast<std::int64_t>(most_bits / 8e6)) +
                     " MB, more than its tables may (" + std::to_string(max_cells / 125000) +
                     " MB): the groups are too large");
  }
  fill_light_table(groups.light, instance.capacity);
  for (auto& g : groups.groups) fill_group_table(g);
  std::reverse(groups.groups.begin(), groups.groups.end());
  return groups;
}

std::vector<int> best_subset_within(const std::vector<std::int64_t>& profit,
                                    const std::vector<std::int64_t>& weight, int count,
                                    std::int64_t room, std::int64_t expected) {
  const int n = static_cast<int>(profit.size());
  const int rows = count < 0 ? 1 : count + 1;
  const std::int64_t width = room + 1;
  std::vector<std::int64_t> best(static_cast<std::size_t>(rows * width), kNoProfit);
  std::fill(best.begin(), best.begin() + width, 0);  // row 0: nothing taken, any room
  std::vector<bool> taken(static_cast<std::size_t>(n) * rows * width, false);
  for (int i = 0; i < n; ++i) {
    for (int k = rows - 1; k >= (count < 0 ? 0 : 1); --k) {
      const int from_row = count < 0 ? 0 : k - 1;
      for (std::int64_t r = room; r >= weight[i]; --r) {
        const std::int64_t from = best[from_row * width + r - weight[i]];
        if (from == kNoProfit || from + profit[i] <= best[k * width + r]) continue;
        best[k * width + r] = from + profit[i];
        taken[(static_cast<std::size_t>(i) * rows + k) * width + r] = true;
      }
    }
  }
  if (best[(rows - 1) * width + room] != expected) {
    throw std::logic_error("knapsack groups: a group's subset is worth " +
                           std::to_string(best[(rows - 1) * width + room]) + ", its table says " +
                           std::to_string(expected));
  }
  std::vector<int> chosen;
  int k = rows - 1;
  std::int64_t r = room;
  for (int i = n - 1; i >= 0; --i) {
    if (!taken[(static_cast<std::size_t>(i) * rows + k) * width + r]) continue;
    chosen.push_back(i);
    r -= weight[i];
    if (count >= 0) --k;
  }
  return chosen;
}

}  // namespace permbb::knapsack
