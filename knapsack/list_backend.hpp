#pragma once
#include <cstdint>
#include <optional>

#include "node_dominance.hpp"
#include "node_list.hpp"

namespace permbb::knapsack {

// What one level step reports.
struct LevelOutcome {
  std::int64_t best_lower = 0;        // max(the best lower bound given, the children's L)
  std::optional<NodeRecord> witness;  // when that improved: the child realising it
};

// Where the node list lives and how a level is processed there: the CPU (HostListBackend) or
// the GPU (knapsack/gpu). LevelSearch moves the list between two of them by size.
//
// step(k, best) is one level of the breadth-first search (Lalami & El Baz 2012, §III.B):
//   1. branch every node j < q on item k (branch_node: children at q + j),
//   2. bound the children (bound_child),
//   3. reduce: new best = max(best, L of the children); if that improved, the witness is the
//      child of lowest index with that L,
//   4. label: keep the nodes of [0, 2q) with U > new best (keep_node),
//   5. compact the kept nodes to the front, in order.
// Every backend does exactly this, so a list gives the same next list, nodes in the same
// order, on any backend: the search, its node count and the solution it reports do not depend
// on where levels ran.
class LevelListBackend {
 public:
  virtual ~LevelListBackend() = default;

  virtual const char* name() const = 0;
  virtual std::int64_t size() const = 0;
  // Replaces the list with `nodes`.
  virtual void assign(NodeList nodes) = 0;
  // Hands the list over (the backend is then empty).
  virtual NodeList release() = 0;
  // Removes nodes [keep, size) and returns them, in order.
  virtual NodeList split_tail(std::int64_t keep) = 0;
  virtual LevelOutcome step(int item, std::int64_t best_lower) = 0;
  // Removes the dominated nodes of the list, now at level `level` (dominance.hpp), and
  // returns how many went. `sums` are host arrays. This default moves the list to the host
  // and back, which costs nothing on the host backend; a device backend may do it in place
  // (a sort by decided weight and a scan), but must keep the same nodes in the same order.
  virtual std::int64_t remove_dominated(const PrefixSums& sums, int level);
};

}  // namespace permbb::knapsack
