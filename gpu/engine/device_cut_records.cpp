#include "device_cut_records.hpp"

#include <stdexcept>
#include <string>

namespace permbb::gpu {

CutRecord to_cut_record(const DeviceCutRecord& record) {
  CutRecord out;
  out.path.assign(record.path, record.path + record.length);
  out.pruned = record.kind == kCutPruned;
  out.entered = record.kind != kCutStartedPart;
  out.bound = record.bound;
  out.nodes.decomposed = record.decomposed;
  out.nodes.leaves = record.leaves;
  out.ub_start = record.ub_start;
  out.ub_end = record.ub_end;
  out.best = record.best;
  return out;
}

namespace {

// The part so far of each open level below D (device_cut.hpp, DeviceNestedLevel), whatever
// its size: the parts of a split node are recorded, so that they add up. With `reopen`, the
// levels go on as parts of their nodes; without, they close.
void split_open_levels(DeviceOpenCut& o, unsigned long long decomposed, unsigned long long leaves,
                       Time ub, int depth, bool reopen, std::vector<CutRecord>& out) {
  CutRecord part;
  part.path.assign(o.path, o.path + depth);
  for (int e = depth + 1; e <= kMaxGpuCutDepth && o.nested[e].state != kLevelClosed; ++e) {
    DeviceNestedLevel& level = o.nested[e];
    part.path.push_back(level.step);
    part.nodes.decomposed = decomposed - level.decomposed;
    part.nodes.leaves = leaves - level.leaves;
    part.ub_start = level.ub_start;
    part.ub_end = ub;
    part.best = level.best;
    part.entered = level.state == kLevelOpen;
    out.push_back(part);
    level.state = reopen ? kLevelPart : kLevelClosed;
    level.ub_start = ub;
    level.best = kInfiniteTime;
    level.decomposed = decomposed;
    level.leaves = leaves;
  }
}

}  // namespace

void split_open_records(std::vector<DeviceOpenCut>& open,
                        const std::vector<unsigned long long>& decomposed,
                        const std::vector<unsigned long long>& leaves, Time ub, int depth,
                        bool reopen, std::vector<CutRecord>& out) {
  for (std::size_t i = 0; i < open.size(); ++i) {
    DeviceOpenCut& o = open[i];
    // Work replaced: what was left to the cut pass goes with it (a start whose records
    // wait: the thief is gone, and it counted nothing).
    if (!reopen) o.pending = kPendingNone;
    if (!o.open) continue;
    split_open_levels(o, decomposed[i], leaves[i], ub, depth, reopen, out);
    CutRecord part;
    part.path.assign(o.path, o.path + depth);
    part.nodes.decomposed = decomposed[i] - o.decomposed;
    part.nodes.leaves = leaves[i] - o.leaves;
    part.ub_start = o.ub_start;
    part.ub_end = ub;
    part.best = o.best;
    out.push_back(std::move(part));
    o.open = reopen ? 1 : 0;
    o.pending = kPendingNone;  // a close left to the cut pass is done here
    o.ub_start = ub;
    o.best = kInfiniteTime;
    o.decomposed = decomposed[i];
    o.leaves = leaves[i];
  }
}

CutBufferSize cut_buffer_size(int ivms, int n, int depth, int split_depth) {
  if (depth < 0 || depth > kMaxGpuCutDepth) {
    throw std::invalid_argument("the GPU explorer records cuts up to depth " +
                                std::to_string(kMaxGpuCutDepth) + "; this one is at depth " +
                                std::to_string(depth) +
                                " (fewer --certificate-subproblems, or --no-gpu)");
  }
  if (split_depth > kMaxGpuCutDepth) {
    throw std::invalid_argument("the GPU explorer splits records down to depth " +
                                std::to_string(kMaxGpuCutDepth) + ", not " +
                                std::to_string(split_depth));
  }
  CutBufferSize size;
  size.reserve = static_cast<unsigned long long>(ivms) *
                 static_cast<unsigned long long>(cut_records_per_ivm(n, depth, split_depth));
  size.capacity = 2 * size.reserve + (1ULL << 16);
  return size;
}

}  // namespace permbb::gpu
