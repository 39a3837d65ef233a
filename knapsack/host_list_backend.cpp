#include "host_list_backend.hpp"

#include <utility>

#include "node_bounds.hpp"
#include "node_branching.hpp"

namespace permbb::knapsack {

HostListBackend::HostListBackend(const ItemTable& items, const char* name)
    : items_(items.view()), words_(items.words_per_node()), name_(name), list_(words_) {}

NodeList HostListBackend::release() {
  NodeList out = std::move(list_);
  list_ = NodeList(words_);
  return out;
}

LevelOutcome HostListBackend::step(int item, std::int64_t best_lower) {
  const std::int64_t q = list_.size();
  list_.resize(2 * q);
  const NodeArrays nodes = list_.arrays();
  for (std::int64_t j = 0; j < q; ++j) branch_node(items_, nodes, j, q, item);
  for (std::int64_t j = q; j < 2 * q; ++j) bound_child(items_, nodes, j);

  LevelOutcome outcome{best_lower, std::nullopt};
  std::int64_t witness = -1;
  for (std::int64_t j = q; j < 2 * q; ++j) {
    if (nodes.lower[j] > outcome.best_lower) {
      outcome.best_lower = nodes.lower[j];
      witness = j;
    }
  }
  if (witness >= 0) outcome.witness = list_.record(witness);
  list_.retain_above(outcome.best_lower);
  return outcome;
}

}  // namespace permbb::knapsack
