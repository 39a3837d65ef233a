#pragma once
#include <cstdint>
#include <vector>

#include "item_table.hpp"
#include "node_arrays.hpp"

namespace permbb::knapsack {

// One node copied out of a list: what rebuilding its solution needs (solution.hpp).
struct NodeRecord {
  std::int64_t weight = 0;
  std::int64_t profit = 0;
  std::int32_t slack = 0;
  std::int64_t upper = 0;
  std::int64_t lower = 0;
  std::vector<std::uint64_t> excluded;
};

// A node list in host memory: the arrays of node_arrays.hpp in std::vectors. The CPU level
// step works on it in place; the GPU list moves through it between host and device.
class NodeList {
 public:
  explicit NodeList(int words = 1) : words_(words) {}

  std::int64_t size() const { return static_cast<std::int64_t>(weight_.size()); }
  bool empty() const { return weight_.empty(); }
  int words() const { return words_; }

  // New slots are zeroed (no item excluded).
  void resize(std::int64_t count);
  // Pointers into the storage; a resize invalidates them.
  NodeArrays arrays();

  NodeRecord record(std::int64_t j) const;
  void append(const NodeRecord& node);

  // Moves nodes [keep, size) to a new list, in order, and keeps [0, keep).
  NodeList split_tail(std::int64_t keep);
  // Drops the nodes with U <= best_lower (keep_node), keeping the order of the others.
  void retain_above(std::int64_t best_lower);
  // Keeps the nodes j with keep(j) true, in order; returns how many.
  template <class Keep>
  std::int64_t retain_if(Keep keep);

 private:
  int words_;
  std::vector<std::int64_t> weight_;
  std::vector<std::int64_t> profit_;
  std::vector<std::int32_t> slack_;
  std::vector<std::int64_t> upper_;
  std::vector<std::int64_t> lower_;
  std::vector<std::uint64_t> excluded_;
};

template <class Keep>
std::int64_t NodeList::retain_if(Keep keep) {
  const NodeArrays nodes = arrays();
  std::int64_t kept = 0;
  for (std::int64_t j = 0; j < size(); ++j) {
    if (!keep(j)) continue;
    if (kept != j) copy_node(nodes, j, nodes, kept);
    ++kept;
  }
  resize(kept);
  return kept;
}

// The level-0 list: the root (nothing decided) bounded from item 0.
NodeList root_list(const ItemTable& items);

}  // namespace permbb::knapsack
