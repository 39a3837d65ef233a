#pragma once
#include <cstdint>
#include <vector>

#include "item_table.hpp"
#include "state_list.hpp"

namespace permbb::knapsack {

// A state completed by one item outside the core: a feasible state with one item past the core
// put in, or an overweight one with one item before the core taken out.
struct Completion {
  std::int64_t state = -1;  // index in the list (-1: none beat the lower bound)
  int item = -1;
  std::int64_t profit = 0;
  std::int64_t weight = 0;
};

// Lower bounds from the states, after the pairing of combo (Martello, Pisinger & Toth 1999,
// §4: states combined with items outside the core): every item after the core is out of every
// state and every item before it is in, so each may be toggled in any state. For a state of
// weight μ <= c the most profitable item past the core of weight <= c - μ goes in; for μ > c
// the least profitable item before the core of weight >= μ - c comes out. Items are sorted by
// weight with a running best profit, and the states, sorted by weight, sweep them once.
// The items of the table by increasing weight (ties by position): sorted once per search, so
// that each completion only filters it (O(n), not O(n log n)).
std::vector<int> items_by_weight(const ItemTable& items);

class OneItemCompletion {
 public:
  // The items before `first` (removable) and after `last` (addable) of the sorted table;
  // `by_weight` is items_by_weight(items).
  OneItemCompletion(const ItemTable& items, const std::vector<int>& by_weight, int first,
                    int last);

  // The best completion over the list that beats `lower`, if any.
  Completion best(const StateList& list, std::int64_t capacity, std::int64_t lower) const;

 private:
  struct Entry {
    std::int64_t weight;       // this entry's item's weight: the search key
    std::int64_t profit;       // the best profit over this entry and the lighter (heavier) ones
    std::int64_t best_weight;  // the weight of the item that has it
    int item;                  // that item
  };
  std::vector<Entry> addable_;    // by increasing weight; profit: the most among the lighter
  std::vector<Entry> removable_;  // by increasing weight; profit: the least among the heavier
};

}  // namespace permbb::knapsack
