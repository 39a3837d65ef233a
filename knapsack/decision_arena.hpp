#pragma once
#include <cstdint>
#include <vector>

namespace permbb::knapsack {

// The decisions behind the states of the expanding-core dynamic program (core_search.hpp), kept
// as a forest: a state is the break solution with some items toggled (an item past the break
// item put in, or one before it taken out), and its record is a chain of nodes (item, parent)
// back to the root, one node per toggle. States made from the same state share its chain, so a
// list of millions of states costs one node per state, not one bit per item per state. Nodes
// of states that went (dominated, fathomed) are reclaimed by compact(), a mark and sweep. The
// arena keeps its memory across compactions: it grows back between them, and memory handed
// back and asked for again costs a page fault per page (docs/knapsack.md, "The arena's
// memory kept": 19 % of a 20-s search's time went to the kernel when it was handed back).
class DecisionArena {
 public:
  // The root: no item toggled.
  static constexpr std::int64_t kRoot = -1;

  // A node that toggles `item` on top of `parent`; returns its id.
  std::int64_t add(std::int64_t parent, int item);

  std::int64_t size() const { return static_cast<std::int64_t>(item_.size()); }
  // Bytes the arena holds (its capacities, the compaction's own numbering included).
  std::int64_t bytes() const;

  // The items toggled on the chain of `node`, in no particular order.
  std::vector<int> toggled(std::int64_t node) const;

  // Keeps only the nodes on the chains of `live` and renumbers them (parents keep lower ids
  // than their children); rewrites `live` with the new ids.
  void compact(std::vector<std::int64_t>& live);

 private:
  std::vector<std::int32_t> item_;
  std::vector<std::int64_t> parent_;
  std::vector<std::int64_t> new_id_;  // compact()'s numbering, kept for the next one
};

}  // namespace permbb::knapsack
