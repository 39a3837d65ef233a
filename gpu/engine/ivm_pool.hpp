#pragma once
// IvmPool: the device memory of K IVMs (PoolView's arrays), allocated once per engine. An
// allocation that does not fit throws std::runtime_error naming the memory needed, the
// memory free and the largest K that would fit.
#include <cstdint>
#include <vector>

#include "device_buffer.hpp"
#include "device_types.hpp"

namespace permbb::gpu {

// One IVM's search state copied to the host (for sample_schedules): its row pointer,
// position and directions, and its whole triangular matrix as stored (cell_bytes per cell).
struct IvmCopy {
  int line = 0;
  std::vector<int> pos;
  std::vector<int> dir;
  std::vector<std::int8_t> matrix_bytes;
};

class IvmPool {
 public:
  // lb2: the LB2 kernels' scratch is allocated too (PoolView::lb2_scratch).
  IvmPool(int ivms, int n, int m, const std::vector<int>& min_steal, bool lb2);

  // Device bytes one IVM needs (the sizing of K).
  static long long bytes_per_ivm(int n, int m, bool lb2);

  const PoolView& view() const { return view_; }
  int count() const { return view_.count; }
  int jobs() const { return view_.n; }

  // Every IVM empty, counters kept.
  void clear_states();

  std::vector<int> download_states() const { return state_.download(); }
  std::vector<int> download_positions() const { return pos_.download(); }
  std::vector<int> download_ends() const { return end_.download(); }
  std::vector<int> download_schedule(int ivm) const;
  IvmCopy download_ivm(int ivm) const;
  // Per IVM, the counts of every launch so far (a certificate's open records end there).
  std::vector<unsigned long long> download_decomposed() const { return decomposed_.download(); }
  std::vector<unsigned long long> download_leaves() const { return leaves_.download(); }
  std::uint64_t total_decomposed() const;
  std::uint64_t total_leaves() const;

 private:
  void allocate_all(int ivms, int n, int m, bool lb2);

  PoolView view_;
  DeviceBuffer<int> line_, state_, pos_, end_, dir_;
  DeviceBuffer<std::int8_t> matrix_;
  DeviceBuffer<Time> stack_, bounds_, lb2_scratch_;
  DeviceBuffer<unsigned long long> decomposed_, leaves_;
  DeviceBuffer<int> best_schedule_, claimed_, scratch_, min_steal_;
  DeviceBuffer<double> length_;
};

}  // namespace permbb::gpu
