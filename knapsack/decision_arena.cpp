#include "decision_arena.hpp"

namespace permbb::knapsack {

std::int64_t DecisionArena::add(std::int64_t parent, int item) {
  item_.push_back(item);
  parent_.push_back(parent);
  return size() - 1;
}

std::int64_t DecisionArena::bytes() const {
  return static_cast<std::int64_t>(item_.capacity() * sizeof(std::int32_t) +
                                   (parent_.capacity() + new_id_.capacity()) *
                                       sizeof(std::int64_t));
}

std::vector<int> DecisionArena::toggled(std::int64_t node) const {
  std::vector<int> items;
  for (; node != kRoot; node = parent_[node]) items.push_back(item_[node]);
  return items;
}

// Marking walks each live chain up to the first node already marked, so shared prefixes are
// walked once; since a node's parent always has a lower id, one pass in id order renumbers
// parents before their children.
void DecisionArena::compact(std::vector<std::int64_t>& live) {
  std::vector<std::int64_t>& new_id = new_id_;  // kept for the next compaction
  new_id.assign(item_.size(), kRoot - 1);         // kRoot - 1: unmarked
  constexpr std::int64_t kMarked = 0;
  for (std::int64_t node : live) {
    for (; node != kRoot && new_id[node] != kMarked; node = parent_[node]) new_id[node] = kMarked;
  }
  std::int64_t kept = 0;
  for (std::int64_t node = 0; node < size(); ++node) {
    if (new_id[node] != kMarked) continue;
    const std::int64_t parent = parent_[node];
    item_[kept] = item_[node];
    parent_[kept] = parent == kRoot ? kRoot : new_id[parent];
    new_id[node] = kept++;
  }
  item_.resize(kept);  // capacities kept: the arena grows back
  parent_.resize(kept);
  for (std::int64_t& node : live) {
    if (node != kRoot) node = new_id[node];
  }
}

}  // namespace permbb::knapsack
