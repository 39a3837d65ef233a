#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "blocked_fill.hpp"
#include "cpu_dp.hpp"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "dp_level_kernel.hpp"
#include "gpu_table_filler.hpp"
#include "input_error.hpp"
#include "level_buckets.hpp"
#include "memory_budget.hpp"
#include "partition_plan.hpp"

namespace permbb::pcmax::gpu {
namespace {

using permbb::gpu::DeviceBuffer;

// Device memory ran out although the plan fitted the budget (another process took some):
// the table goes to the CPU like one whose plan did not fit.
class DeviceMemoryShort : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <class T>
void allocate(DeviceBuffer<T>& buffer, std::size_t count) {
  if (buffer.try_allocate(count) != cudaSuccess) {
    throw DeviceMemoryShort("cudaMalloc of " + format_bytes(count * sizeof(T)) + " failed");
  }
}

// A stream that does not wait for the legacy default stream (nor it for this one), so the
// targets of a round, each on its own stream, run side by side.
class Stream {
 public:
  Stream() { PERMBB_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(stream_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

template <class T>
void upload(DeviceBuffer<T>& buffer, const T* host, std::size_t count, cudaStream_t stream) {
  allocate(buffer, count);
  if (count > 0) {
    PERMBB_CUDA_CHECK(
        cudaMemcpyAsync(buffer.data(), host, count * sizeof(T), cudaMemcpyHostToDevice, stream));
  }
}

// The shape and the configurations in device memory, and views of them.
class DeviceProblem {
 public:
  DeviceProblem(const DpProblem& problem, cudaStream_t stream) {
    const TableShapeView shape = problem.shape.view();
    const ConfigSetView configs = problem.configs.view();
    const std::size_t dims = static_cast<std::size_t>(shape.dims);
    upload(extents_, shape.extents, dims, stream);
    upload(units_, shape.units, dims, stream);
    upload(strides_, shape.strides, dims, stream);
    upload(begin_, configs.begin, static_cast<std::size_t>(configs.count) + 1, stream);
    upload(entries_, configs.entries, configs.begin[configs.count], stream);
    upload(offsets_, configs.offsets, static_cast<std::size_t>(configs.count), stream);
    shape_ =
        TableShapeView{shape.dims, extents_.data(), units_.data(), strides_.data(), shape.capacity};
    configs_ = ConfigSetView{configs.count, begin_.data(), entries_.data(), offsets_.data()};
  }

  static std::uint64_t bytes(const DpProblem& problem) {
    return 4 * sizeof(std::uint64_t) * static_cast<std::uint64_t>(problem.shape.dims()) +
           problem.configs.bytes();
  }

  const TableShapeView& shape() const { return shape_; }
  const ConfigSetView& configs() const { return configs_; }

 private:
  DeviceBuffer<std::uint32_t> extents_, units_, begin_, entries_;
  DeviceBuffer<std::uint64_t> strides_, offsets_;
  TableShapeView shape_;
  ConfigSetView configs_;
};

// run_blocked_fill's device side: a block's states go up, its levels run as kernels on the
// stream, its entries come down to the host table.
template <class Entry>
class DeviceBackend {
 public:
  DeviceBackend(const DpProblem& problem, const DeviceProblem& device, const PartitionPlan& plan,
                Entry* host_table, cudaStream_t stream)
      : device_(device), plan_(plan), limit_(problem.limit), host_(host_table), stream_(stream) {
    allocate(resident_, plan.window);
    allocate(states_, plan.block_states);
  }

  void start_block(const LevelBuckets& buckets) {
    PERMBB_CUDA_CHECK(cudaMemcpyAsync(states_.data(), buckets.states.data(),
                                      buckets.states.size() * sizeof(std::uint32_t),
                                      cudaMemcpyHostToDevice, stream_));
  }

  void run_level(const LevelBuckets& buckets, std::uint64_t first, std::uint64_t count) {
    launch_dp_level<Entry>(device_.shape(), device_.configs(), states_.data() + first, count,
                           buckets.first_state, resident_.data(), plan_.mask, limit_, stream_);
  }

  // Synchronous: the block's buckets (host memory) die when this returns.
  void finish_block(std::uint64_t begin, std::uint64_t end) {
    for (const RingRun& run : ring_runs(plan_, begin, end)) {
      PERMBB_CUDA_CHECK(cudaMemcpyAsync(host_ + run.first_index, resident_.data() + run.first_slot,
                                        run.count * sizeof(Entry), cudaMemcpyDeviceToHost,
                                        stream_));
    }
    PERMBB_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

 private:
  const DeviceProblem& device_;
  const PartitionPlan& plan_;
  std::uint32_t limit_;
  Entry* host_;
  cudaStream_t stream_;
  DeviceBuffer<Entry> resident_;
  DeviceBuffer<std::uint32_t> states_;
};

class GpuTableFiller : public TableFiller {
 public:
  explicit GpuTableFiller(const GpuFillerOptions& options) : options_(options) {}

  std::string name() const override { return "gpu"; }
  int threads() const override { return 0; }

  void fill(std::vector<DpWork>& batch) override {
    if (batch.empty()) return;
    const std::uint64_t per_table = memory_budget() / batch.size();
    if (batch.size() == 1) {
      fill_one(batch[0], per_table);
      return;
    }
    std::vector<std::exception_ptr> errors(batch.size());
    std::vector<std::thread> workers;  // one host thread (and stream) per table
    for (std::size_t i = 0; i < batch.size(); ++i) {
      workers.emplace_back([&, i] {
        try {
          fill_one(batch[i], per_table);
        } catch (...) {
          errors[i] = std::current_exception();
        }
      });
    }
    for (auto& worker : workers) worker.join();
    for (const auto& error : errors) {
      if (error) std::rethrow_exception(error);
    }
  }

 private:
  std::uint64_t memory_budget() const {
    if (options_.memory_limit_bytes != 0) return options_.memory_limit_bytes;
    PERMBB_CUDA_CHECK(cudaSetDevice(options_.device));
    std::size_t free = 0;
    std::size_t total = 0;
    PERMBB_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    const std::uint64_t margin = std::max<std::uint64_t>(free / 10, std::uint64_t{256} << 20);
    return free > margin ? free - margin : 0;
  }

  void fill_one(DpWork& work, std::uint64_t budget) const {
    const auto start = std::chrono::steady_clock::now();
    PERMBB_CUDA_CHECK(cudaSetDevice(options_.device));
    const DpProblem& problem = *work.problem;
    const std::uint64_t fixed = DeviceProblem::bytes(problem);
    std::optional<PartitionPlan> plan;
    if (fixed < budget) {
      plan = plan_partition(problem.shape.size(), problem.configs.max_offset(),
                            problem.entry_bytes(), top_level(problem.shape), budget - fixed);
    }
    std::string shortage;
    if (!plan) {
      shortage = "needs at least " + format_bytes(fixed + smallest_plan_bytes(problem)) +
                 " of device memory, " + format_bytes(budget) + " available";
    } else {
      try {
        fill_on_device(work, *plan);
      } catch (const DeviceMemoryShort& e) {
        shortage = std::string("did not fit in device memory (") + e.what() + ")";
      }
    }
    if (!shortage.empty()) fall_back(work, shortage);
    work.report.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  // The smallest ring: the first power of two above max_offset, with one-state blocks.
  static std::uint64_t smallest_plan_bytes(const DpProblem& problem) {
    std::uint64_t window = 1;
    while (window <= problem.configs.max_offset()) window <<= 1;
    return plan_bytes(std::min(window, problem.shape.size()), 1, problem.entry_bytes(),
                      top_level(problem.shape));
  }

  void fill_on_device(DpWork& work, const PartitionPlan& plan) const {
    const Stream stream;
    const DeviceProblem device(*work.problem, stream.get());
    with_entries(*work.table, [&](auto* host) {
      using Entry = std::remove_pointer_t<decltype(host)>;
      DeviceBackend<Entry> backend(*work.problem, device, plan, host, stream.get());
      run_blocked_fill(work.problem->shape, plan, backend);
    });
    work.report.device = "gpu";
    work.report.blocks = plan.blocks;
    work.report.window = plan.window;
  }

  void fall_back(DpWork& work, const std::string& shortage) const {
    const std::string what =
        "the DP table of " + std::to_string(work.problem->shape.size()) + " entries " + shortage;
    if (!options_.host_fallback) throw InputError("GPU: " + what);
    fill_table_parallel(
        *work.problem, *work.table,
        options_.fallback_threads < 1 ? default_threads() : options_.fallback_threads);
    work.report.device = "cpu-fallback";
    work.report.blocks = 1;
    work.report.window = work.problem->shape.size();
    work.report.note = what + ": computed on the CPU";
  }

  GpuFillerOptions options_;
};

}  // namespace

std::unique_ptr<TableFiller> make_gpu_table_filler(const GpuFillerOptions& options) {
  return std::make_unique<GpuTableFiller>(options);
}

}  // namespace permbb::pcmax::gpu
