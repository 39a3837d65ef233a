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
}

bool starts_with(const CutPath& path, const CutPath& prefix) {
  return path.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), path.begin());
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
  if (static_cast<int>(record.path.size()) > depth_) {
    throw std::logic_error("SearchCut: a record below the cut depth");
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

// Paths in order: a pruned node comes before its descendants, which it absorbs.
CutPartition SearchCut::partition() const {
  CutPartition out;
  out.depth = depth_;
  const CutPath* absorbing = nullptr;
  for (const auto& [path, record] : merged_) {
    if (absorbing != nullptr && starts_with(path, *absorbing)) {
      out.subproblems.back().nodes += record.nodes;
      continue;
    }
    absorbing = nullptr;
    if (!record.pruned && static_cast<int>(path.size()) < depth_) {
      out.nodes_above_cut += record.nodes.decomposed;
      continue;
    }
    CutSubproblem s;
    subproblem_of(path, s.prefix, s.suffix);
    s.pruned = record.pruned;
    s.bound = record.bound;
    s.nodes = record.nodes;
    s.ub_start = record.ub_start;
    s.ub_end = record.ub_end;
    s.best = record.best;
    out.subproblems.push_back(std::move(s));
    if (record.pruned) absorbing = &path;
  }
  return out;
}

}  // namespace permbb
