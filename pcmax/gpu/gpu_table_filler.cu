#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <memory>
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
#include "device_level_buckets.hpp"
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

// A device array that only grows: kept from table to table and round to round, since
// cudaMalloc costs time and cudaFree waits for the whole device, stalling the round's other
// tables on their streams.
template <class T>
class GrowingBuffer {
 public:
  T* reserve(std::size_t count) {
    if (buffer_.size() < count && buffer_.try_allocate(count) != cudaSuccess) {
      throw DeviceMemoryShort("cudaMalloc of " + format_bytes(count * sizeof(T)) + " failed");
    }
    return buffer_.data();
  }
  std::uint64_t bytes() const { return buffer_.bytes(); }
  void release() { buffer_.release(); }

 private:
  DeviceBuffer<T> buffer_;
};

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
const T* upload(GrowingBuffer<T>& buffer, const T* host, std::size_t count, cudaStream_t stream) {
  T* device = buffer.reserve(count);
  if (count > 0) {
    PERMBB_CUDA_CHECK(
        cudaMemcpyAsync(device, host, count * sizeof(T), cudaMemcpyHostToDevice, stream));
  }
  return device;
}

// What the i-th table of a round uses on the device: its stream, the problem (shape and
// configurations), the resident entries, the block's level buckets.
struct TableSlot {
  Stream stream;
  GrowingBuffer<std::uint32_t> extents, units, config_begin, config_entries;
  GrowingBuffer<std::uint64_t> strides, config_offsets;
  GrowingBuffer<unsigned char> resident;
  GrowingBuffer<std::uint32_t> states;
  GrowingBuffer<unsigned long long> level_counts;

  std::uint64_t bytes() const {
    return extents.bytes() + units.bytes() + config_begin.bytes() + config_entries.bytes() +
           strides.bytes() + config_offsets.bytes() + resident.bytes() + states.bytes() +
           level_counts.bytes();
  }

  void release() {
    extents.release(), units.release(), config_begin.release(), config_entries.release();
    strides.release(), config_offsets.release(), resident.release(), states.release();
    level_counts.release();
  }

  // Before a table that needs `bytes` more: a buffer that grows frees its old array first, so
  // what the slot keeps plus what the table needs bounds the slot's memory. When that passes
  // the table's budget (--gpu-memory-limit, or its share of the free memory) the slot starts
  // empty: buffers shaped for an earlier table must not push this one off the device.
  void make_room(std::uint64_t bytes_needed, std::uint64_t budget) {
    if (bytes() + bytes_needed > budget) release();
  }
};

// The shape and the configurations in the slot's device memory, and views of them.
class DeviceProblem {
 public:
  DeviceProblem(const DpProblem& problem, TableSlot& slot) {
    const cudaStream_t stream = slot.stream.get();
    const TableShapeView shape = problem.shape.view();
    const ConfigSetView configs = problem.configs.view();
    const std::size_t dims = static_cast<std::size_t>(shape.dims);
    const auto count = static_cast<std::size_t>(configs.count);
    shape_ = TableShapeView{shape.dims, upload(slot.extents, shape.extents, dims, stream),
                            upload(slot.units, shape.units, dims, stream),
                            upload(slot.strides, shape.strides, dims, stream), shape.capacity};
    configs_ = ConfigSetView{
        configs.count, upload(slot.config_begin, configs.begin, count + 1, stream),
        upload(slot.config_entries, configs.entries, configs.begin[count], stream),
        upload(slot.config_offsets, configs.offsets, count, stream)};
  }

  static std::uint64_t bytes(const DpProblem& problem) {
    return 4 * sizeof(std::uint64_t) * static_cast<std::uint64_t>(problem.shape.dims()) +
           problem.configs.bytes();
  }

  const TableShapeView& shape() const { return shape_; }
  const ConfigSetView& configs() const { return configs_; }

 private:
  TableShapeView shape_;
  ConfigSetView configs_;
};

// run_blocked_fill's device side: a block's states are bucketed by level on the device, its
// levels run as kernels on the slot's stream, its entries come down to the host table.
template <class Entry>
class DeviceBackend {
 public:
  DeviceBackend(const DpProblem& problem, const DeviceProblem& device, const PartitionPlan& plan,
                Entry* host_table, TableSlot& slot)
      : device_(device),
        plan_(plan),
        limit_(problem.limit),
        top_level_(top_level(problem.shape)),
        host_(host_table),
        stream_(slot.stream.get()),
        resident_(reinterpret_cast<Entry*>(slot.resident.reserve(plan.window * sizeof(Entry)))),
        states_(slot.states.reserve(plan.block_states)),
        level_counts_(slot.level_counts.reserve(top_level_ + 1)) {}

  std::vector<std::uint64_t> start_block(std::uint64_t begin, std::uint64_t end) {
    block_begin_ = begin;
    return bucket_levels_on_device(device_.shape(), begin, end, top_level_, states_,
                                   level_counts_, stream_);
  }

  // Launches return at once: left alone, the host would queue all of a block's levels before
  // the first ran, and a stop (polled between launches, run_blocked_fill) would wait for the
  // whole block, seconds for 2^28 states. Waiting for the device once per kSyncStates states
  // queued bounds that to a few levels, at one synchronisation per millions of states.
  void run_level(std::uint64_t first, std::uint64_t count) {
    launch_dp_level<Entry>(device_.shape(), device_.configs(), states_ + first, count,
                           block_begin_, resident_, plan_.mask, limit_, stream_);
    queued_states_ += count;
    if (queued_states_ >= kSyncStates) {
      PERMBB_CUDA_CHECK(cudaStreamSynchronize(stream_));
      queued_states_ = 0;
    }
  }

  // Synchronous: the next block's buckets reuse the states array.
  void finish_block(std::uint64_t begin, std::uint64_t end) {
    for (const RingRun& run : ring_runs(plan_, begin, end)) {
      PERMBB_CUDA_CHECK(cudaMemcpyAsync(host_ + run.first_index, resident_ + run.first_slot,
                                        run.count * sizeof(Entry), cudaMemcpyDeviceToHost,
                                        stream_));
    }
    PERMBB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    queued_states_ = 0;
  }

 private:
  const DeviceProblem& device_;
  const PartitionPlan& plan_;
  std::uint32_t limit_;
  std::uint64_t top_level_;
  Entry* host_;
  cudaStream_t stream_;
  Entry* resident_;
  std::uint32_t* states_;
  unsigned long long* level_counts_;
  std::uint64_t block_begin_ = 0;
  static constexpr std::uint64_t kSyncStates = std::uint64_t{1} << 22;
  std::uint64_t queued_states_ = 0;  // launched since the device was last waited for
};

class GpuTableFiller : public TableFiller {
 public:
  explicit GpuTableFiller(const GpuFillerOptions& options) : options_(options) {}

  std::string name() const override { return "gpu"; }
  int threads() const override { return 0; }

  void fill(std::vector<DpWork>& batch) override {
    if (batch.empty()) return;
    PERMBB_CUDA_CHECK(cudaSetDevice(options_.device));
    slots_.resize(batch.size());  // slots of a larger earlier round go
    for (auto& slot : slots_) {
      if (!slot) slot = std::make_unique<TableSlot>();
    }
    const std::uint64_t per_table = memory_budget() / batch.size();
    if (batch.size() == 1) {
      fill_one(batch[0], per_table, *slots_[0]);
      return;
    }
    std::vector<std::exception_ptr> errors(batch.size());
    std::vector<std::thread> workers;  // one host thread (and stream) per table
    for (std::size_t i = 0; i < batch.size(); ++i) {
      workers.emplace_back([&, i] {
        try {
          fill_one(batch[i], per_table, *slots_[i]);
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
  // The device memory the round's tables may use: the limit given, or the free memory less a
  // margin, counting what the slots hold as free (they are reused or released).
  std::uint64_t memory_budget() const {
    if (options_.memory_limit_bytes != 0) return options_.memory_limit_bytes;
    std::size_t free = 0;
    std::size_t total = 0;
    PERMBB_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    std::uint64_t available = free;
    for (const auto& slot : slots_) available += slot->bytes();
    const std::uint64_t margin =
        std::max<std::uint64_t>(available / 10, std::uint64_t{256} << 20);
    return available > margin ? available - margin : 0;
  }

  void fill_one(DpWork& work, std::uint64_t budget, TableSlot& slot) const {
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
        slot.make_room(fixed + plan->bytes, budget);
        fill_on_device(work, *plan, slot);
      } catch (const DeviceMemoryShort& e) {
        slot.release();
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

  static void fill_on_device(DpWork& work, const PartitionPlan& plan, TableSlot& slot) {
    const DeviceProblem device(*work.problem, slot);
    with_entries(*work.table, [&](auto* host) {
      using Entry = std::remove_pointer_t<decltype(host)>;
      DeviceBackend<Entry> backend(*work.problem, device, plan, host, slot);
      run_blocked_fill(work.problem->shape, plan, backend, work.control);  // stops between levels
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
        options_.fallback_threads < 1 ? default_threads() : options_.fallback_threads,
        kDefaultBlockStates, work.control);
    work.report.device = "cpu-fallback";
    work.report.blocks = 1;
    work.report.window = work.problem->shape.size();
    work.report.note = what + ": computed on the CPU";
  }

  GpuFillerOptions options_;
  std::vector<std::unique_ptr<TableSlot>> slots_;  // slot i serves the i-th table of a round
};

}  // namespace

std::unique_ptr<TableFiller> make_gpu_table_filler(const GpuFillerOptions& options) {
  return std::make_unique<GpuTableFiller>(options);
}

}  // namespace permbb::pcmax::gpu
