#include "weight_class_dp.hpp"

#include <algorithm>

namespace permbb::knapsack {
namespace {

// The solution kept for one weight class: its exact weight and profit (profit -1: none).
struct ClassEntry {
  std::int64_t weight = 0;
  std::int64_t profit = -1;
};

class WeightClassTable {
 public:
  WeightClassTable(int items, std::int64_t capacity, std::int64_t classes)
      : capacity_(capacity),
        width_((capacity + classes) / classes),
        entries_(static_cast<std::size_t>(capacity / width_ + 1)),
        words_((entries_.size() + 63) / 64),
        taken_(static_cast<std::size_t>(items) * words_, 0) {
    entries_[0].profit = 0;
  }

  // Item `item` offered to every kept solution. Sources are visited from the heaviest class
  // down and each moves to a class at least its own, so every source is read before any
  // solution moved this round replaces it. taken_ marks the classes replaced by this item.
  void add(int item, std::int64_t w, std::int64_t p) {
    for (std::size_t k = entries_.size(); k-- > 0;) {
      const ClassEntry source = entries_[k];
      if (source.profit < 0 || source.weight + w > capacity_) continue;
      const ClassEntry moved{source.weight + w, source.profit + p};
      ClassEntry& target = entries_[static_cast<std::size_t>(moved.weight / width_)];
      if (moved.profit > target.profit ||
          (moved.profit == target.profit && moved.weight < target.weight)) {
        target = moved;
        mark(item, static_cast<std::size_t>(moved.weight / width_));
      }
    }
  }

  // The items of the most profitable kept solution, read back from the last item down: a
  // class whose solution item i replaced held, before it, the one lighter by w_i.
  std::vector<int> best(const ItemTable& items) const {
    std::size_t k = 0;
    for (std::size_t j = 0; j < entries_.size(); ++j) {
      if (entries_[j].profit > entries_[k].profit) k = j;
    }
    std::int64_t weight = entries_[k].weight;
    std::vector<int> chosen;
    for (int i = items.count() - 1; i >= 0; --i) {
      if (!marked(i, static_cast<std::size_t>(weight / width_))) continue;
      chosen.push_back(i);
      weight -= items.weights()[i];
    }
    std::reverse(chosen.begin(), chosen.end());
    return chosen;
  }

 private:
  void mark(int item, std::size_t k) {
    taken_[static_cast<std::size_t>(item) * words_ + k / 64] |= std::uint64_t{1} << (k % 64);
  }
  bool marked(int item, std::size_t k) const {
    return (taken_[static_cast<std::size_t>(item) * words_ + k / 64] >> (k % 64)) & 1;
  }

  std::int64_t capacity_;
  std::int64_t width_;
  std::vector<ClassEntry> entries_;
  std::size_t words_;
  std::vector<std::uint64_t> taken_;
};

}  // namespace

std::vector<int> weight_class_solution(const ItemTable& items, std::int64_t capacity,
                                       std::int64_t classes, const std::function<bool()>& stop) {
  WeightClassTable table(items.count(), capacity, std::max<std::int64_t>(classes, 1));
  for (int i = 0; i < items.count(); ++i) {
    if (stop && stop()) return {};
    table.add(i, items.weights()[i], items.profits()[i]);
  }
  return table.best(items);
}

}  // namespace permbb::knapsack
