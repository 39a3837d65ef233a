#include "device_cut_records.hpp"

#include <stdexcept>
#include <string>

namespace permbb::gpu {

CutRecord to_cut_record(const DeviceCutRecord& record) {
  CutRecord out;
  out.path.assign(record.path, record.path + record.length);
  out.pruned = record.kind == kCutPruned;
  out.bound = record.bound;
  out.nodes.decomposed = record.decomposed;
  out.nodes.leaves = record.leaves;
  out.ub_start = record.ub_start;
  out.ub_end = record.ub_end;
  out.best = record.best;
  return out;
}

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

CutBufferSize cut_buffer_size(int ivms, int n, int depth) {
  if (depth < 0 || depth > kMaxGpuCutDepth) {
    throw std::invalid_argument("the GPU explorer records cuts up to depth " +
                                std::to_string(kMaxGpuCutDepth) + "; this one is at depth " +
                                std::to_string(depth) +
                                " (fewer --certificate-subproblems, or --no-gpu)");
  }
  CutBufferSize size;
  size.reserve = static_cast<unsigned long long>(ivms) *
                 static_cast<unsigned long long>(cut_records_per_ivm(n, depth));
  size.capacity = 2 * size.reserve + (1ULL << 16);
  return size;
}

}  // namespace permbb::gpu
