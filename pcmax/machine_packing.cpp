#include "machine_packing.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "lower_bounds.hpp"

namespace permbb::pcmax {
namespace {

// Bin completion over the jobs grouped by time: sizes_[i] distinct, longest first; left_[i]
// jobs of that time still unplaced.
class Completion {
 public:
  Completion(const PcmaxInstance& instance, Duration capacity, const PackingLimits& limits)
      : instance_(instance), capacity_(capacity), limits_(limits) {
    std::map<Duration, std::vector<int>, std::greater<>> jobs_by_time;
    for (int j = 0; j < instance.jobs(); ++j) jobs_by_time[instance.times[j]].push_back(j);
    for (auto& [time, jobs] : jobs_by_time) {
      sizes_.push_back(time);
      left_.push_back(static_cast<int>(jobs.size()));
      jobs_of_size_.push_back(std::move(jobs));
    }
    taken_.assign(sizes_.size(), 0);
    // Each refused state holds one count per distinct time: at most about 2^28 counts kept.
    refused_capacity_ = std::min(limits.max_refused_states,
                                 (std::size_t{1} << 28) / (sizes_.size() + 1) + 1);
  }

  PackingResult run() {
    PackingResult result;
    try {
      const bool fits = sizes_.front() <= capacity_ && fill(instance_.machines);
      result.answer = fits ? PackingAnswer::kFeasible : PackingAnswer::kInfeasible;
    } catch (const RunStopped&) {
      result.answer = PackingAnswer::kStopped;
    }
    result.nodes = nodes_;
    if (result.answer == PackingAnswer::kFeasible) result.schedule = schedule();
    return result;
  }

 private:
  void count_node() {
    ++nodes_;
    if (limits_.max_nodes != 0 && nodes_ >= limits_.max_nodes) throw RunStopped();
    if ((nodes_ & 4095) == 0) throw_if_stopped(limits_.control);
  }

  Duration remaining_time() const {
    Duration total = 0;
    for (std::size_t i = 0; i < sizes_.size(); ++i) total += left_[i] * sizes_[i];
    return total;
  }

  // Martello & Toth's L2 over the unplaced jobs allows `bins` more bins?
  bool bound_allows(int bins) {
    scratch_.clear();
    for (std::size_t i = 0; i < sizes_.size(); ++i) scratch_.insert(scratch_.end(), left_[i], sizes_[i]);
    return bin_packing_bound(scratch_, capacity_) <= bins;
  }

  // Packs the unplaced jobs into `bins` more bins: the longest one opens the next bin, which
  // is then completed in every way that wastes at most what is left to waste.
  bool fill(int bins) {
    count_node();
    const Duration total = remaining_time();
    if (total == 0) return true;
    const Duration waste_left = bins * capacity_ - total;
    if (bins == 0 || waste_left < 0) return false;
    std::vector<int> key = left_;
    key.push_back(bins);
    if (refused_.count(key) != 0 || !bound_allows(bins)) return false;
    std::size_t first = 0;
    while (left_[first] == 0) ++first;
    --left_[first];
    ++taken_[first];
    std::vector<Duration> suffix(sizes_.size() + 1, 0);  // time left of sizes i.. (suffix[i])
    for (std::size_t i = sizes_.size(); i-- > 0;) suffix[i] = suffix[i + 1] + left_[i] * sizes_[i];
    const bool done = complete(first, sizes_[first], capacity_ - waste_left, bins, suffix);
    --taken_[first];
    ++left_[first];
    if (!done && refused_.size() < refused_capacity_) refused_.insert(std::move(key));
    return done;
  }

  // Adds jobs of sizes i.. to the open bin (load so far `load`, taken_ counts what it holds),
  // the most of the longest first; a bin reaching `lowest` is closed and the rest filled.
  bool complete(std::size_t i, Duration load, Duration lowest, int bins,
                const std::vector<Duration>& suffix) {
    count_node();
    if (load + suffix[i] < lowest) return false;  // even every job left cannot reach it
    if (i == sizes_.size()) {
      if (room_for_a_job_left(load) || room_for_a_longer_job(load)) return false;  // dominated
      bins_.push_back(taken_);
      std::fill(taken_.begin(), taken_.end(), 0);
      if (fill(bins - 1)) return true;  // bins_ holds the packing
      taken_ = bins_.back();
      bins_.pop_back();
      return false;
    }
    const auto most = static_cast<int>(
        std::min<Duration>(left_[i], (capacity_ - load) / sizes_[i]));
    for (int c = most; c >= 0; --c) {
      left_[i] -= c;
      taken_[i] += c;
      const bool done = complete(i + 1, load + c * sizes_[i], lowest, bins, suffix);
      left_[i] += c;
      taken_[i] -= c;
      if (done) return true;
    }
    return false;
  }

  // A completion that leaves room for a job still unplaced is dominated by the one that takes
  // it too: in any packing that finishes it, that job can move into the room.
  bool room_for_a_job_left(Duration load) const {
    for (std::size_t i = sizes_.size(); i-- > 0;) {
      if (left_[i] > 0) return sizes_[i] <= capacity_ - load;
    }
    return false;
  }

  // A completion holding a job x where an unplaced longer job y would fit instead (y − x at
  // most the room left) is dominated by the one with y in place of x: in any packing that
  // finishes it, y sits in another bin, and x can take its place there (Korf 2002's dominance
  // for one item). The replacement holds more, so a chain of such swaps (and additions) ends
  // at a completion neither rule refuses, which the search tries. Checked against the
  // nearest longer time still unplaced, the smallest difference.
  bool room_for_a_longer_job(Duration load) const {
    const Duration room = capacity_ - load;
    std::size_t nearest_longer = sizes_.size();  // none yet
    for (std::size_t i = 0; i < sizes_.size(); ++i) {
      if (taken_[i] > 0 && nearest_longer < sizes_.size() &&
          sizes_[nearest_longer] - sizes_[i] <= room) {
        return true;
      }
      if (left_[i] > 0) nearest_longer = i;
    }
    return false;
  }

  // The closed bins, each a machine; the jobs of a time in any order.
  PcmaxSchedule schedule() {
    PcmaxSchedule s;
    s.machine_of_job.assign(instance_.times.size(), -1);
    s.loads.assign(static_cast<std::size_t>(instance_.machines), 0);
    std::vector<std::size_t> next(sizes_.size(), 0);
    for (std::size_t machine = 0; machine < bins_.size(); ++machine) {
      for (std::size_t i = 0; i < sizes_.size(); ++i) {
        for (int c = 0; c < bins_[machine][i]; ++c) {
          s.machine_of_job[jobs_of_size_[i][next[i]++]] = static_cast<int>(machine);
          s.loads[machine] += sizes_[i];
        }
      }
    }
    s.makespan = *std::max_element(s.loads.begin(), s.loads.end());
    return s;
  }

  const PcmaxInstance& instance_;
  const Duration capacity_;
  const PackingLimits& limits_;
  std::vector<Duration> sizes_;
  std::vector<int> left_;
  std::vector<int> taken_;                     // the open bin's jobs per size
  std::vector<std::vector<int>> jobs_of_size_;
  std::vector<std::vector<int>> bins_;         // the closed bins' jobs per size
  std::vector<Duration> scratch_;              // scratch of bound_allows
  std::set<std::vector<int>> refused_;
  std::size_t refused_capacity_ = 0;
  std::uint64_t nodes_ = 0;
};

}  // namespace

PackingResult pack_machines(const PcmaxInstance& instance, Duration capacity,
                            const PackingLimits& limits) {
  return Completion(instance, capacity, limits).run();
}

}  // namespace permbb::pcmax
