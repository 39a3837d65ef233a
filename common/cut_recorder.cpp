#include "cut_recorder.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace permbb {

int cut_depth_for(int jobs, std::uint64_t max_subproblems) {
  int depth = 0;
  std::uint64_t nodes = 1;  // at depth `depth`: n (n-1) ... (n-depth+1)
  while (depth + 1 <= jobs - 1) {
    const auto factor = static_cast<std::uint64_t>(jobs - depth);
    if (nodes > max_subproblems / factor) break;
    nodes *= factor;
    ++depth;
  }
  return depth;
}

int split_depth_for(int jobs, int depth, int requested) {
  const int wanted = requested > 0 ? requested : depth + kDefaultSplitLevels;
  return std::min(wanted, jobs - 2);
}

CutPath path_of_node(const CutRecorder::View& v, int r) {
  CutPath path;
  path.reserve(static_cast<std::size_t>(r) + 1);
  for (int i = 0; i <= r; ++i) path.push_back(cut_step(ivm::selected_job(v, i), v.dir[i]));
  return path;
}

void CutRecorder::open(CutPath path, const NodeCounters& counters, Time ub) {
  current_ = CutRecord{};
  current_.path = std::move(path);
  current_.ub_start = ub;
  current_.ub_end = ub;
  opened_at_ = counters;
  open_ = true;
}

void CutRecorder::enter_cut_level(const View& v, int r, const NodeCounters& counters, Time ub) {
  if (r + 1 < depth()) {
    CutRecord internal;
    internal.path = path_of_node(v, r);
    internal.nodes.decomposed = 1;
    internal.ub_start = ub;
    internal.ub_end = ub;
    records_.push_back(std::move(internal));
    return;
  }
  open(path_of_node(v, r), counters, ub);
}

void CutRecorder::after_start(const View& v, const NodeCounters& counters, Time ub) {
  if (*v.line + 1 <= depth()) return;
  CutPath path;
  for (int i = 0; i < depth(); ++i) path.push_back(cut_step(ivm::selected_job(v, i), v.dir[i]));
  open(std::move(path), counters, ub);
}

void CutRecorder::note_pruned(const View& v, int r, int cell, Time bound) {
  CutRecord pruned;
  pruned.path.reserve(static_cast<std::size_t>(r) + 1);
  for (int i = 0; i < r; ++i) pruned.path.push_back(cut_step(ivm::selected_job(v, i), v.dir[i]));
  pruned.path.push_back(cut_step(ivm::job_of(ivm::row(v, r)[cell]), v.dir[r]));
  pruned.pruned = true;
  pruned.bound = bound;
  if (settings_.faults.corrupt_bound && fire_fault()) {
    pruned.bound += 1;
  }
  records_.push_back(std::move(pruned));
}

NodeCounters CutRecorder::close(const NodeCounters& counters) {
  NodeCounters extra;
  if (!open_) return extra;
  open_ = false;
  current_.nodes.decomposed = counters.decomposed - opened_at_.decomposed;
  current_.nodes.leaves = counters.leaves - opened_at_.leaves;
  if (settings_.faults.count_twice && current_.nodes.decomposed >= 2 && fire_fault()) {
    // As if the subtree had been explored twice: recorded twice and counted twice.
    extra = current_.nodes;
    records_.push_back(current_);
  }
  records_.push_back(std::move(current_));
  return extra;
}

std::vector<CutRecord> CutRecorder::take() {
  std::vector<CutRecord> out;
  out.swap(records_);
  return out;
}

NodeCounters CutRecorder::split(const NodeCounters& committed, bool uncommitted_dive,
                                bool continues) {
  if (!open_ || open_part_uncommitted(committed, uncommitted_dive)) return {};
  CutPath path = current_.path;
  const Time ub = current_.ub_end;  // never below the bound in force from here on
  const NodeCounters extra = close(committed);
  if (continues) {
    NodeCounters reopened_at = committed;
    reopened_at += extra;
    open(std::move(path), reopened_at, ub);
  }
  return extra;
}

// Opened at or after the first uncommitted node: the whole part is uncommitted. (Without
// an uncommitted dive an empty part is still taken: its node may hold no other record.)
bool CutRecorder::open_part_uncommitted(const NodeCounters& committed,
                                        bool uncommitted_dive) const {
  return uncommitted_dive && opened_at_.decomposed >= committed.decomposed;
}

// A node above D decomposed in the dive a settle() left uncommitted: on the path `v` points
// at, at depth >= `first_uncommitted_depth`. (Pruned records of its children may stay: a
// pruned node's records merge into one, whoever repeats them.)
bool CutRecorder::on_uncommitted_path(const CutRecord& r, const View& v,
                                      int first_uncommitted_depth) const {
  const int d = static_cast<int>(r.path.size());
  return !r.pruned && d >= first_uncommitted_depth && d < depth() && d <= *v.line &&
         r.path == path_of_node(v, d - 1);
}

std::vector<CutRecord> CutRecorder::take_committed(const View& v, int first_uncommitted_depth) {
  std::vector<CutRecord> out;
  std::vector<CutRecord> kept;
  for (CutRecord& r : records_) {
    (on_uncommitted_path(r, v, first_uncommitted_depth) ? kept : out).push_back(std::move(r));
  }
  records_.swap(kept);
  return out;
}

void CutRecorder::drop_uncommitted(const View& v, int first_uncommitted_depth,
                                   const NodeCounters& committed) {
  if (open_ && open_part_uncommitted(committed, true)) open_ = false;
  std::erase_if(records_, [&](const CutRecord& r) {
    return on_uncommitted_path(r, v, first_uncommitted_depth);
  });
}

}  // namespace permbb
