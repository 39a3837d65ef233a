#pragma once
#include <cstdint>

#include "node_dominance.hpp"
#include "node_list.hpp"

namespace permbb::knapsack {

// Removes the dominated nodes of a level-`level` list (node_dominance.hpp) and returns how
// many went. Shaped as a GPU would do it, a sort and a scan: the nodes are ordered by decided
// weight (ties: larger decided profit first, then list order), a running maximum of the
// decided profit along that order keeps a node only when its profit beats every lighter or
// equal node's; of nodes equal in both, the first in list order stays. The kept nodes keep
// their list order, so the result does not depend on the sort's algorithm.
std::int64_t remove_dominated(NodeList& list, const PrefixSums& sums, int level);

}  // namespace permbb::knapsack
