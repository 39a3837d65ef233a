#pragma once
// The host's side of the GPU's certificate records (gpu/warp/device_cut.hpp), plain C++ so
// that GpuEngine and the emulated engine of the CPU tests share it: the records as
// cut_record.hpp holds them, the open records split at a checkpoint, and the buffer's size.
#include <vector>

#include "cut_record.hpp"
#include "device_cut.hpp"

namespace permbb::gpu {

CutRecord to_cut_record(const DeviceCutRecord& record);

// CutRecorder::split for every IVM, while the engine is paused: each open record's part so
// far (up to the IVM's counters `decomposed` and `leaves`), and that of each of its open levels
// below D, goes to `out` with `ub` as its end bound and, with `reopen`, a new part of the
// same node opens there (a checkpoint);
// without, the records close and every mark left to the cut pass is forgotten (the IVMs'
// work is replaced). Records of one node add up.
void split_open_records(std::vector<DeviceOpenCut>& open,
                        const std::vector<unsigned long long>& decomposed,
                        const std::vector<unsigned long long>& leaves, Time ub, int depth,
                        bool reopen, std::vector<CutRecord>& out);

// The record buffer for `ivms` IVMs of n jobs recording at `depth` (and split levels down to
// `split_depth`): twice what every IVM may
// write between two looks at the buffer (device_cut.hpp), so that a drain per
// synchronisation leaves it mostly empty. Throws std::invalid_argument for a depth the GPU
// cannot record (kMaxGpuCutDepth).
struct CutBufferSize {
  unsigned long long capacity = 0;
  unsigned long long reserve = 0;
};
CutBufferSize cut_buffer_size(int ivms, int n, int depth, int split_depth);

}  // namespace permbb::gpu
