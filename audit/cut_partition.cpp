#include "cut_partition.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "audit_branching.hpp"

namespace permbb::audit {
namespace {

// splitmix64's finalizer: spreads a chain of jobs over 64 bits.
std::uint64_t mix(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The hashes of a record's ends: front[i] of its prefix's first i jobs, back[j] of its
// suffix's last j jobs. A subproblem that may hold it fixes such ends, so its key is
// key_of(front[i], back[j]) without hashing its jobs again.
struct EndHashes {
  std::vector<std::uint64_t> front;
  std::vector<std::uint64_t> back;
};

void hash_ends(const Subproblem& s, EndHashes& out) {
  out.front.assign(1, 0x243f6a8885a308d3ull);
  for (const int job : s.prefix) out.front.push_back(mix(out.front.back() + job + 1));
  out.back.assign(1, 0x13198a2e03707344ull);
  for (auto job = s.suffix.rbegin(); job != s.suffix.rend(); ++job) {
    out.back.push_back(mix(out.back.back() + *job + 1));
  }
}

std::uint64_t key_of(std::uint64_t front, std::uint64_t back) {
  return mix(front ^ (back * 0x9e3779b97f4a7c15ull));
}

// Whether `r` is the subproblem of `s`'s first `in_prefix` and last `in_suffix` jobs.
bool is_ends_of(const Subproblem& r, const Subproblem& s, std::size_t in_prefix,
                std::size_t in_suffix) {
  return r.prefix.size() == in_prefix && r.suffix.size() == in_suffix &&
         std::equal(r.prefix.begin(), r.prefix.end(), s.prefix.begin()) &&
         std::equal(r.suffix.begin(), r.suffix.end(), s.suffix.end() - in_suffix);
}

// Keeps the first failure met: it is the one reported.
bool keep_first(std::string& failure, int& failure_line, const std::string& what, int line) {
  if (failure.empty()) {
    failure = what;
    failure_line = line;
  }
  return false;
}

// The records by their prefix and suffix, for the containers of each (and its duplicates,
// into out.failure as it is built).
class Finder {
 public:
  Finder(const Certificate& c, Nesting& out) : c_(c), out_(out) {
    std::size_t slots = 16;
    while (slots < 2 * c.subproblems.size()) slots *= 2;
    slots_.assign(slots, Slot{0, Nesting::kTopLevel});
    EndHashes ends;
    for (std::size_t i = 0; i < c.subproblems.size(); ++i) {
      const Subproblem& s = c.subproblems[i];
      hash_ends(s, ends);
      const std::uint64_t key = key_of(ends.front.back(), ends.back.back());
      const std::size_t same = find(key, s, s.prefix.size(), s.suffix.size());
      if (same != Nesting::kTopLevel) {
        fail("the " + subproblem_text(s) + " repeats the one at line " +
                 std::to_string(c.subproblems[same].line),
             s.line);
      }
      std::size_t at = key & (slots_.size() - 1);
      while (slots_[at].record != Nesting::kTopLevel) at = (at + 1) & (slots_.size() - 1);
      slots_[at] = Slot{key, i};
    }
  }

  // The deepest record holding `s` (the first in the file among equally deep ones), or
  // kTopLevel.
  std::size_t container_of(const Subproblem& s) {
    hash_ends(s, ends_);
    const std::size_t a = s.prefix.size();
    const std::size_t b = s.suffix.size();
    for (std::size_t fixed = a + b; fixed-- > 0;) {
      for (std::size_t i = std::min(a, fixed) + 1; i-- > 0 && fixed - i <= b;) {
        const std::size_t j = fixed - i;
        const std::size_t found = find(key_of(ends_.front[i], ends_.back[j]), s, i, j);
        if (found != Nesting::kTopLevel) return found;
      }
    }
    return Nesting::kTopLevel;
  }

  void fail(const std::string& what, int line) {
    keep_first(out_.failure, out_.failure_line, what, line);
  }

 private:
  // The first record in the file with `key` that is `s`'s given ends, or kTopLevel.
  std::size_t find(std::uint64_t key, const Subproblem& s, std::size_t in_prefix,
                   std::size_t in_suffix) const {
    std::size_t first = Nesting::kTopLevel;
    for (std::size_t at = key & (slots_.size() - 1); slots_[at].record != Nesting::kTopLevel;
         at = (at + 1) & (slots_.size() - 1)) {
      const Slot& slot = slots_[at];
      if (slot.key == key && is_ends_of(c_.subproblems[slot.record], s, in_prefix, in_suffix)) {
        first = std::min(first, slot.record);
      }
    }
    return first;
  }

  // The records by key, in open addressing with linear probing, at most half the slots taken:
  // most lookups are of keys that no record has, and cost one cache line.
  struct Slot {
    std::uint64_t key;
    std::size_t record;  // kTopLevel: empty
  };

  const Certificate& c_;
  Nesting& out_;
  std::vector<Slot> slots_;
  EndHashes ends_;
};

// The sum of f! over the subproblems `members` (f free jobs each) against n!.
std::string permutation_count(const Certificate& c, const std::vector<std::size_t>& members) {
  const int n = c.jobs;
  std::vector<std::uint64_t> count(n + 2, 0);  // count[f]: subproblems with f free jobs
  for (const std::size_t i : members) ++count[n - c.subproblems[i].fixed()];
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
    return keep_first(out.failure, out.failure_line, what, line);
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
      const int next = s.next_job(side == Side::kFront, prefix.size(), suffix.size());
      if (next < 0) {
        return fail("the subproblem at line " + std::to_string(s.line) +
                        " does not follow the branching of " + node_text(prefix, suffix),
                    s.line);
      }
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

  // The explored records `members`, nested directly in the explored record `outer`, lie in
  // the node (prefix, suffix) of its branching tree: each must be a node of that tree. The
  // rule picks the side at every node, even where only one side would fit the members (a
  // search branches as its rule says, whatever records lie below).
  bool place_nested(std::vector<int>& prefix, std::vector<int>& suffix, const Sides& node,
                    std::vector<std::size_t> members, const Subproblem& outer) {
    const int fixed = static_cast<int>(prefix.size() + suffix.size());
    std::erase_if(members, [&](std::size_t i) { return c.subproblems[i].fixed() == fixed; });
    if (members.empty()) return true;  // each was this node itself
    if (node.free.size() < 2) return not_a_node(members[0], outer, "it fixes every job");
    const Side side = branching_side(bounds, rule_named(c.branching), node, scratch);
    std::vector<std::pair<int, std::size_t>> by_job;  // (next job, member), sorted
    for (const std::size_t i : members) {
      const int next = c.subproblems[i].next_job(side == Side::kFront, prefix.size(),
                                                 suffix.size());
      if (next < 0) {
        return not_a_node(i, outer, "at " + node_text(prefix, suffix) + " the rule branches at " +
                                        (side == Side::kFront ? "the front" : "the back"));
      }
      by_job.emplace_back(next, i);
    }
    std::sort(by_job.begin(), by_job.end());
    Sides child;
    for (std::size_t from = 0; from < by_job.size();) {
      const int job = by_job[from].first;
      std::vector<std::size_t> group;
      for (; from < by_job.size() && by_job[from].first == job; ++from) {
        group.push_back(by_job[from].second);
      }
      bounds.child(node, side, job, child);
      if (side == Side::kFront) prefix.push_back(job); else suffix.insert(suffix.begin(), job);
      const bool ok = place_nested(prefix, suffix, child, std::move(group), outer);
      if (side == Side::kFront) prefix.pop_back(); else suffix.erase(suffix.begin());
      if (!ok) return false;
    }
    return true;
  }

  bool not_a_node(std::size_t i, const Subproblem& outer, const std::string& why) {
    const Subproblem& s = c.subproblems[i];
    return fail("the " + subproblem_text(s) + " lies inside the one at line " +
                    std::to_string(outer.line) + " but is not a node of its branching: " + why,
                s.line);
  }
};

}  // namespace

std::string node_text(const std::vector<int>& prefix, const std::vector<int>& suffix) {
  std::string out = "prefix";
  const auto add = [&out](int job) {
    out += ' ';
    out += std::to_string(job + 1);
  };
  for (const int job : prefix) add(job);
  out += " | suffix";
  for (const int job : suffix) add(job);
  return out;
}

std::string subproblem_text(const Subproblem& s) {
  return "subproblem at line " + std::to_string(s.line) + " (" + node_text(s.prefix, s.suffix) +
         ")";
}

Nesting find_nesting(const Certificate& c) {
  Nesting out;
  Finder finder(c, out);  // duplicates are the first failures
  out.container.assign(c.subproblems.size(), Nesting::kTopLevel);
  out.nested.resize(c.subproblems.size());
  for (std::size_t i = 0; i < c.subproblems.size(); ++i) {
    const Subproblem& s = c.subproblems[i];
    const std::size_t container = finder.container_of(s);
    if (container == Nesting::kTopLevel) continue;
    out.container[i] = container;
    ++out.nested_count;
    const Subproblem& outer = c.subproblems[container];
    if (outer.pruned) {
      finder.fail("the " + subproblem_text(s) + " lies inside the pruned one at line " +
                      std::to_string(outer.line),
                  s.line);
    } else if (s.pruned) {
      finder.fail("the pruned " + subproblem_text(s) + " lies inside the explored one at line " +
                      std::to_string(outer.line) + ": only explored subproblems nest",
                  s.line);
    } else {
      out.nested[container].push_back(i);
    }
  }
  return out;
}

PartitionCheck check_partition(const Certificate& c, const TextbookBounds& bounds,
                               const Nesting& nesting) {
  PartitionCheck out;
  out.nested = nesting.nested_count;
  // A failure of the nesting first: a duplicate or a record in a pruned one would make the
  // rebuild's complaint less precise.
  out.failure = nesting.failure;
  out.failure_line = nesting.failure_line;
  std::vector<std::size_t> top_level;
  for (std::size_t i = 0; i < c.subproblems.size(); ++i) {
    if (nesting.container[i] == Nesting::kTopLevel) top_level.push_back(i);
  }
  Rebuild rebuild{c, bounds, out, {}};
  std::vector<int> prefix;
  std::vector<int> suffix;
  out.rebuilt = rebuild.cover(prefix, suffix, bounds.sides_of(prefix, suffix), top_level);
  for (std::size_t i = 0; i < c.subproblems.size() && out.failure.empty(); ++i) {
    if (nesting.nested[i].empty()) continue;
    prefix = c.subproblems[i].prefix;
    suffix = c.subproblems[i].suffix;
    rebuild.place_nested(prefix, suffix, bounds.sides_of(prefix, suffix), nesting.nested[i],
                         c.subproblems[i]);
  }
  out.count_figure = permutation_count(c, top_level);
  out.counted = out.count_figure == "n!";
  if (!out.counted) {
    rebuild.fail("the subproblems hold " + out.count_figure + " permutations, not n!", 0);
  }
  return out;
}

}  // namespace permbb::audit
