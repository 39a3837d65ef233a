#include "cut_partition.hpp"

#include <vector>

#include "audit_branching.hpp"

namespace permbb::audit {
namespace {

std::string jobs_text(const std::vector<int>& jobs) {
  std::string out;
  for (const int job : jobs) out += " " + std::to_string(job + 1);
  return out;
}

std::string node_text(const std::vector<int>& prefix, const std::vector<int>& suffix) {
  return "prefix" + jobs_text(prefix) + " | suffix" + jobs_text(suffix);
}

// The sum of f! over the subproblems (f free jobs each) against n!.
std::string permutation_count(const Certificate& c) {
  const int n = c.jobs;
  std::vector<std::uint64_t> count(n + 2, 0);  // count[f]: subproblems with f free jobs
  for (const Subproblem& s : c.subproblems) ++count[n - s.fixed()];
  bool remainder = false;
  for (int f = 0; f < n; ++f) {
    const std::uint64_t base = static_cast<std::uint64_t>(f) + 1;  // (f+1)! = (f+1) f!
    remainder = remainder || count[f] % base != 0;
    count[f + 1] += count[f] / base;
  }
  if (count[n] == 1 && !remainder) return "n!";
  return count[n] == 0 ? "less than n!" : "more than n!";
}

struct Rebuild {
  const Certificate& c;
  const TextbookBounds& bounds;
  PartitionCheck& out;
  ChildBounds scratch;  // for the branching rule; not needed once a node's side is chosen

  bool fail(const std::string& what, int line) {
    out.failure = what;
    out.failure_line = line;
    return false;
  }

  // The subproblems `members` (indices) all lie in the node (prefix, suffix): they must
  // partition it.
  bool cover(std::vector<int>& prefix, std::vector<int>& suffix, const Sides& node,
             const std::vector<std::size_t>& members) {
    const int fixed = static_cast<int>(prefix.size() + suffix.size());
    if (members.empty()) return fail("no subproblem covers " + node_text(prefix, suffix), 0);
    for (const std::size_t i : members) {
      if (c.subproblems[i].fixed() != fixed) continue;
      if (members.size() == 1) return true;
      const std::size_t other = members[members[0] == i ? 1 : 0];
      return fail("the subproblem at line " + std::to_string(c.subproblems[i].line) +
                      " (" + node_text(prefix, suffix) + ") overlaps the one at line " +
                      std::to_string(c.subproblems[other].line),
                  c.subproblems[i].line);
    }
    if (fixed > 0) ++out.inner_nodes;
    bool front_possible = true;
    bool back_possible = true;
    for (const std::size_t i : members) {
      front_possible = front_possible && c.subproblems[i].prefix.size() > prefix.size();
      back_possible = back_possible && c.subproblems[i].suffix.size() > suffix.size();
    }
    if (!front_possible && !back_possible) {
      return fail("the subproblems in " + node_text(prefix, suffix) +
                      " do not branch on one side (they overlap or leave a hole), as the one at "
                      "line " + std::to_string(c.subproblems[members[0]].line) + " shows",
                  c.subproblems[members[0]].line);
    }
    const Side side = front_possible && back_possible
                          ? branching_side(bounds, rule_named(c.branching), node, scratch)
                          : (front_possible ? Side::kFront : Side::kBack);
    return cover_children(prefix, suffix, node, members, side);
  }

  bool cover_children(std::vector<int>& prefix, std::vector<int>& suffix, const Sides& node,
                      const std::vector<std::size_t>& members, Side side) {
    std::vector<std::vector<std::size_t>> by_job(c.jobs);
    for (const std::size_t i : members) {
      const Subproblem& s = c.subproblems[i];
      const bool front = side == Side::kFront;
      if (!(front ? s.prefix.size() > prefix.size() : s.suffix.size() > suffix.size())) {
        return fail("the subproblem at line " + std::to_string(s.line) +
                        " does not follow the branching of " + node_text(prefix, suffix),
                    s.line);
      }
      const int next = front ? s.prefix[prefix.size()] : s.suffix[s.suffix.size() - suffix.size() - 1];
      by_job[next].push_back(i);
    }
    for (const int job : node.free) {
      Sides child;
      bounds.child(node, side, job, child);
      if (side == Side::kFront) prefix.push_back(job); else suffix.insert(suffix.begin(), job);
      const bool ok = cover(prefix, suffix, child, by_job[job]);
      if (side == Side::kFront) prefix.pop_back(); else suffix.erase(suffix.begin());
      if (!ok) return false;
    }
    return true;
  }
};

}  // namespace

PartitionCheck check_partition(const Certificate& c, const TextbookBounds& bounds) {
  PartitionCheck out;
  out.count_figure = permutation_count(c);
  out.counted = out.count_figure == "n!";
  if (!out.counted) {
    out.failure = "the subproblems hold " + out.count_figure + " permutations, not n!";
  }
  std::vector<std::size_t> all(c.subproblems.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  std::vector<int> prefix;
  std::vector<int> suffix;
  Rebuild rebuild{c, bounds, out, {}};
  const std::string count_failure = out.failure;
  out.rebuilt = rebuild.cover(prefix, suffix, bounds.sides_of(prefix, suffix), all);
  if (!count_failure.empty() && out.rebuilt) out.failure = count_failure;
  return out;
}

}  // namespace permbb::audit
