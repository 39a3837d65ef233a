#include "one_item_completion.hpp"

#include <algorithm>

namespace permbb::knapsack {
namespace {

struct Candidate {
  std::int64_t weight;
  std::int64_t profit;
  int item;
};

std::vector<Candidate> candidates(const ItemTable& items, int from, int to) {
  std::vector<Candidate> out;
  for (int i = from; i < to; ++i) out.push_back({items.weights()[i], items.profits()[i], i});
  std::sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& b) {
    return a.weight < b.weight || (a.weight == b.weight && a.item < b.item);
  });
  return out;
}

}  // namespace

OneItemCompletion::OneItemCompletion(const ItemTable& items, int first, int last) {
  for (const Candidate& c : candidates(items, last + 1, items.count())) {
    Entry entry{c.weight, c.profit, c.weight, c.item};
    if (!addable_.empty() && c.profit <= addable_.back().profit) {
      const Entry& lighter = addable_.back();
      entry = {c.weight, lighter.profit, lighter.best_weight, lighter.item};
    }
    addable_.push_back(entry);
  }
  const std::vector<Candidate> before = candidates(items, 0, first);
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

Completion OneItemCompletion::best(const StateList& list, std::int64_t capacity,
                                   std::int64_t lower) const {
  Completion found;
  const auto by_weight = [](const Entry& e, std::int64_t w) { return e.weight < w; };
  for (std::int64_t k = 0; k < list.size(); ++k) {
    const std::int64_t w = list.weight[k];
    const std::int64_t p = list.profit[k];
    if (w <= capacity) {
      // The last entry of weight <= room: the first of weight > room, minus one.
      const std::int64_t room = capacity - w;
      const auto it = std::upper_bound(addable_.begin(), addable_.end(), room,
                                       [](std::int64_t r, const Entry& e) { return r < e.weight; });
      if (it == addable_.begin()) continue;
      const Entry& e = *(it - 1);
      if (p + e.profit > lower) {
        lower = p + e.profit;
        found = {k, e.item, lower, w + e.best_weight};
      }
    } else {
      const auto it = std::lower_bound(removable_.begin(), removable_.end(), w - capacity, by_weight);
      if (it == removable_.end()) continue;
      if (p - it->profit > lower) {
        lower = p - it->profit;
        found = {k, it->item, lower, w - it->best_weight};
      }
    }
  }
  return found;
}

}  // namespace permbb::knapsack
