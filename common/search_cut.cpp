#include "search_cut.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace permbb {
namespace {

void merge_into(CutRecord& into, const CutRecord& record) {
  if (record.pruned) {
    into.bound = into.pruned ? std::min(into.bound, record.bound) : record.bound;
    into.pruned = true;
  }
  // A pruned record leaves the bounds at 0 and infinity, which neither max nor min keeps.
  into.ub_start = std::max(into.ub_start, record.ub_start);
  into.ub_end = std::min(into.ub_end, record.ub_end);
  into.nodes += record.nodes;
  into.best = std::min(into.best, record.best);
  into.entered = into.entered || record.entered;
}

bool starts_with(const CutPath& path, const CutPath& prefix) {
  return path.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), path.begin());
}

// A node as the certificate writes it (prefix | suffix, jobs from 1), for messages.
std::string node_text(const CutPath& path) {
  std::vector<int> prefix;
  std::vector<int> suffix;
  subproblem_of(path, prefix, suffix);
  std::string out;
  for (const int job : prefix) out += std::to_string(job + 1) + ' ';
  out += '|';
  for (const int job : suffix) out += ' ' + std::to_string(job + 1);
  return out;
}

}  // namespace

void subproblem_of(const CutPath& path, std::vector<int>& prefix, std::vector<int>& suffix) {
  prefix.clear();
  suffix.clear();
  for (const std::int16_t step : path) {
    (step_direction(step) == 0 ? prefix : suffix).push_back(step_job(step));
  }
  std::reverse(suffix.begin(), suffix.end());  // each back job went before the suffix
}

void SearchCut::add(const CutRecord& record) {
  // Below D explorers record only explored parts, which the explored record at D above
  // them counts: a pruned one there is a broken recording.
  if (record.pruned && static_cast<int>(record.path.size()) > depth_) {
    throw std::logic_error("SearchCut: a pruned record below the cut depth: " +
                           node_text(record.path));
  }
  const auto [at, inserted] = merged_.try_emplace(record.path, record);
  if (!inserted) merge_into(at->second, record);
}

void SearchCut::add(const std::vector<CutRecord>& records) {
  for (const CutRecord& record : records) add(record);
}

CutRecords SearchCut::snapshot() const {
  CutRecords out;
  out.depth = depth_;
  out.records.reserve(merged_.size());
  for (const auto& [path, record] : merged_) out.records.push_back(record);
  return out;
}

void SearchCut::add(const CutRecords& cut) {
  if (cut.depth != depth_) {
    throw std::invalid_argument("SearchCut: records at depth " + std::to_string(cut.depth) +
                                " added to a cut at depth " + std::to_string(depth_));
  }
  add(cut.records);
}

std::optional<SearchCut> search_cut_of(const std::optional<CutRecords>& records) {
  if (!records) return std::nullopt;
  SearchCut cut(records->depth);
  cut.add(*records);
  return cut;
}

std::optional<CutRecords> snapshot_of(const std::optional<SearchCut>& cut) {
  if (!cut) return std::nullopt;
  return cut->snapshot();
}

namespace {

// A node of the cut before merging: an inner node (decomposed above the depth), a
// subproblem (explored at the depth, or pruned with what it absorbed below it), or a nested
// record (explored below the depth).
struct CutNode {
  CutPath path;
  CutRecord record;
  bool inner = false;
  bool nested = false;
};

// Paths in order: a pruned node comes before its descendants, which it absorbs. Its surplus
// adds their records at depth <= D only: a nested record's nodes are counted already in the
// record at D above it (the same explorer's). Nested records lighter than `fold_below`, or
// of a node no explorer entered (CutRecord::entered), are left out: the records above them
// count their nodes.
std::vector<CutNode> cut_nodes(const std::map<CutPath, CutRecord>& merged, int depth,
                               std::uint64_t fold_below) {
  std::vector<CutNode> out;
  const CutPath* absorbing = nullptr;
  for (const auto& [path, record] : merged) {
    const int length = static_cast<int>(path.size());
    if (absorbing != nullptr && starts_with(path, *absorbing)) {
      if (length <= depth) out.back().record.nodes += record.nodes;
      continue;
    }
    absorbing = record.pruned ? &path : nullptr;
    if (length > depth && (record.nodes.decomposed < fold_below || !record.entered)) continue;
    out.push_back({path, record, !record.pruned && length < depth, length > depth});
  }
  return out;
}

// Per inner node, its whole subtree as one explored record (counts added, the upper bounds'
// widest range, down to its pruned nodes' bounds, the best makespan), and whether it may
// stand as one subproblem: not when a pruned node below it absorbed a surplus, which an audit
// would not find by exploring, nor when it holds a nested record (the simplest rule: its
// nodes are in the totals of the records at D, and it stays nested in one of them).
struct Subtree {
  CutRecord total;
  bool mergeable = true;
};

std::vector<Subtree> subtrees(const std::vector<CutNode>& nodes) {
  std::vector<Subtree> out(nodes.size());
  std::vector<std::size_t> open;  // the inner nodes above the current one
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    while (!open.empty() && !starts_with(nodes[i].path, nodes[open.back()].path)) open.pop_back();
    const CutRecord& record = nodes[i].record;
    const bool surplus = record.pruned && record.nodes != NodeCounters{};
    for (const std::size_t above : open) {
      out[above].mergeable = out[above].mergeable && !surplus && !nodes[i].nested;
      if (nodes[i].nested) continue;
      if (record.pruned) {
        // Pruned under whatever bound was in force then, which the record does not keep: a
        // replay after a split may prune it later, at a lower bound than its parent saw. The
        // subtree's range reaches down to its bound, where the audit's re-exploration at
        // the range's end prunes it too (bounds only fall, so the start still holds).
        out[above].total.ub_end = std::min(out[above].total.ub_end, record.bound);
      } else {
        merge_into(out[above].total, record);
      }
    }
    if (nodes[i].inner) {
      out[i].total = record;
      open.push_back(i);
    }
  }
  return out;
}

// Takes a nested record's total from the explored record nearest above it.
void take_nested(CutNode& outer, const CutNode& nested) {
  const NodeCounters& part = nested.record.nodes;
  if (outer.record.nodes.decomposed < part.decomposed ||
      outer.record.nodes.leaves < part.leaves) {
    throw std::logic_error("SearchCut: the records nested in " + node_text(outer.path) +
                           " count more nodes or leaves than it");
  }
  outer.record.nodes.decomposed -= part.decomposed;
  outer.record.nodes.leaves -= part.leaves;
}

// Each explored record less the totals of the nested records nearest below it, written as
// subproblems of their own: every node is then counted once. In path order a record comes
// before what is nested in it, so it is still whole when taken from the one above it.
void make_exclusive(std::vector<CutNode>& nodes) {
  std::vector<std::size_t> open;  // the explored records above the current one
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    while (!open.empty() && !starts_with(nodes[i].path, nodes[open.back()].path)) open.pop_back();
    if (nodes[i].nested) {
      if (open.empty()) {
        throw std::logic_error("SearchCut: a nested record under no explored record at D: " +
                               node_text(nodes[i].path));
      }
      take_nested(nodes[open.back()], nodes[i]);
    }
    if (!nodes[i].inner && !nodes[i].record.pruned) open.push_back(i);
  }
}

// A nested record's end bound is at most that of the explored record nearest above it (its
// container). A start whose replay stopped at a pruned node pruned with it the rest of every
// node below it that the start lay in, at the start's bound, and no explorer names those
// nodes (no replay reaches them); the parts of the nodes above the pruned one, which the
// start opened at that bound, carry it (docs/audit.md, "Split where heavy"). Applied down
// the paths in order, so a container is bounded before what it holds.
void bound_nested_by_containers(std::vector<CutNode>& nodes) {
  std::vector<std::size_t> open;  // the explored records above the current one
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    while (!open.empty() && !starts_with(nodes[i].path, nodes[open.back()].path)) open.pop_back();
    if (nodes[i].nested && !open.empty()) {
      Time& ub_end = nodes[i].record.ub_end;
      ub_end = std::min(ub_end, nodes[open.back()].record.ub_end);
    }
    if (!nodes[i].inner && !nodes[i].record.pruned) open.push_back(i);
  }
}

CutSubproblem subproblem_from(const CutPath& path, const CutRecord& record) {
  CutSubproblem s;
  subproblem_of(path, s.prefix, s.suffix);
  s.pruned = record.pruned;
  s.bound = record.bound;
  s.nodes = record.nodes;
  s.ub_start = record.ub_start;
  s.ub_end = record.ub_end;
  s.best = record.best;
  return s;
}

}  // namespace

CutPartition SearchCut::partition(std::uint64_t merge_up_to, std::uint64_t fold_below) const {
  CutPartition out;
  out.depth = depth_;
  std::vector<CutNode> nodes = cut_nodes(merged_, depth_, fold_below);
  const std::vector<Subtree> trees = merge_up_to > 0 ? subtrees(nodes) : std::vector<Subtree>{};
  make_exclusive(nodes);  // after the subtrees' totals, which add the records at D whole
  bound_nested_by_containers(nodes);
  const CutPath* merged_below = nullptr;  // the last inner node made one subproblem
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const CutNode& node = nodes[i];
    if (merged_below != nullptr && starts_with(node.path, *merged_below)) continue;
    merged_below = nullptr;
    if (!node.inner) {
      out.subproblems.push_back(subproblem_from(node.path, node.record));
      continue;
    }
    const bool merge = merge_up_to > 0 && !node.path.empty() && trees[i].mergeable &&
                       trees[i].total.nodes.decomposed <= merge_up_to;
    if (!merge) {
      out.nodes_above_cut += node.record.nodes.decomposed;
      continue;
    }
    out.subproblems.push_back(subproblem_from(node.path, trees[i].total));
    merged_below = &node.path;
  }
  return out;
}

}  // namespace permbb
