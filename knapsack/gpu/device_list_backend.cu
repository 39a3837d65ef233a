// The knapsack node list in device memory, levels processed by the kernels of
// knapsack_level_kernels.cu. Two copies of the arrays: each level compacts from one into the other,
// then they swap. Buffers start small and grow geometrically up to max_list_nodes slots, so a
// small instance does not reserve the memory cap.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "device_buffer.hpp"
#include "knapsack_gpu.hpp"
#include "knapsack_level_kernels.hpp"

namespace permbb::knapsack::gpu {
namespace {

using permbb::gpu::DeviceBuffer;

constexpr std::int64_t kInitialSlots = 1024;

template <class T>
void allocate_or_explain(DeviceBuffer<T>& buffer, std::int64_t count) {
  const cudaError_t error = buffer.try_allocate(static_cast<std::size_t>(count));
  if (error == cudaSuccess) return;
  throw std::runtime_error("knapsack GPU list: cannot allocate " +
                           std::to_string(count * sizeof(T) >> 20) + " MiB of device memory (" +
                           cudaGetErrorString(error) +
                           "); lower --memory-fraction or --max-list-nodes");
}

// One copy of the list's arrays in device memory.
class DeviceNodes {
 public:
  explicit DeviceNodes(int words) : words_(words) {}

  std::int64_t slots() const { return slots_; }

  void allocate(std::int64_t slots) {
    release();
    allocate_or_explain(weight_, slots);
    allocate_or_explain(profit_, slots);
    allocate_or_explain(slack_, slots);
    allocate_or_explain(upper_, slots);
    allocate_or_explain(lower_, slots);
    allocate_or_explain(excluded_, slots * words_);
    slots_ = slots;
  }

  void release() {
    weight_.release();
    profit_.release();
    slack_.release();
    upper_.release();
    lower_.release();
    excluded_.release();
    slots_ = 0;
  }

  NodeArrays arrays() const {
    return {weight_.data(), profit_.data(),   slack_.data(), upper_.data(),
            lower_.data(),  excluded_.data(), words_};
  }

  // Host nodes [0, count) to slots [at, at + count).
  void upload(NodeList& from, std::int64_t count, std::int64_t at) {
    if (count == 0) return;
    const NodeArrays host = from.arrays();
    const auto n = static_cast<std::size_t>(count);
    const auto offset = static_cast<std::size_t>(at);
    weight_.upload(host.weight, n, offset);
    profit_.upload(host.profit, n, offset);
    slack_.upload(host.slack, n, offset);
    upper_.upload(host.upper, n, offset);
    lower_.upload(host.lower, n, offset);
    excluded_.upload(host.excluded, n * words_, offset * words_);
  }

  // Slots [first, first + count) to a new host list.
  NodeList download(std::int64_t first, std::int64_t count) const {
    NodeList to(words_);
    to.resize(count);
    if (count == 0) return to;
    const NodeArrays host = to.arrays();
    const auto n = static_cast<std::size_t>(count);
    const auto offset = static_cast<std::size_t>(first);
    weight_.download(host.weight, n, offset);
    profit_.download(host.profit, n, offset);
    slack_.download(host.slack, n, offset);
    upper_.download(host.upper, n, offset);
    lower_.download(host.lower, n, offset);
    excluded_.download(host.excluded, n * words_, offset * words_);
    return to;
  }

  // Slots [0, count) of `other` to [0, count) here.
  void copy_prefix_from(const DeviceNodes& other, std::int64_t count) {
    const NodeArrays from = other.arrays();
    const NodeArrays to = arrays();
    const auto n = static_cast<std::size_t>(count);
    copy(to.weight, from.weight, n);
    copy(to.profit, from.profit, n);
    copy(to.slack, from.slack, n);
    copy(to.upper, from.upper, n);
    copy(to.lower, from.lower, n);
    copy(to.excluded, from.excluded, n * words_);
  }

 private:
  template <class T>
  static void copy(T* to, const T* from, std::size_t count) {
    if (count > 0) {
      PERMBB_CUDA_CHECK(cudaMemcpy(to, from, count * sizeof(T), cudaMemcpyDeviceToDevice));
    }
  }

  int words_;
  std::int64_t slots_ = 0;
  DeviceBuffer<std::int64_t> weight_, profit_, upper_, lower_;
  DeviceBuffer<std::int32_t> slack_;
  DeviceBuffer<std::uint64_t> excluded_;
};

class DeviceListBackend final : public LevelListBackend {
 public:
  DeviceListBackend(const ItemTable& items, const DeviceListOptions& options)
      : options_(options), words_(items.words_per_node()), current_(words_), spare_(words_) {
    if (options.max_list_nodes < 2) throw std::invalid_argument("max_list_nodes below 2");
    PERMBB_CUDA_CHECK(cudaSetDevice(options.device));
    upload_items(items);
    state_.allocate(1);
  }

  const char* name() const override { return "gpu"; }
  std::int64_t size() const override { return size_; }

  void assign(NodeList nodes) override {
    size_ = 0;
    reserve(nodes.size());
    current_.upload(nodes, nodes.size(), 0);
    size_ = nodes.size();
  }

  NodeList release() override {
    NodeList out = current_.download(0, size_);
    size_ = 0;
    return out;
  }

  NodeList split_tail(std::int64_t keep) override {
    if (keep >= size_) return NodeList(words_);
    NodeList tail = current_.download(keep, size_ - keep);
    size_ = keep;
    return tail;
  }

  LevelOutcome step(int item, std::int64_t best_lower) override;

 private:
  void upload_items(const ItemTable& items) {
    allocate_or_explain(profit_, items.count());
    allocate_or_explain(weight_, items.count());
    allocate_or_explain(min_weight_from_, items.count() + 1);
    if (items.count() > 0) {
      profit_.upload(items.profits());
      weight_.upload(items.weights());
    }
    min_weight_from_.upload(items.min_weight_from());
    items_ = {items.count(), items.capacity(), profit_.data(), weight_.data(),
              min_weight_from_.data()};
  }

  // Every buffer to at least `slots` slots (the list itself kept), growing geometrically.
  void reserve(std::int64_t slots) {
    if (slots <= current_.slots()) return;
    const std::int64_t grown = std::max({slots, 2 * current_.slots(), kInitialSlots});
    const std::int64_t target = std::min(grown, std::max(slots, options_.max_list_nodes));
    spare_.release();
    flags_.release();
    positions_.release();
    DeviceNodes larger(words_);
    larger.allocate(target);
    larger.copy_prefix_from(current_, size_);
    std::swap(current_, larger);
    larger.release();
    spare_.allocate(target);
    allocate_or_explain(flags_, target);
    allocate_or_explain(positions_, target);
  }

  NodeRecord record(std::int64_t j) const { return current_.download(j, 1).record(0); }

  DeviceListOptions options_;
  int words_;
  ItemsView items_;
  DeviceBuffer<std::int64_t> profit_, weight_, min_weight_from_;
  DeviceNodes current_;
  DeviceNodes spare_;
  DeviceBuffer<std::uint32_t> flags_, positions_;
  DeviceBuffer<unsigned char> scan_temp_;
  DeviceBuffer<LevelState> state_;
  std::int64_t size_ = 0;
};

// One level, on the default stream; the one synchronisation is the download of the level
// state at the end (and of the witness node when the best lower bound improved).
LevelOutcome DeviceListBackend::step(int item, std::int64_t best_lower) {
  const std::int64_t q = size_;
  if (q == 0) return {best_lower, std::nullopt};
  const std::int64_t slots = 2 * q;
  reserve(slots);
  const std::size_t temp_bytes = scan_temp_bytes(slots);
  if (temp_bytes > scan_temp_.size())
    allocate_or_explain(scan_temp_, static_cast<std::int64_t>(temp_bytes));

  const NodeArrays nodes = current_.arrays();
  launch_branch(items_, nodes, q, item, nullptr);
  launch_bound(items_, nodes, q, nullptr);
  launch_best_lower(nodes, q, best_lower, state_.data(), nullptr);
  launch_label(nodes, slots, state_.data(), flags_.data(), nullptr);
  scan_flags(scan_temp_.data(), scan_temp_.size(), flags_.data(), positions_.data(), slots,
             nullptr);
  launch_scatter(nodes, spare_.arrays(), slots, flags_.data(), positions_.data(), state_.data(),
                 nullptr);
  LevelState state{};
  state_.download(&state, 1);

  LevelOutcome outcome{state.best_lower, std::nullopt};
  if (state.witness != kNoWitness)
    outcome.witness = record(static_cast<std::int64_t>(state.witness));
  std::swap(current_, spare_);
  size_ = static_cast<std::int64_t>(state.kept);
  return outcome;
}

}  // namespace

std::unique_ptr<LevelListBackend> make_device_list_backend(const ItemTable& items,
                                                           const DeviceListOptions& options) {
  return std::make_unique<DeviceListBackend>(items, options);
}

}  // namespace permbb::knapsack::gpu
