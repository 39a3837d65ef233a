#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "item_table.hpp"

namespace permbb::knapsack {

// A lower bound for the expanding-core search on instances whose good solutions are spread
// over items far from the core (Jooken et al.'s class): the dynamic program over capacities
// with the capacity cut into `classes` weight classes of width K = ⌈(c + 1) / classes⌉, one
// solution kept per class, the most profitable (the lighter on a tie). Unlike a dynamic
// program over rounded weights, the weights stay exact, so no rounding error adds up over the
// items of a solution and what it returns fills c up to the classes' width; keeping one
// solution per class is where it may miss the optimum (it is exact when K = 1).
// O(n classes) time, n classes / 8 bytes of decision bits. Returns the chosen items of `items`
// (sorted numbering). Asks `stop` after each item (a run over 2^29 classes takes seconds): when
// it returns true, gives up and returns no item.
std::vector<int> weight_class_solution(const ItemTable& items, std::int64_t capacity,
                                       std::int64_t classes,
                                       const std::function<bool()>& stop = {});

}  // namespace permbb::knapsack
