#pragma once
// DeviceCutBuffer: the device memory of a GPU certificate (gpu/warp/device_cut.hpp): the
// record buffer the exploration kernel appends to, its counters and the K IVMs' open
// records. GpuEngine drains it at every synchronisation, so that its records pile up on
// the host (device_cut_records.hpp turns them into cut_record.hpp's), and splits the open
// records when the run collects its cut (a checkpoint, the end).
#include <vector>

#include "cut_record.hpp"
#include "device_buffer.hpp"
#include "device_cut.hpp"

namespace permbb::gpu {

class DeviceCutBuffer {
 public:
  // Throws std::invalid_argument for a depth beyond kMaxGpuCutDepth (split levels stop there),
  // std::runtime_error when the device lacks the memory.
  DeviceCutBuffer(int ivms, int n, const CutRecording& recording);

  const CutBufferView& view() const { return view_; }

  // Appends the records written since the last drain to `out` as written (converted when
  // collected, device_cut_records.hpp) and empties the buffer. Returns true when an IVM
  // stopped short for want of room (its launch did less than asked).
  bool drain(std::vector<DeviceCutRecord>& out);

  // Paused: every open record's part so far to `out`, ended at `ub`, with the IVMs'
  // counters; `reopen`: a new part opens (split_open_records).
  void split_open(const std::vector<unsigned long long>& decomposed,
                  const std::vector<unsigned long long>& leaves, Time ub, bool reopen,
                  std::vector<CutRecord>& out);

 private:
  CutBufferView view_;
  DeviceBuffer<DeviceCutRecord> records_;
  DeviceBuffer<unsigned long long> count_;
  DeviceBuffer<int> interrupted_;
  DeviceBuffer<DeviceOpenCut> open_;
};

}  // namespace permbb::gpu
