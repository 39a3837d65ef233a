#include "ivm_pool.hpp"

#include <numeric>
#include <stdexcept>
#include <string>

#include "ivm.hpp"

namespace permbb::gpu {
namespace {

int cell_bytes_for(int n) { return n < 128 ? 1 : 2; }

std::string mebibytes(long long bytes) {
  return std::to_string(bytes / (1024 * 1024)) + " MiB";
}

// Allocates `buffer` or throws the out-of-memory explanation.
template <class T>
void allocate_or_explain(DeviceBuffer<T>& buffer, std::size_t count, int ivms, int n, int m,
                         bool lb2) {
  const cudaError_t error = buffer.try_allocate(count);
  if (error == cudaSuccess) return;
  if (error != cudaErrorMemoryAllocation) PERMBB_CUDA_CHECK(error);
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  cudaMemGetInfo(&free_bytes, &total_bytes);
  const long long per_ivm = IvmPool::bytes_per_ivm(n, m, lb2);
  const long long suggested = static_cast<long long>(free_bytes) / 2 / per_ivm;
  throw std::runtime_error(
      "GPU explorer: out of device memory for K = " + std::to_string(ivms) + " IVMs (" +
      mebibytes(per_ivm * ivms) + " needed, " + mebibytes(static_cast<long long>(free_bytes)) +
      " free of " + mebibytes(static_cast<long long>(total_bytes)) + "); try --ivms " +
      std::to_string(suggested / kWarpsPerBlock * kWarpsPerBlock));
}

}  // namespace

long long IvmPool::bytes_per_ivm(int n, int m, bool lb2) {
  const long long ints = 2 + 6LL * n + 1;  // line, state, claimed; pos, end, dir, best, scratch
  const long long times = stack_times(n, m) + kBoundsPerJob * static_cast<long long>(n) +
                          (lb2 ? lb2_scratch_times(n, m) : 0);
  return ints * 4 + times * 4 + ivm::matrix_cells(n) * cell_bytes_for(n) + 3 * 8;
}

IvmPool::IvmPool(int ivms, int n, int m, const std::vector<int>& min_steal, bool lb2) {
  if (ivms <= 0) throw std::invalid_argument("IvmPool: the number of IVMs must be positive");
  allocate_all(ivms, n, m, lb2);
  view_.count = ivms;
  view_.n = n;
  view_.m = m;
  view_.cells = ivm::matrix_cells(n);
  view_.cell_bytes = cell_bytes_for(n);
  view_.line = line_.data();
  view_.state = state_.data();
  view_.pos = pos_.data();
  view_.end = end_.data();
  view_.dir = dir_.data();
  view_.matrix = matrix_.data();
  view_.stack = stack_.data();
  view_.bounds = bounds_.data();
  view_.decomposed = decomposed_.data();
  view_.leaves = leaves_.data();
  view_.best_schedule = best_schedule_.data();
  view_.length = length_.data();
  view_.claimed = claimed_.data();
  view_.scratch = scratch_.data();
  view_.lb2_scratch = lb2 ? lb2_scratch_.data() : nullptr;
  min_steal_.upload(min_steal);
  view_.min_steal = min_steal_.data();
  for (auto* b : {&line_, &state_, &pos_, &end_, &dir_, &claimed_}) b->zero();
  decomposed_.zero();
  leaves_.zero();
}

void IvmPool::allocate_all(int ivms, int n, int m, bool lb2) {
  const std::size_t k = static_cast<std::size_t>(ivms);
  const std::size_t kn = k * static_cast<std::size_t>(n);
  allocate_or_explain(line_, k, ivms, n, m, lb2);
  allocate_or_explain(state_, k, ivms, n, m, lb2);
  allocate_or_explain(pos_, kn, ivms, n, m, lb2);
  allocate_or_explain(end_, kn, ivms, n, m, lb2);
  allocate_or_explain(dir_, kn, ivms, n, m, lb2);
  allocate_or_explain(matrix_, k * ivm::matrix_cells(n) * cell_bytes_for(n), ivms, n, m, lb2);
  allocate_or_explain(stack_, static_cast<std::size_t>(ivms) * stack_times(n, m), ivms, n, m,
                      lb2);
  allocate_or_explain(bounds_, kn * kBoundsPerJob, ivms, n, m, lb2);
  allocate_or_explain(decomposed_, k, ivms, n, m, lb2);
  allocate_or_explain(leaves_, k, ivms, n, m, lb2);
  allocate_or_explain(best_schedule_, kn, ivms, n, m, lb2);
  allocate_or_explain(length_, k, ivms, n, m, lb2);
  allocate_or_explain(claimed_, k, ivms, n, m, lb2);
  allocate_or_explain(scratch_, kn, ivms, n, m, lb2);
  if (lb2) {
    allocate_or_explain(lb2_scratch_, k * lb2_scratch_times(n, m), ivms, n, m, lb2);
  }
  allocate_or_explain(min_steal_, static_cast<std::size_t>(n), ivms, n, m, lb2);
}

void IvmPool::clear_states() { state_.zero(); }

std::vector<int> IvmPool::download_schedule(int ivm) const {
  std::vector<int> schedule(view_.n);
  best_schedule_.download(schedule.data(), schedule.size(),
                          static_cast<std::size_t>(ivm) * view_.n);
  return schedule;
}

IvmCopy IvmPool::download_ivm(int ivm) const {
  const std::size_t n = static_cast<std::size_t>(view_.n);
  const std::size_t at = static_cast<std::size_t>(ivm) * n;
  const std::size_t matrix_bytes = static_cast<std::size_t>(view_.cells) * view_.cell_bytes;
  IvmCopy copy;
  copy.pos.resize(n);
  copy.dir.resize(n);
  copy.matrix_bytes.resize(matrix_bytes);
  line_.download(&copy.line, 1, static_cast<std::size_t>(ivm));
  pos_.download(copy.pos.data(), n, at);
  dir_.download(copy.dir.data(), n, at);
  matrix_.download(copy.matrix_bytes.data(), matrix_bytes,
                   static_cast<std::size_t>(ivm) * matrix_bytes);
  return copy;
}

std::uint64_t IvmPool::total_decomposed() const {
  const auto counts = decomposed_.download();
  return std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
}

std::uint64_t IvmPool::total_leaves() const {
  const auto counts = leaves_.download();
  return std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
}

}  // namespace permbb::gpu
