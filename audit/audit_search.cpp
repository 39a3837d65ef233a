#include "audit_search.hpp"

#include <utility>

#include "audit_branching.hpp"

namespace permbb::audit {
namespace {

// What the search keeps for one depth (a node with that many free jobs), reused by every
// node there: no node allocates once the first has grown the buffers.
struct Level {
  Sides sides;
  ChildBounds children;
  Skipped inside;  // the skipped records inside the node (none, mostly)
};

// Of the skipped records inside a node (`inside`, the node fixing `in_prefix` and `in_suffix`
// jobs), those inside its child that adds `job` on `side`, into `out`: whether that child is
// one of them.
bool narrow(const Skipped& inside, Side side, int job, std::size_t in_prefix,
            std::size_t in_suffix, Skipped& out) {
  const int child_fixed = static_cast<int>(in_prefix + in_suffix) + 1;
  for (const Subproblem* s : inside) {
    if (s->next_job(side == Side::kFront, in_prefix, in_suffix) != job) continue;
    if (s->fixed() == child_fixed) return true;
    out.push_back(s);
  }
  return false;
}

struct Search {
  const TextbookBounds& bounds;
  Rule rule;
  Time upper_bound;
  Time target;
  Enough enough;
  Deadline deadline;
  Exploration found;
  std::vector<Level> levels;  // by free jobs
  std::uint64_t until_clock = kDeadlineInterval;  // decompositions before the next look

  bool has_enough() const {
    return (enough.nodes > 0 || enough.leaves > 0) && found.nodes >= enough.nodes &&
           found.leaves >= enough.leaves;
  }

  bool past_deadline() {
    if (!deadline || --until_clock > 0) return false;
    until_clock = kDeadlineInterval;
    found.timed_out = deadline_passed(deadline);
    return found.timed_out;
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

  // The chosen side's children's pruning bounds, by position in node.free: their branching
  // bounds, unless the certificate branches on LB1 and prunes on LB2 (lb1+lb2). LB2 is then
  // needed only where LB1 is below the upper bound: LB2 is never below LB1.
  const std::vector<Time>& pruning_bounds(const Sides& node, Side side, ChildBounds& children) {
    std::vector<Time>& kept = children.of(side);
    if (bounds.prunes_on_branching_bound()) return kept;
    for (std::size_t i = 0; i < kept.size(); ++i) {
      if (kept[i] >= upper_bound) continue;
      kept[i] = bounds.child_pruning_bound(node, side, node.free[i], children.scratch);
    }
    return kept;
  }

  // Decomposes the node (prefix, suffix), whose sides are levels[free_jobs]: its children below
  // the upper bound are explored. A child's sides are built (in levels[free_jobs - 1]) only when
  // it is explored.
  void decompose(std::vector<int>& prefix, std::vector<int>& suffix, std::size_t free_jobs) {
    if (found.stopped) return;
    if (!prefix.empty() || !suffix.empty()) ++found.nodes;
    if (past_deadline()) {
      found.stopped = true;
      return;
    }
    Level& level = levels[free_jobs];
    const Sides& node = level.sides;
    if (free_jobs == 1) {
      leaf(prefix, node.free[0], suffix);
      found.stopped = has_enough();
      return;
    }
    found.stopped = has_enough();
    const Side side = branching_side(bounds, rule, node, level.children);
    const std::vector<Time>& kept = pruning_bounds(node, side, level.children);
    for (std::size_t i = 0; i < free_jobs; ++i) {
      if (kept[i] >= upper_bound) continue;
      const int job = node.free[i];
      Skipped& below = levels[free_jobs - 1].inside;
      below.clear();
      if (!level.inside.empty() &&
          narrow(level.inside, side, job, prefix.size(), suffix.size(), below)) {
        continue;  // a nested record: re-explored (when drawn) and counted on its own
      }
      bounds.child(node, side, job, levels[free_jobs - 1].sides);
      if (side == Side::kFront) {
        prefix.push_back(job);
        decompose(prefix, suffix, free_jobs - 1);
        prefix.pop_back();
      } else {
        suffix.insert(suffix.begin(), job);
        decompose(prefix, suffix, free_jobs - 1);
        suffix.erase(suffix.begin());
      }
    }
  }
};

}  // namespace

Exploration explore_subproblem(const TextbookBounds& bounds, const std::string& rule,
                               const std::vector<int>& prefix, const std::vector<int>& suffix,
                               Time upper_bound, Time target, Enough enough,
                               const Deadline& deadline, const Skipped& skipped) {
  Search search{bounds, rule_named(rule), upper_bound, target, enough, deadline, {}, {}};
  std::vector<int> p = prefix;
  std::vector<int> s = suffix;
  Sides root = bounds.sides_of(p, s);
  const std::size_t free_jobs = root.free.size();
  search.levels.resize(free_jobs + 1);
  search.levels[free_jobs].sides = std::move(root);
  search.levels[free_jobs].inside = skipped;
  if (free_jobs == 0) {
    // A complete schedule: a leaf, not a node.
    p.insert(p.end(), s.begin(), s.end());
    ++search.found.leaves;
    search.found.best = bounds.makespan(p);
    if (search.found.best < target) search.found.first_below = p;
  } else {
    search.decompose(p, s, free_jobs);
  }
  return search.found;
}

}  // namespace permbb::audit
