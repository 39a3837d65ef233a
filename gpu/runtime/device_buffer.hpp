#pragma once
// DeviceBuffer<T>: one cudaMalloc'd array owned RAII-style, with checked copies to and from
// host vectors. Allocation failures are rethrown as std::bad_alloc-free runtime errors by the
// caller (GpuEngine turns cudaErrorMemoryAllocation into a message suggesting a smaller K).
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "cuda_check.hpp"

namespace permbb::gpu {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) { allocate(count); }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }

  // Returns the CUDA error instead of throwing, so callers can explain out-of-memory.
  cudaError_t try_allocate(std::size_t count) {
    release();
    if (count == 0) return cudaSuccess;
    void* p = nullptr;
    const cudaError_t error = cudaMalloc(&p, count * sizeof(T));
    if (error != cudaSuccess) {
      cudaGetLastError();
      return error;
    }
    data_ = static_cast<T*>(p);
    count_ = count;
    return cudaSuccess;
  }

  void allocate(std::size_t count) {
    PERMBB_CUDA_CHECK(try_allocate(count));
  }

  void release() noexcept {
    if (data_ != nullptr) cudaFree(data_);
    data_ = nullptr;
    count_ = 0;
  }

  T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  void upload(const T* host, std::size_t count, std::size_t offset = 0) {
    PERMBB_CUDA_CHECK(cudaMemcpy(data_ + offset, host, count * sizeof(T), cudaMemcpyHostToDevice));
  }
  void upload(const std::vector<T>& host) { upload(host.data(), host.size()); }

  void download(T* host, std::size_t count, std::size_t offset = 0) const {
    PERMBB_CUDA_CHECK(cudaMemcpy(host, data_ + offset, count * sizeof(T), cudaMemcpyDeviceToHost));
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    download(host.data(), count_);
    return host;
  }

  void zero() {
    if (count_ > 0) PERMBB_CUDA_CHECK(cudaMemset(data_, 0, bytes()));
  }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace permbb::gpu
