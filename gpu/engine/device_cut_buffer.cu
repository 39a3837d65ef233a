#include "device_cut_buffer.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "device_cut_records.hpp"

namespace permbb::gpu {

DeviceCutBuffer::DeviceCutBuffer(int ivms, int n, const CutRecording& recording) {
  const int depth = recording.depth;
  // The split levels stop where the device's paths do (the cut itself must fit: see below).
  const int split_depth = std::min(recording.split_depth, kMaxGpuCutDepth);
  const CutBufferSize size = cut_buffer_size(ivms, n, depth, split_depth);
  const cudaError_t error = records_.try_allocate(size.capacity);
  if (error == cudaErrorMemoryAllocation) {
    throw std::runtime_error("GPU explorer: no device memory for the certificate's records (" +
                             std::to_string(size.capacity * sizeof(DeviceCutRecord) >> 20) +
                             " MiB); try fewer --ivms");
  }
  PERMBB_CUDA_CHECK(error);
  count_.allocate(1);
  count_.zero();
  interrupted_.allocate(1);
  interrupted_.zero();
  open_.allocate(static_cast<std::size_t>(ivms));
  open_.zero();  // no record open
  view_.depth = depth;
  view_.split_depth = split_depth;
  view_.split_nodes = recording.split_nodes;
  view_.records = records_.data();
  view_.capacity = size.capacity;
  view_.reserve = size.reserve;
  view_.count = count_.data();
  view_.interrupted = interrupted_.data();
  view_.open = open_.data();
}

bool DeviceCutBuffer::drain(std::vector<DeviceCutRecord>& out) {
  unsigned long long count = 0;
  int interrupted = 0;
  count_.download(&count, 1);
  interrupted_.download(&interrupted, 1);
  if (count > view_.capacity) {
    throw std::logic_error("GPU certificate: " + std::to_string(count) +
                           " records written into a buffer of " +
                           std::to_string(view_.capacity));
  }
  if (count > 0) {
    const std::size_t had = out.size();
    out.resize(had + count);
    records_.download(out.data() + had, count);
    count_.zero();
  }
  if (interrupted != 0) interrupted_.zero();
  return interrupted != 0;
}

void DeviceCutBuffer::split_open(const std::vector<unsigned long long>& decomposed,
                                 const std::vector<unsigned long long>& leaves, Time ub,
                                 bool reopen, std::vector<CutRecord>& out) {
  std::vector<DeviceOpenCut> open = open_.download();
  split_open_records(open, decomposed, leaves, ub, view_.depth, reopen, out);
  open_.upload(open);
}

}  // namespace permbb::gpu
