#include "audit_search.hpp"

#include "audit_branching.hpp"

namespace permbb::audit {
namespace {

struct Search {
  const TextbookBounds& bounds;
  const std::string& rule;
  Time upper_bound;
  Time target;
  Enough enough;
  Exploration found;

  bool has_enough() const {
    return (enough.nodes > 0 || enough.leaves > 0) && found.nodes >= enough.nodes &&
           found.leaves >= enough.leaves;
  }

  void leaf(const std::vector<int>& prefix, int job, const std::vector<int>& suffix) {
    std::vector<int> schedule = prefix;
    schedule.push_back(job);
    schedule.insert(schedule.end(), suffix.begin(), suffix.end());
    const Time makespan = bounds.makespan(schedule);
    ++found.leaves;
    if (makespan < found.best) found.best = makespan;
    if (makespan < target && found.first_below.empty()) found.first_below = schedule;
  }

  // Decomposes the node (prefix, suffix): its children below the upper bound are explored.
  void decompose(std::vector<int>& prefix, std::vector<int>& suffix, const Sides& node) {
    if (found.stopped) return;
    if (!prefix.empty() || !suffix.empty()) ++found.nodes;
    if (node.free.size() == 1) {
      leaf(prefix, node.free[0], suffix);
      found.stopped = has_enough();
      return;
    }
    found.stopped = has_enough();
    const Side side = branching_side(bounds, rule, node);
    for (const int job : node.free) {
      const Sides child = side == Side::kFront ? bounds.child_front(node, job)
                                               : bounds.child_back(node, job);
      if (bounds.pruning_bound(child) >= upper_bound) continue;
      if (side == Side::kFront) {
        prefix.push_back(job);
        decompose(prefix, suffix, child);
        prefix.pop_back();
      } else {
        suffix.insert(suffix.begin(), job);
        decompose(prefix, suffix, child);
        suffix.erase(suffix.begin());
      }
    }
  }
};

}  // namespace

Exploration explore_subproblem(const TextbookBounds& bounds, const std::string& rule,
                               const std::vector<int>& prefix, const std::vector<int>& suffix,
                               Time upper_bound, Time target, Enough enough) {
  Search search{bounds, rule, upper_bound, target, enough, {}};
  std::vector<int> p = prefix;
  std::vector<int> s = suffix;
  const Sides node = bounds.sides_of(p, s);
  if (node.free.empty()) {
    // A complete schedule: a leaf, not a node.
    p.insert(p.end(), s.begin(), s.end());
    ++search.found.leaves;
    search.found.best = bounds.makespan(p);
    if (search.found.best < target) search.found.first_below = p;
  } else {
    search.decompose(p, s, node);
  }
  return search.found;
}

}  // namespace permbb::audit
