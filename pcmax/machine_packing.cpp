#include "machine_packing.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <set>

#include "lower_bounds.hpp"

namespace permbb::pcmax {
namespace {

class Packer {
 public:
  Packer(const PcmaxInstance& instance, Duration capacity, const PackingLimits& limits)
      : instance_(instance), capacity_(capacity), limits_(limits),
        order_(instance.times.size()), loads_(static_cast<std::size_t>(instance.machines), 0),
        machine_of_(instance.times.size(), -1) {
    std::iota(order_.begin(), order_.end(), 0);
    std::stable_sort(order_.begin(), order_.end(),
                     [&](int a, int b) { return instance.times[a] > instance.times[b]; });
    remaining_.assign(order_.size() + 1, 0);
    for (std::size_t i = order_.size(); i-- > 0;) {
      remaining_[i] = remaining_[i + 1] + instance.times[order_[i]];
    }
  }

  PackingResult run() {
    PackingResult result;
    try {
      result.answer = place(0) ? PackingAnswer::kFeasible : PackingAnswer::kInfeasible;
    } catch (const RunStopped&) {
      result.answer = PackingAnswer::kStopped;
    }
    result.nodes = nodes_;
    if (result.answer == PackingAnswer::kFeasible) {
      result.schedule.machine_of_job = machine_of_;
      result.schedule.loads = loads_;
      result.schedule.makespan = *std::max_element(loads_.begin(), loads_.end());
    }
    return result;
  }

 private:
  Duration time_at(std::size_t depth) const { return instance_.times[order_[depth]]; }

  void count_node() {
    ++nodes_;
    if (limits_.max_nodes != 0 && nodes_ >= limits_.max_nodes) throw RunStopped();
    if ((nodes_ & 4095) == 0) throw_if_stopped(limits_.control);
  }

  // The remaining jobs fit in the room of the machines that can take the shortest of them?
  bool room_suffices(std::size_t depth) const {
    const Duration shortest = time_at(order_.size() - 1);
    Duration room = 0;
    for (const Duration load : loads_) {
      if (capacity_ - load >= shortest) room += capacity_ - load;
    }
    return room >= remaining_[depth];
  }

  // Martello & Toth's L2 on the rest of the problem, each machine's load an item of its own
  // (a completion packs those items and the remaining jobs into m bins): more than m, no
  // completion.
  bool bin_packing_bound_allows(std::size_t depth) {
    merged_.clear();
    for (const Duration load : loads_) {
      if (load > 0) merged_.push_back(load);
    }
    std::sort(merged_.begin(), merged_.end(), std::greater<>());
    const std::size_t placed = merged_.size();
    for (std::size_t d = depth; d < order_.size(); ++d) merged_.push_back(time_at(d));
    std::inplace_merge(merged_.begin(), merged_.begin() + static_cast<std::ptrdiff_t>(placed),
                       merged_.end(), std::greater<>());
    return bin_packing_bound(merged_, capacity_) <= static_cast<std::int64_t>(loads_.size());
  }

  // The machines to try for the job at `depth`: one per distinct load, fullest first; only the
  // exact fit when there is one.
  std::vector<int> candidates(Duration t) const {
    std::vector<int> machines;
    for (int i = 0; i < static_cast<int>(loads_.size()); ++i) {
      if (loads_[i] + t == capacity_) return {i};
      if (loads_[i] + t < capacity_) machines.push_back(i);
    }
    std::stable_sort(machines.begin(), machines.end(),
                     [&](int a, int b) { return loads_[a] > loads_[b]; });
    machines.erase(std::unique(machines.begin(), machines.end(),
                               [&](int a, int b) { return loads_[a] == loads_[b]; }),
                   machines.end());
    return machines;
  }

  std::vector<Duration> state_key(std::size_t depth) const {
    std::vector<Duration> key = loads_;
    std::sort(key.begin(), key.end());
    key.push_back(static_cast<Duration>(depth));
    return key;
  }

  bool place(std::size_t depth) {
    if (depth == order_.size()) return true;
    count_node();
    if (!room_suffices(depth)) return false;
    std::vector<Duration> key = state_key(depth);
    if (refused_.count(key) != 0) return false;
    if (!bin_packing_bound_allows(depth)) {
      remember_refused(std::move(key));
      return false;
    }
    const Duration t = time_at(depth);
    for (const int machine : candidates(t)) {
      loads_[machine] += t;
      machine_of_[order_[depth]] = machine;
      if (place(depth + 1)) return true;
      loads_[machine] -= t;
    }
    machine_of_[order_[depth]] = -1;
    remember_refused(std::move(key));
    return false;
  }

  void remember_refused(std::vector<Duration> key) {
    if (refused_.size() < limits_.max_refused_states) refused_.insert(std::move(key));
  }

  const PcmaxInstance& instance_;
  const Duration capacity_;
  const PackingLimits& limits_;
  std::vector<int> order_;           // jobs longest first
  std::vector<Duration> remaining_;  // remaining_[d]: time of the jobs order_[d..]
  std::vector<Duration> loads_;
  std::vector<int> machine_of_;
  std::set<std::vector<Duration>> refused_;
  std::vector<Duration> merged_;  // scratch of bin_packing_bound_allows
  std::uint64_t nodes_ = 0;
};

}  // namespace

PackingResult pack_machines(const PcmaxInstance& instance, Duration capacity,
                            const PackingLimits& limits) {
  return Packer(instance, capacity, limits).run();
}

}  // namespace permbb::pcmax
