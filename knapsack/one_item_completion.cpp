#include "one_item_completion.hpp"

#include <algorithm>

namespace permbb::knapsack {
namespace {

struct Candidate {
  std::int64_t weight;
  std::int64_t profit;
  int item;
};

// The items of [from, to) in weight order.
std::vector<Candidate> candidates(const ItemTable& items, const std::vector<int>& by_weight,
                                  int from, int to) {
  std::vector<Candidate> out;
  for (const int i : by_weight) {
    if (i >= from && i < to) out.push_back({items.weights()[i], items.profits()[i], i});
  }
  return out;
}

}  // namespace

std::vector<int> items_by_weight(const ItemTable& items) {
  std::vector<int> order(static_cast<std::size_t>(items.count()));
  for (int i = 0; i < items.count(); ++i) order[static_cast<std::size_t>(i)] = i;
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return items.weights()[a] < items.weights()[b] ||
           (items.weights()[a] == items.weights()[b] && a < b);
  });
  return order;
}

OneItemCompletion::OneItemCompletion(const ItemTable& items, const std::vector<int>& by_weight,
                                     int first, int last) {
  for (const Candidate& c : candidates(items, by_weight, last + 1, items.count())) {
    Entry entry{c.weight, c.profit, c.weight, c.item};
    if (!addable_.empty() && c.profit <= addable_.back().profit) {
      const Entry& lighter = addable_.back();
      entry = {c.weight, lighter.profit, lighter.best_weight, lighter.item};
    }
    addable_.push_back(entry);
  }
  const std::vector<Candidate> before = candidates(items, by_weight, 0, first);
  removable_.resize(before.size());
  for (std::size_t k = before.size(); k-- > 0;) {
    const Candidate& c = before[k];
    removable_[k] = {c.weight, c.profit, c.weight, c.item};
    if (k + 1 < before.size() && c.profit >= removable_[k + 1].profit) {
      const Entry& heavier = removable_[k + 1];
      removable_[k] = {c.weight, heavier.profit, heavier.best_weight, heavier.item};
    }
  }
}

// The states come by increasing weight, so the room of the feasible ones shrinks and the
// excess of the overweight ones grows: one pointer into each table, moved one way only, replaces
// a binary search per state (O(states + items) in all).
Completion OneItemCompletion::best(const StateList& list, std::int64_t capacity,
                                   std::int64_t lower) const {
  Completion found;
  // addable_[0, fit): the entries of weight <= the room; removable_[cover, end): >= the excess.
  std::size_t fit = addable_.size();
  std::size_t cover = 0;
  for (std::int64_t k = 0; k < list.size(); ++k) {
    const std::int64_t w = list.weight[k];
    const std::int64_t p = list.profit[k];
    if (w <= capacity) {
      while (fit > 0 && addable_[fit - 1].weight > capacity - w) --fit;
      if (fit == 0) continue;
      const Entry& e = addable_[fit - 1];
      if (p + e.profit > lower) {
        lower = p + e.profit;
        found = {k, e.item, lower, w + e.best_weight};
      }
    } else {
      while (cover < removable_.size() && removable_[cover].weight < w - capacity) ++cover;
      if (cover == removable_.size()) break;  // heavier states need even more taken out
      const Entry& e = removable_[cover];
      if (p - e.profit > lower) {
        lower = p - e.profit;
        found = {k, e.item, lower, w - e.best_weight};
      }
    }
  }
  return found;
}

}  // namespace permbb::knapsack
